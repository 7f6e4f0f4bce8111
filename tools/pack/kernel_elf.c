/*
 * Reading a kernel with libelf: PT_LOAD segments become one flat payload from the lowest
 * physical address; relocation sections kept by --emit-relocs become fixups (a static PIE's
 * dynamic relocations: dynamic_relocs.c). Every relocation type is either handled or
 * rejected by name.
 */
#include <elf.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/kslide/image.h"
#include "tools/pack/elf_reader.h"
#include "tools/pack/gotpcrelx.h"
#include "tools/pack/kernel_elf.h"

#define PAGE_SIZE 4096u
/* Larger kernels are surely mislinked, and would not fit the x86-64 kernel-model window. */
#define KERNEL_MAX_BYTES 0x40000000u

int reader_fail(struct reader *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->err, r->err_cap, fmt, ap);
	va_end(ap);
	return -1;
}

static const char *i386_type_name(unsigned type)
{
	static const char *const names[] = {
		[R_386_NONE] = "R_386_NONE",	 [R_386_32] = "R_386_32",
		[R_386_PC32] = "R_386_PC32",	 [R_386_GOT32] = "R_386_GOT32",
		[R_386_PLT32] = "R_386_PLT32",	 [R_386_COPY] = "R_386_COPY",
		[R_386_GLOB_DAT] = "R_386_GLOB_DAT", [R_386_JMP_SLOT] = "R_386_JMP_SLOT",
		[R_386_RELATIVE] = "R_386_RELATIVE", [R_386_GOTOFF] = "R_386_GOTOFF",
		[R_386_GOTPC] = "R_386_GOTPC",	 [R_386_32PLT] = "R_386_32PLT",
		[R_386_TLS_TPOFF] = "R_386_TLS_TPOFF", [R_386_16] = "R_386_16",
		[R_386_PC16] = "R_386_PC16",	 [R_386_8] = "R_386_8",
		[R_386_PC8] = "R_386_PC8",	 [R_386_GOT32X] = "R_386_GOT32X",
	};
	if (type < sizeof(names) / sizeof(names[0]) && names[type])
		return names[type];
	return NULL;
}

const char *x86_64_type_name(unsigned type)
{
	static const char *const names[] = {
		[R_X86_64_NONE] = "R_X86_64_NONE",
		[R_X86_64_64] = "R_X86_64_64",
		[R_X86_64_PC32] = "R_X86_64_PC32",
		[R_X86_64_GOT32] = "R_X86_64_GOT32",
		[R_X86_64_PLT32] = "R_X86_64_PLT32",
		[R_X86_64_COPY] = "R_X86_64_COPY",
		[R_X86_64_GLOB_DAT] = "R_X86_64_GLOB_DAT",
		[R_X86_64_JUMP_SLOT] = "R_X86_64_JUMP_SLOT",
		[R_X86_64_RELATIVE] = "R_X86_64_RELATIVE",
		[R_X86_64_GOTPCREL] = "R_X86_64_GOTPCREL",
		[R_X86_64_32] = "R_X86_64_32",
		[R_X86_64_32S] = "R_X86_64_32S",
		[R_X86_64_16] = "R_X86_64_16",
		[R_X86_64_PC16] = "R_X86_64_PC16",
		[R_X86_64_8] = "R_X86_64_8",
		[R_X86_64_PC8] = "R_X86_64_PC8",
		[R_X86_64_DTPMOD64] = "R_X86_64_DTPMOD64",
		[R_X86_64_DTPOFF64] = "R_X86_64_DTPOFF64",
		[R_X86_64_TPOFF64] = "R_X86_64_TPOFF64",
		[R_X86_64_TLSGD] = "R_X86_64_TLSGD",
		[R_X86_64_TLSLD] = "R_X86_64_TLSLD",
		[R_X86_64_DTPOFF32] = "R_X86_64_DTPOFF32",
		[R_X86_64_GOTTPOFF] = "R_X86_64_GOTTPOFF",
		[R_X86_64_TPOFF32] = "R_X86_64_TPOFF32",
		[R_X86_64_PC64] = "R_X86_64_PC64",
		[R_X86_64_GOTOFF64] = "R_X86_64_GOTOFF64",
		[R_X86_64_GOTPC32] = "R_X86_64_GOTPC32",
		[R_X86_64_GOT64] = "R_X86_64_GOT64",
		[R_X86_64_GOTPCREL64] = "R_X86_64_GOTPCREL64",
		[R_X86_64_GOTPC64] = "R_X86_64_GOTPC64",
		[R_X86_64_GOTPLT64] = "R_X86_64_GOTPLT64",
		[R_X86_64_PLTOFF64] = "R_X86_64_PLTOFF64",
		[R_X86_64_SIZE32] = "R_X86_64_SIZE32",
		[R_X86_64_SIZE64] = "R_X86_64_SIZE64",
		[R_X86_64_GOTPC32_TLSDESC] = "R_X86_64_GOTPC32_TLSDESC",
		[R_X86_64_TLSDESC_CALL] = "R_X86_64_TLSDESC_CALL",
		[R_X86_64_TLSDESC] = "R_X86_64_TLSDESC",
		[R_X86_64_IRELATIVE] = "R_X86_64_IRELATIVE",
		[R_X86_64_RELATIVE64] = "R_X86_64_RELATIVE64",
		[R_X86_64_GOTPCRELX] = "R_X86_64_GOTPCRELX",
		[R_X86_64_REX_GOTPCRELX] = "R_X86_64_REX_GOTPCRELX",
	};
	if (type < sizeof(names) / sizeof(names[0]) && names[type])
		return names[type];
	return NULL;
}

