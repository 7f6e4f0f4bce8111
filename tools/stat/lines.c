/* The boot's serial lines, parsed as key=value words (see lines.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools/stat/lines.h"

#define BASE_PREFIX	    "kslide: base="
#define USABLE_PREFIX	    "kernel: usable="
#define RANDOM_PREFIX	    "kslide: random="
#define LOADER_PREFIX	    "kslide: loader="
#define LINUX_PREFIX	    "kslide-linux: _text="
#define LINUX_USABLE_PREFIX "kslide-linux: usable="
#define STUB_USABLE_PREFIX  "kslide: usable=" /* a trial's (kslide.trial, boot/efi_trial.c) */
#define LINUX_INITRD_PREFIX "kslide-linux: initrd="
#define LINUX_EFI_MEM_PREFIX "kslide-linux: efi: mem"

/* Linux's names of the memory types that matter here (efi_md_typeattr_format's). */
static const struct {
	const char *name;
	enum efi_mem_kind kind;
} efi_kinds[] = {
	{"Conventional", EFI_MEM_CONVENTIONAL},
	{"Loader Code", EFI_MEM_LOADER_CODE},
	{"Loader Data", EFI_MEM_LOADER_DATA},
};

/* The value of " key=" (or "key=" at the line's start) as a string of up to 'cap' - 1 bytes. */
static int word_value(const char *line, const char *key, char *out, size_t cap)
{
	size_t klen = strlen(key);
	for (const char *p = line; (p = strstr(p, key)); p++) {
		if ((p != line && p[-1] != ' ') || p[klen] != '=')
			continue;
		const char *v = p + klen + 1;
		size_t n = strcspn(v, " \r\n");
		if (n == 0 || n >= cap)
			return -1;
		memcpy(out, v, n);
		out[n] = '\0';
		return 0;
	}
	return -1;
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		return -1;
	*out = v;
	return 0;
}

static int word_u64(const char *line, const char *key, uint64_t *out)
{
	char buf[32];
	return word_value(line, key, buf, sizeof(buf)) ? -1 : parse_u64(buf, out);
}

int line_parse_base(const char *line, struct base_line *out)
{
	uint64_t credited;
	if (strncmp(line, BASE_PREFIX, strlen(BASE_PREFIX)))
		return -1;
	line += strlen("kslide: ");
	if (word_u64(line, "base", &out->virt) || word_u64(line, "phys", &out->phys) ||
	    word_u64(line, "slots", &out->slots) || word_u64(line, "align", &out->align) ||
	    word_u64(line, "credited", &credited) || credited > 0xffffffffu ||
	    word_value(line, "entropy", out->entropy, sizeof(out->entropy)))
		return -1;
	out->credited = (unsigned)credited;
	out->has_vslots = word_u64(line, "vslots", &out->vslots) == 0;
	if (out->has_vslots) {
		/* the stub omits valign when it equals align */
		if (word_u64(line, "valign", &out->valign))
			out->valign = out->align;
	} else {
		out->vslots = out->slots;
		out->valign = out->align;
	}
	return 0;
}

static bool at_line_end(const char *p)
{
	return !*p || *p == '\r' || *p == '\n';
}

/* "0x<a>-0x<b>" at *p, a <= b; *p moves past it. 0, or -1. */
static int parse_range(const char **p, uint64_t *a, uint64_t *b)
{
	char *end;
	errno = 0;
	*a = strtoull(*p, &end, 0);
	if (errno || end == *p || *end != '-' || **p == '-')
		return -1;
	const char *second = end + 1;
	*b = strtoull(second, &end, 0);
	if (errno || end == second || *second == '-' || *b < *a)
		return -1;
	*p = end;
	return 0;
}

