/*
 * Whether an ELF file holds a kernel at all, before its segments are read: a separate
 * debug-info file (its loadable sections NOBITS), a program for a dynamic loader, a shared
 * library, a plugin (a shared object importing its host's symbols), a static user program
 * (its C library's ABI tag). The most specific test comes first, so a shared library that also
 * carries an ABI tag is named a shared library. Each refusal says what a kernel would have
 * instead. What the segments themselves must be (code with file bytes, the entry
 * point in it) kernel_elf.c checks as it reads them.
 */
#include <elf.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <string.h>

#include "tools/pack/elf_reader.h"

/* A separate debug-info file (objcopy --only-keep-debug, /usr/lib/debug): code sections
 * whose bytes stayed in the stripped file. */
static bool code_has_no_bytes(Elf *elf, const char **name)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return false;
	bool code = false, nobits_only = true;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(elf, scn)) && gelf_getshdr(scn, &sh)) {
		if (!(sh.sh_flags & SHF_EXECINSTR) || !(sh.sh_flags & SHF_ALLOC) || !sh.sh_size)
			continue;
		if (!code)
			*name = elf_strptr(elf, shstrndx, sh.sh_name);
		code = true;
		nobits_only &= sh.sh_type == SHT_NOBITS;
	}
	if (!*name)
		*name = "?";
	return code && nobits_only;
}

/* The next section after *scn of this type with fixed-size entries and readable data: its
 * header in *sh, its data in *d, its number of entries in *count. False when none is left. */
static bool next_table(Elf *elf, Elf_Scn **scn, GElf_Word type, GElf_Shdr *sh, Elf_Data **d,
		       size_t *count)
{
	while ((*scn = elf_nextscn(elf, *scn)) && gelf_getshdr(*scn, sh))
		if (sh->sh_type == type && sh->sh_entsize && (*d = elf_getdata(*scn, NULL))) {
			*count = sh->sh_size / sh->sh_entsize;
			return true;
		}
	return false;
}

/* The first dynamic entry of this tag with a string value, or NULL. */
static const char *dynamic_string(Elf *elf, GElf_Sxword tag)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf_Data *d;
	size_t n;
	while (next_table(elf, &scn, SHT_DYNAMIC, &sh, &d, &n)) {
		for (size_t i = 0; i < n; i++) {
			GElf_Dyn dyn;
			if (!gelf_getdyn(d, (int)i, &dyn) || dyn.d_tag == DT_NULL)
				break;
			if (dyn.d_tag == tag) {
				const char *s = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val);
				return s ? s : "?";
			}
		}
	}
	return NULL;
}

/* The first symbol a shared object expects whoever loads it to define (undefined, not weak, in
 * .dynsym), or NULL: a kernel is linked whole, nothing resolves symbols for it. */
static const char *imported_symbol(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf_Data *d;
	size_t n;
	while (next_table(elf, &scn, SHT_DYNSYM, &sh, &d, &n)) {
		/* Symbol 0 is the reserved undefined entry every symbol table starts with. */
		for (size_t i = 1; i < n; i++) {
			GElf_Sym sym;
			if (!gelf_getsym(d, (int)i, &sym))
				break;
			if (sym.st_shndx != SHN_UNDEF || GELF_ST_BIND(sym.st_info) != STB_GLOBAL)
				continue;
			const char *s = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (s && *s)
				return s;
		}
	}
	return NULL;
}

static bool has_interpreter(Elf *elf)
{
	size_t count;
	if (elf_getphdrnum(elf, &count) != 0)
		return false;
	for (size_t i = 0; i < count; i++) {
		GElf_Phdr p;
		if (gelf_getphdr(elf, (int)i, &p) && p.p_type == PT_INTERP)
			return true;
	}
	return false;
}

/* An NT_GNU_ABI_TAG note (.note.ABI-tag): the C library's mark of a program for an operating
 * system ("for GNU/Linux 3.2.0"), which a static user program has and a kernel never does. */
static bool has_abi_tag(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(elf, scn)) && gelf_getshdr(scn, &sh)) {
		if (sh.sh_type != SHT_NOTE)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		GElf_Nhdr nh;
		size_t at = 0, name_at, desc_at;
		while (d && (at = gelf_getnote(d, at, &nh, &name_at, &desc_at)) > 0)
			if (nh.n_type == NT_GNU_ABI_TAG && nh.n_namesz == sizeof(ELF_NOTE_GNU) &&
			    memcmp((char *)d->d_buf + name_at, ELF_NOTE_GNU, sizeof(ELF_NOTE_GNU)) == 0)
				return true;
	}
	return false;
}

int reader_check_kernel_shape(struct reader *r)
{
	const char *name = NULL, *s;
	if (code_has_no_bytes(r->elf, &name))
		return reader_fail(r, "a separate debug-info file: its code (%s) holds no bytes "
				      "(SHT_NOBITS); pack the kernel itself, not its debug file",
				   name);
	if ((s = dynamic_string(r->elf, DT_SONAME)))
		return reader_fail(r, "a shared library (DT_SONAME %s), not a kernel: a kernel is a "
				      "static executable",
				   s);
	if (has_interpreter(r->elf))
		return reader_fail(r, "a program for a dynamic loader (it has PT_INTERP), not a kernel: "
				      "a kernel is linked static (ld -static, or -pie "
				      "--no-dynamic-linker for a PIE)");
	if ((s = dynamic_string(r->elf, DT_NEEDED)))
		return reader_fail(r, "it needs a shared library (DT_NEEDED %s): a kernel is linked "
				      "static",
				   s);
	if ((s = imported_symbol(r->elf)))
		return reader_fail(r, "a plugin (a shared object whose loader must supply %s, "
				      "undefined in .dynsym), not a kernel: a kernel defines every "
				      "symbol it uses",
				   s);
	if (has_abi_tag(r->elf))
		return reader_fail(r, "a user program for an operating system (it has a GNU ABI tag, "
				      ".note.ABI-tag), not a kernel: a kernel carries no C library's "
				      "mark");
	return 0;
}