int reader_add_fixup(struct reader *r, uint64_t offset, enum reloc_kind kind)
{
	struct kernel_elf *k = r->k;
	if (k->fixup_count == k->fixup_cap) {
		size_t cap = k->fixup_cap ? 2 * k->fixup_cap : 1024;
		struct fixup *f = realloc(k->fixups, cap * sizeof(*f));
		if (!f)
			return reader_fail(r, "out of memory");
		k->fixups = f;
		k->fixup_cap = cap;
	}
	k->fixups[k->fixup_count].offset = offset;
	k->fixups[k->fixup_count].kind = kind;
	k->fixup_count++;
	return 0;
}

/* Segments: contiguous physical layout, one constant virtual-physical offset, no overlap. */
static int read_segments(struct reader *r)
{
	/* ELF32 fields are 32 bits: a segment ending past 4 GiB wraps around. */
	uint64_t space = r->k->arch == KSLIDE_ARCH_I386 ? 1ull << 32 : 0;
	size_t count;
	if (elf_getphdrnum(r->elf, &count) != 0)
		return reader_fail(r, "cannot read program headers: %s", elf_errmsg(-1));
	uint64_t lo = UINT64_MAX, mem_end = 0, file_end = 0, delta = 0;
	bool any = false;
	for (size_t i = 0; i < count; i++) {
		GElf_Phdr p;
		if (!gelf_getphdr(r->elf, (int)i, &p))
			return reader_fail(r, "cannot read program header %zu", i);
		if (p.p_type != PT_LOAD)
			continue;
		/* Before skipping empty segments: copy_segments copies all file-backed ones. */
		if (p.p_filesz > p.p_memsz)
			return reader_fail(r, "segment %zu has a file size larger than its memory size", i);
		if (p.p_memsz == 0)
			continue;
		if (p.p_paddr + p.p_memsz < p.p_paddr || p.p_vaddr + p.p_memsz < p.p_vaddr ||
		    (space && (p.p_paddr + p.p_memsz > space || p.p_vaddr + p.p_memsz > space)))
			return reader_fail(r, "segment %zu wraps around the address space", i);
		if (any && p.p_vaddr - p.p_paddr != delta)
			return reader_fail(r, "segments have different virtual-to-physical offsets");
		delta = p.p_vaddr - p.p_paddr;
		any = true;
		lo = p.p_paddr < lo ? p.p_paddr : lo;
		mem_end = p.p_paddr + p.p_memsz > mem_end ? p.p_paddr + p.p_memsz : mem_end;
		if (p.p_filesz && p.p_paddr + p.p_filesz > file_end)
			file_end = p.p_paddr + p.p_filesz;
	}
	if (!any)
		return reader_fail(r, "no loadable segments");
	if (lo % PAGE_SIZE)
		return reader_fail(r, "lowest segment is not page aligned (0x%llx)", (unsigned long long)lo);
	if (mem_end - lo > KERNEL_MAX_BYTES)
		return reader_fail(r, "segments span %llu MiB, more than a kernel may (%u MiB): are "
				      "they linked far apart?",
				   (unsigned long long)((mem_end - lo) >> 20), KERNEL_MAX_BYTES >> 20);
	r->k->link_phys = lo;
	r->k->link_virt = lo + delta;
	r->k->mem_size = mem_end - lo;
	r->k->file_size = file_end > lo ? file_end - lo : 0;
	return 0;
}