int line_parse_linux(const char *line, struct linux_report *out)
{
	if (strncmp(line, LINUX_PREFIX, strlen(LINUX_PREFIX)))
		return -1;
	line += strlen("kslide-linux: ");
	char range[48];
	const char *p = range;
	if (word_u64(line, "_text", &out->text) ||
	    word_value(line, "kernel_code", range, sizeof(range)) ||
	    parse_range(&p, &out->code_first, &out->code_last) || *p)
		return -1;
	return 0;
}

int line_parse_usable(const char *line, struct mem_span *spans, size_t cap, size_t *count)
{
	const char *p;
	if (!strncmp(line, USABLE_PREFIX, strlen(USABLE_PREFIX)))
		p = line + strlen(USABLE_PREFIX);
	else if (!strncmp(line, LINUX_USABLE_PREFIX, strlen(LINUX_USABLE_PREFIX)))
		p = line + strlen(LINUX_USABLE_PREFIX);
	else if (!strncmp(line, STUB_USABLE_PREFIX, strlen(STUB_USABLE_PREFIX)))
		p = line + strlen(STUB_USABLE_PREFIX);
	else
		return -1;
	size_t n = 0;
	while (!at_line_end(p)) {
		if (n == cap || parse_range(&p, &spans[n].start, &spans[n].end))
			return -1;
		n++;
		if (*p == ',')
			p++;
		else if (!at_line_end(p))
			return -1;
	}
	*count = n;
	return 0;
}

int line_parse_image(const char *line, uint64_t *at)
{
	if (strncmp(line, LOADER_PREFIX, strlen(LOADER_PREFIX)))
		return -1;
	/* the loader's name is quoted and may hold " image=": read the last word */
	const char *last = NULL;
	for (const char *p = line; (p = strstr(p, " image=")); p++)
		last = p;
	return last ? word_u64(last, "image", at) : -1;
}

int line_parse_initrd(const char *line, struct mem_span *out)
{
	if (strncmp(line, LINUX_INITRD_PREFIX, strlen(LINUX_INITRD_PREFIX)))
		return -1;
	const char *p = line + strlen(LINUX_INITRD_PREFIX);
	return parse_range(&p, &out->start, &out->end) || !at_line_end(p) ? -1 : 0;
}

int line_parse_efi_mem(const char *line, struct efi_mem *out)
{
	if (strncmp(line, LINUX_EFI_MEM_PREFIX, strlen(LINUX_EFI_MEM_PREFIX)))
		return -1;
	char *end;
	const char *p = line + strlen(LINUX_EFI_MEM_PREFIX);
	errno = 0;
	unsigned long index = strtoul(p, &end, 10);
	if (errno || end == p || index > 0xffffffu || strncmp(end, ": [", 3))
		return -1;
	p = end + 3;
	size_t name = strcspn(p, "|]");
	while (name && p[name - 1] == ' ')
		name--;
	out->index = (unsigned)index;
	out->kind = EFI_MEM_OTHER;
	for (size_t i = 0; i < sizeof(efi_kinds) / sizeof(efi_kinds[0]); i++)
		if (strlen(efi_kinds[i].name) == name && !strncmp(p, efi_kinds[i].name, name))
			out->kind = efi_kinds[i].kind;
	const char *range = strstr(p, "] range=[");
	if (!range)
		return -1;
	p = range + strlen("] range=[");
	uint64_t first, last;
	if (parse_range(&p, &first, &last) || *p != ']' || last < first || last == UINT64_MAX)
		return -1;
	out->span = (struct mem_span){first, last + 1};
	return 0;
}

int line_parse_random(const char *line, const char **hex, size_t *len)
{
	if (strncmp(line, RANDOM_PREFIX, strlen(RANDOM_PREFIX)))
		return -1;
	const char *p = line + strlen(RANDOM_PREFIX);
	size_t n = strspn(p, "0123456789abcdef");
	if (n == 0 || n % 2 || (p[n] && p[n] != '\r' && p[n] != '\n'))
		return -1;
	*hex = p;
	*len = n;
	return 0;
}
