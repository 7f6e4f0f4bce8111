/* kallsyms: lookups in the generated table, and the per-reader views of it. */
#include <stddef.h>

#include "kernel/secrecy/kallsyms.h"
#include "kernel/secrecy/kptr.h"
#include "kernel/secrecy/sysctl.h"

int strcmp(const char *a, const char *b);

/* The generated table (kallsyms.S, see tools/kslide-kallsyms.c). */
extern const uint32_t kallsyms_num;
extern const uint32_t kallsyms_offsets[];
extern const uint32_t kallsyms_name_offsets[];
extern const char kallsyms_types[];
extern const char kallsyms_names[];
extern char _kernel_start[];

unsigned kallsyms_count(void)
{
	return kallsyms_num;
}

void kallsyms_entry(unsigned i, uintptr_t *addr, char *type, const char **name)
{
	*addr = (uintptr_t)_kernel_start + kallsyms_offsets[i];
	*type = kallsyms_types[i];
	*name = kallsyms_names + kallsyms_name_offsets[i];
}

bool kallsyms_lookup(const char *name, uintptr_t *addr)
{
	for (unsigned i = 0; i < kallsyms_num; i++) {
		char type;
		const char *n;
		kallsyms_entry(i, addr, &type, &n);
		if (strcmp(n, name) == 0)
			return true;
	}
	return false;
}

/*
 * The runtime view is %pK's: the address, or zeros, per kptr_restrict. The unslid view is
 * the address the symbol has in the kernel's ELF file and System.map, which anyone with the
 * distribution's kernel package already has: it tells a profiler which function a sample is
 * in without telling anyone the slide. kptr_restrict=2 hides even that, for symmetry with
 * Linux's "hide everything" setting.
 */
bool kallsyms_show(unsigned i, unsigned view, const struct cred *reader, struct ksym *out)
{
	if (i >= kallsyms_num)
		return false;
	uintptr_t addr;
	char type;
	const char *name;
	kallsyms_entry(i, &addr, &type, &name);
	if (view == KSYM_VIEW_RUNTIME)
		out->addr = kptr_restricted(addr, reader);
	else if (view == KSYM_VIEW_UNSLID)
		out->addr = sysctl_kptr_restrict >= 2 ? 0 : (uint64_t)(addr - kernel_virt_slide);
	else
		return false;
	out->type = (uint32_t)type;
	size_t n = 0;
	for (; name[n] && n + 1 < sizeof(out->name); n++)
		out->name[n] = name[n];
	for (; n < sizeof(out->name); n++)
		out->name[n] = '\0';
	return true;
}