static int check_overlap(struct reader *r, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		GElf_Phdr a, b;
		gelf_getphdr(r->elf, (int)i, &a);
		if (a.p_type != PT_LOAD || a.p_memsz == 0)
			continue;
		for (size_t j = i + 1; j < count; j++) {
			gelf_getphdr(r->elf, (int)j, &b);
			if (b.p_type != PT_LOAD || b.p_memsz == 0)
				continue;
			if (a.p_paddr < b.p_paddr + b.p_memsz && b.p_paddr < a.p_paddr + a.p_memsz)
				return reader_fail(r, "segments overlap (%zu and %zu)", i, j);
		}
	}
	return 0;
}

static int copy_segments(struct reader *r, const uint8_t *buf, size_t len)
{
	size_t count;
	elf_getphdrnum(r->elf, &count);
	if (check_overlap(r, count))
		return -1;
	for (size_t i = 0; i < count; i++) {
		GElf_Phdr p;
		gelf_getphdr(r->elf, (int)i, &p);
		if (p.p_type == PT_LOAD && p.p_filesz &&
		    (p.p_offset > len || p.p_filesz > len - p.p_offset))
			return reader_fail(r, "segment %zu lies past the end of the file", i);
	}
	r->k->payload = calloc(1, r->k->file_size ? r->k->file_size : 1);
	if (!r->k->payload)
		return reader_fail(r, "out of memory for a %llu-byte payload",
			    (unsigned long long)r->k->file_size);
	for (size_t i = 0; i < count; i++) {
		GElf_Phdr p;
		gelf_getphdr(r->elf, (int)i, &p);
		if (p.p_type != PT_LOAD || p.p_filesz == 0)
			continue;
		memcpy(r->k->payload + (p.p_paddr - r->k->link_phys), buf + p.p_offset, p.p_filesz);
	}
	return 0;
}

static int read_entry(struct reader *r)
{
	GElf_Ehdr eh;
	gelf_getehdr(r->elf, &eh);
	struct kernel_elf *k = r->k;
	if (eh.e_entry - k->link_virt < k->mem_size)
		k->entry_offset = eh.e_entry - k->link_virt;
	else if (eh.e_entry - k->link_phys < k->mem_size)
		k->entry_offset = eh.e_entry - k->link_phys;
	else
		return reader_fail(r, "entry point outside the image (0x%llx)", (unsigned long long)eh.e_entry);
	return 0;
}

struct reloc_ctx {
	Elf_Data *symbols;
	size_t strtab;
	const char *section_name;
	GElf_Shdr target;
};

/* A field of width bytes at payload offset where must lie in the file-backed bytes. */
static bool in_payload(const struct kernel_elf *k, uint64_t where, unsigned width)
{
	return k->file_size >= width && where <= k->file_size - width; /* where wraps if below */
}

/* An absolute field: patched by kind unless it names an SHN_ABS symbol, which must not move. */
static int absolute_field(struct reader *r, const struct reloc_ctx *c, uint64_t where,
			  unsigned long long at, bool absolute, enum reloc_kind kind,
			  unsigned width)
{
	if (absolute) {
		r->k->skipped_absolute++;
		return 0;
	}
	if (!in_payload(r->k, where, width))
		return reader_fail(r, "relocation outside the loaded image at %s+0x%llx", c->section_name,
			    at);
	return reader_add_fixup(r, where, kind);
}

static int pc_relative_field(struct reader *r, const struct reloc_ctx *c, unsigned long long at,
			     bool absolute)
{
	if (absolute)
		return reader_fail(r, "PC-relative reference to an absolute symbol at %s+0x%llx "
			       "cannot be relocated",
			    c->section_name, at);
	r->k->skipped_pcrel++;
	return 0;
}

/*
 * A GOTPCRELX label on an instruction the linker may have relaxed (tools/pack/gotpcrelx.h):
 * the bytes decide. An unrelaxed GOT load is refused: the GOT holds absolute addresses that
 * --emit-relocs does not describe.
 */
static int gotpcrelx_field(struct reader *r, const struct reloc_ctx *c, uint64_t where,
			   unsigned long long at, bool absolute, unsigned type)
{
	const char *name = x86_64_type_name(type);
	if (where < GOTPCRELX_PREFIX || !in_payload(r->k, where, 4))
		return reader_fail(r, "relocation outside the loaded image at %s+0x%llx", c->section_name,
			    at);
	switch (gotpcrelx_form(r->k->payload, where, type == R_X86_64_REX_GOTPCRELX)) {
	case GOTPCRELX_PCREL:
		return pc_relative_field(r, c, at, absolute);
	case GOTPCRELX_ABS32:
		return absolute_field(r, c, where, at, absolute, RELOC_ADD32, 4);
	case GOTPCRELX_ABS32S:
		return absolute_field(r, c, where, at, absolute, RELOC_ADD32S, 4);
	case GOTPCRELX_GOT_LOAD:
		return reader_fail(r, "%s at %s+0x%llx loads from the GOT, which is not relocated: "
			       "build the kernel with -fno-pic",
			    name, c->section_name, at);
	case GOTPCRELX_UNKNOWN:
		break;
	}
	return reader_fail(r, "%s at %s+0x%llx: unrecognised instruction, cannot tell whether the "
		       "linker made it absolute",
		    name, c->section_name, at);
}

/*
 * The symbol a relocation names: whether it is absolute (SHN_ABS), or an error for a bad
 * index or, unless ignored (an R_*_NONE), an undefined symbol.
 */
static int relocation_symbol(struct reader *r, const struct reloc_ctx *c, uint64_t info,
			     unsigned long long at, bool ignored, bool *absolute)
{
	GElf_Sym sym;
	if (!gelf_getsym(c->symbols, (int)GELF_R_SYM(info), &sym))
		return reader_fail(r, "bad symbol index in a relocation at %s+0x%llx",
				   c->section_name, at);
	*absolute = sym.st_shndx == SHN_ABS;
	if (!ignored && sym.st_shndx == SHN_UNDEF && GELF_R_SYM(info) != 0)
		return reader_fail(r, "undefined symbol referenced at %s+0x%llx", c->section_name,
				   at);
	return 0;
}

/* The error for a type neither classifier handles, by name where it has one. */
static int unsupported(struct reader *r, const struct reloc_ctx *c, const char *name,
		       unsigned type, unsigned long long at)
{
	if (name)
		return reader_fail(r, "unsupported relocation type %s at %s+0x%llx", name,
				   c->section_name, at);
	return reader_fail(r, "unsupported relocation type %u at %s+0x%llx", type,
			   c->section_name, at);
}

static int classify_i386(struct reader *r, const struct reloc_ctx *c, GElf_Rel *rel)
{
	unsigned type = GELF_R_TYPE(rel->r_info);
	/* In a linked executable r_offset is the field's virtual address. */
	uint64_t where = rel->r_offset - r->k->link_virt;
	unsigned long long at = rel->r_offset - c->target.sh_addr;
	bool absolute;
	if (relocation_symbol(r, c, rel->r_info, at, type == R_386_NONE, &absolute))
		return -1;
	if (type == R_386_NONE)
		return 0;
	switch (type) {
	case R_386_32:
		return absolute_field(r, c, where, at, absolute, RELOC_ADD32, 4);
	case R_386_PC32:
	case R_386_PLT32:
		return pc_relative_field(r, c, at, absolute);
	}
	return unsupported(r, c, i386_type_name(type), type, at);
}

/*
 * x86-64: absolute fields hold virtual addresses (-mcmodel=kernel), so each fixup adds the
 * virtual slide (kernel_elf.fixups_follow_virt).
 */
static int classify_x86_64(struct reader *r, const struct reloc_ctx *c, GElf_Rela *rel)
{
	unsigned type = GELF_R_TYPE(rel->r_info);
	uint64_t where = rel->r_offset - r->k->link_virt;
	unsigned long long at = rel->r_offset - c->target.sh_addr;
	bool absolute;
	if (relocation_symbol(r, c, rel->r_info, at, type == R_X86_64_NONE, &absolute))
		return -1;
	if (type == R_X86_64_NONE)
		return 0;
	switch (type) {
	case R_X86_64_64:
		return absolute_field(r, c, where, at, absolute, RELOC_ADD64, 8);
	case R_X86_64_32:
		return absolute_field(r, c, where, at, absolute, RELOC_ADD32, 4);
	case R_X86_64_32S:
		return absolute_field(r, c, where, at, absolute, RELOC_ADD32S, 4);
	case R_X86_64_PC32:
	case R_X86_64_PLT32:
	case R_X86_64_PC64:
		return pc_relative_field(r, c, at, absolute);
	case R_X86_64_GOTPCRELX:
	case R_X86_64_REX_GOTPCRELX:
		return gotpcrelx_field(r, c, where, at, absolute, type);
	}
	return unsupported(r, c, x86_64_type_name(type), type, at);
}

static int read_relocation_section(struct reader *r, Elf_Scn *scn, const GElf_Shdr *sh)
{
	size_t shstrndx;
	elf_getshdrstrndx(r->elf, &shstrndx);
	Elf_Scn *target = elf_getscn(r->elf, sh->sh_info);
	Elf_Scn *symtab = elf_getscn(r->elf, sh->sh_link);
	struct reloc_ctx c;
	GElf_Shdr symsh;
	if (!target || !symtab || !gelf_getshdr(target, &c.target) || !gelf_getshdr(symtab, &symsh))
		return reader_fail(r, "relocation section with a bad target or symbol table");
	if (!(c.target.sh_flags & SHF_ALLOC))
		return 0; /* debug information: not loaded, nothing to move */
	c.section_name = elf_strptr(r->elf, shstrndx, c.target.sh_name);
	c.section_name = c.section_name ? c.section_name : "?";
	c.symbols = elf_getdata(symtab, NULL);
	Elf_Data *data = elf_getdata(scn, NULL);
	if (!c.symbols || !data)
		return reader_fail(r, "cannot read relocations for %s", c.section_name);
	bool x86_64 = r->k->arch == KSLIDE_ARCH_X86_64;
	if (!x86_64 && sh->sh_type == SHT_RELA)
		return reader_fail(r, "RELA relocations for %s are not supported for i386", c.section_name);
	if (x86_64 && sh->sh_type == SHT_REL)
		return reader_fail(r, "REL relocations for %s are not supported for x86-64",
			    c.section_name);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	for (size_t i = 0; x86_64 && i < n; i++) {
		GElf_Rela rela;
		if (!gelf_getrela(data, (int)i, &rela))
			return reader_fail(r, "cannot read relocation %zu for %s", i, c.section_name);
		if (classify_x86_64(r, &c, &rela))
			return -1;
	}
	for (size_t i = 0; !x86_64 && i < n; i++) {
		GElf_Rel rel;
		if (!gelf_getrel(data, (int)i, &rel))
			return reader_fail(r, "cannot read relocation %zu for %s", i, c.section_name);
		if (classify_i386(r, &c, &rel))
			return -1;
	}
	return 0;
}

static int read_relocations(struct reader *r)
{
	Elf_Scn *scn = NULL;
	bool any = false;
	while ((scn = elf_nextscn(r->elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			return reader_fail(r, "cannot read a section header");
		if (sh.sh_type != SHT_REL && sh.sh_type != SHT_RELA)
			continue;
		any = true;
		if (read_relocation_section(r, scn, &sh))
			return -1;
	}
	if (!any)
		return reader_fail(r, "no relocations: link the kernel with --emit-relocs");
	return 0;
}

/* libelf quietly sees no sections (or fails on a header) when a table is cut off. */
static int check_tables(struct reader *r, const GElf_Ehdr *eh, size_t len)
{
	/* e_shnum 0 with e_shoff set: the count is in section 0, so there is at least one. */
	uint64_t shnum = eh->e_shnum ? eh->e_shnum : eh->e_shoff != 0;
	size_t phnum, count;
	if (eh->e_shoff > len || shnum * eh->e_shentsize > len - eh->e_shoff)
		return reader_fail(r, "section headers lie past the end of the file (truncated?)");
	if (elf_getphdrnum(r->elf, &phnum) != 0 || elf_getshdrnum(r->elf, &count) != 0)
		return reader_fail(r, "cannot count the headers: %s", elf_errmsg(-1));
	if ((uint64_t)count * eh->e_shentsize > len - eh->e_shoff)
		return reader_fail(r, "section headers lie past the end of the file (truncated?)");
	if (eh->e_phnum != PN_XNUM)
		phnum = eh->e_phnum; /* libelf counts 0 when the table is cut off */
	if (eh->e_phoff > len || (uint64_t)phnum * eh->e_phentsize > len - eh->e_phoff)
		return reader_fail(r, "program headers lie past the end of the file (truncated?)");
	return 0;
}

/* GNU ld marks a PIE linked at a non-zero base ET_EXEC; its PT_DYNAMIC gives it away. */
static bool has_dynamic_segment(Elf *elf)
{
	size_t count;
	if (elf_getphdrnum(elf, &count) != 0)
		return false;
	for (size_t i = 0; i < count; i++) {
		GElf_Phdr p;
		if (gelf_getphdr(elf, (int)i, &p) && p.p_type == PT_DYNAMIC)
			return true;
	}
	return false;
}

/* Image order: the stub patches each block of the image right after copying it
 * (lib/reloc.h, reloc_move), which needs the groups in ascending order. */
static int fixup_order(const void *a, const void *b)
{
	const struct fixup *x = a, *y = b;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

int kernel_elf_read(const uint8_t *buf, size_t len, struct kernel_elf *out, char *err,
		    size_t err_cap)
{
	memset(out, 0, sizeof(*out));
	struct reader r = { .k = out, .err = err, .err_cap = err_cap };
	if (len < SELFMAG || memcmp(buf, ELFMAG, SELFMAG) != 0)
		return reader_fail(&r, "not an ELF file");
	elf_version(EV_CURRENT);
	r.elf = elf_memory((char *)buf, len);
	GElf_Ehdr eh;
	int rc = -1;
	if (!r.elf || !gelf_getehdr(r.elf, &eh))
		reader_fail(&r, "malformed ELF header");
	else if (eh.e_type != ET_EXEC && !(eh.e_type == ET_DYN && eh.e_machine == EM_X86_64))
		reader_fail(&r, eh.e_type == ET_DYN ? "an i386 kernel cannot be a PIE: link it with "
						  "--emit-relocs"
					: "not an executable (link the kernel, do not pack an object file)");
	else if (!(eh.e_machine == EM_386 && gelf_getclass(r.elf) == ELFCLASS32) &&
		 !(eh.e_machine == EM_X86_64 && gelf_getclass(r.elf) == ELFCLASS64))
		reader_fail(&r, "not an i386 or x86-64 kernel");
	else {
		out->arch = eh.e_machine == EM_386 ? KSLIDE_ARCH_I386 : KSLIDE_ARCH_X86_64;
		out->fixups_follow_virt = out->arch == KSLIDE_ARCH_X86_64;
		out->pie = out->arch == KSLIDE_ARCH_X86_64 &&
			   (eh.e_type == ET_DYN || has_dynamic_segment(r.elf));
		rc = check_tables(&r, &eh, len);
		rc = rc ? rc : read_segments(&r);
		rc = rc ? rc : copy_segments(&r, buf, len);
		rc = rc ? rc : read_entry(&r);
		rc = rc ? rc : out->pie ? dynamic_relocs_read(&r) : read_relocations(&r);
	}
	if (r.elf)
		elf_end(r.elf);
	if (rc == 0 && out->fixup_count)
		qsort(out->fixups, out->fixup_count, sizeof(out->fixups[0]), fixup_order);
	if (rc)
		kernel_elf_free(out);
	return rc;
}

void kernel_elf_free(struct kernel_elf *k)
{
	free(k->payload);
	free(k->fixups);
	k->payload = NULL;
	k->fixups = NULL;
}
