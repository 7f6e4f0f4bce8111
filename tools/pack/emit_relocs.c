/*
 * The relocation sections ld --emit-relocs keeps, turned into fixups. Each type is handled or
 * refused by name; what the field and the symbol it names do when the kernel moves (move,
 * stay absolute, stay 0 as an undefined weak symbol, stay in the per-CPU segment) decides
 * whether the field gets a fixup, and which kind.
 */
#include <elf.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "include/kslide/image.h"
#include "tools/pack/elf_reader.h"
#include "tools/pack/gotpcrelx.h"

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

struct reloc_ctx {
	Elf_Data *symbols;
	Elf_Data *symbol_sections; /* SHT_SYMTAB_SHNDX of the table, or NULL */
	const bool *fixed_sections; /* by section index: lies in a fixed segment */
	size_t section_count;
	const char *section_name;
	GElf_Shdr target;
};

/*
 * What moving the kernel does to the thing a relocation names. Only TARGET_MOVES moves; the
 * others stay where they were linked: absolute (SHN_ABS) symbols, undefined weak symbols
 * (address 0) and symbols in a fixed segment (Linux's x86-64 per-CPU variables, whose values
 * are offsets into each CPU's area).
 */
enum target { TARGET_MOVES, TARGET_ABSOLUTE, TARGET_WEAK_UNDEFINED, TARGET_FIXED };

/* A field: its payload offset, where the relocation names it, and whether it moves. */
struct field {
	uint64_t where;
	unsigned long long at; /* offset in its section, for messages */
	bool fixed;	       /* lies in a fixed segment */
};

/* A field of width bytes at payload offset where must lie in the file-backed bytes. */
static bool in_payload(const struct kernel_elf *k, uint64_t where, unsigned width)
{
	return k->file_size >= width && where <= k->file_size - width; /* where wraps if below */
}

/*
 * The field linked at vaddr (r_offset: in a linked executable, the field's virtual address),
 * through the segment holding it. 0, or -1 if no segment does.
 */
static int locate_field(struct reader *r, const struct reloc_ctx *c, uint64_t vaddr,
			unsigned width, struct field *f)
{
	f->at = vaddr - c->target.sh_addr;
	for (size_t i = 0; i < r->k->segment_count; i++) {
		const struct kernel_segment *s = &r->k->segments[i];
		uint64_t in = vaddr - s->vaddr;
		if (in < s->mem_size && s->mem_size - in >= width) {
			f->where = s->offset + in;
			f->fixed = s->fixed;
			return 0;
		}
	}
	return reader_fail(r, "relocation outside the loaded image at %s+0x%llx", c->section_name,
			   f->at);
}

/* An absolute field: patched by kind unless what it names stays put. */
static int absolute_field(struct reader *r, const struct reloc_ctx *c, const struct field *f,
			  enum target target, enum reloc_kind kind, unsigned width)
{
	switch (target) {
	case TARGET_ABSOLUTE: r->k->skipped_absolute++; return 0;
	case TARGET_WEAK_UNDEFINED: r->k->skipped_weak++; return 0;
	case TARGET_FIXED: r->k->skipped_fixed++; return 0;
	case TARGET_MOVES: break;
	}
	if (!in_payload(r->k, f->where, width))
		return reader_fail(r, "relocation outside the loaded image at %s+0x%llx",
				   c->section_name, f->at);
	return reader_add_fixup(r, f->where, kind);
}

/*
 * A 32-bit PC-relative field (wide: a 64-bit one) holds target - field. Nothing changes when
 * both move or both stay; a moving field aimed at something that stays put must lose the
 * slide (RELOC_SUB32S, Linux's "inverse 32-bit" relocations); the other mixes cannot be
 * relocated.
 */
static int pc_relative_field(struct reader *r, const struct reloc_ctx *c, const struct field *f,
			     enum target target, bool wide)
{
	if (target == TARGET_ABSOLUTE && !f->fixed)
		return reader_fail(r, "PC-relative reference to an absolute symbol at %s+0x%llx "
				      "cannot be relocated",
				   c->section_name, f->at);
	bool target_moves = target == TARGET_MOVES;
	if (target_moves == !f->fixed) {
		r->k->skipped_pcrel++;
		return 0;
	}
	if (f->fixed)
		return reader_fail(r, "PC-relative reference from the per-CPU segment at %s+0x%llx to "
				      "the moving kernel cannot be relocated",
				   c->section_name, f->at);
	if (wide)
		return reader_fail(r, "64-bit PC-relative reference at %s+0x%llx to %s cannot be "
				      "relocated",
				   c->section_name, f->at,
				   target == TARGET_FIXED ? "a per-CPU symbol" : "an undefined weak symbol");
	if (!in_payload(r->k, f->where, 4))
		return reader_fail(r, "relocation outside the loaded image at %s+0x%llx",
				   c->section_name, f->at);
	return reader_add_fixup(r, f->where, RELOC_SUB32S);
}

/*
 * A GOTPCRELX label on an instruction the linker may have relaxed (tools/pack/gotpcrelx.h):
 * the bytes decide. An unrelaxed GOT load is refused: the GOT holds absolute addresses that
 * --emit-relocs does not describe.
 */
static int gotpcrelx_field(struct reader *r, const struct reloc_ctx *c, const struct field *f,
			   enum target target, unsigned type)
{
	const char *name = x86_64_type_name(type);
	if (f->where < GOTPCRELX_PREFIX || !in_payload(r->k, f->where, 4))
		return reader_fail(r, "relocation outside the loaded image at %s+0x%llx",
				   c->section_name, f->at);
	switch (gotpcrelx_form(r->k->payload, f->where, type == R_X86_64_REX_GOTPCRELX)) {
	case GOTPCRELX_PCREL:
		return pc_relative_field(r, c, f, target, false);
	case GOTPCRELX_ABS32:
		return absolute_field(r, c, f, target, RELOC_ADD32, 4);
	case GOTPCRELX_ABS32S:
		return absolute_field(r, c, f, target, RELOC_ADD32S, 4);
	case GOTPCRELX_GOT_LOAD:
		return reader_fail(r, "%s at %s+0x%llx loads from the GOT, which is not relocated: "
				      "build the kernel with -fno-pic",
				   name, c->section_name, f->at);
	case GOTPCRELX_UNKNOWN:
		break;
	}
	return reader_fail(r, "%s at %s+0x%llx: unrecognised instruction, cannot tell whether the "
			      "linker made it absolute",
			   name, c->section_name, f->at);
}

/* Whether a symbol of section shndx at value lies in a fixed segment (Linux's per-CPU area). */
static bool in_fixed_segment(const struct reader *r, const struct reloc_ctx *c, size_t shndx,
			     uint64_t value)
{
	if (shndx >= c->section_count || !c->fixed_sections[shndx])
		return false;
	/* GNU ld puts __per_cpu_load and __init_begin, ordinary kernel addresses, in the per-CPU
	 * section too (arch/x86/tools/relocs.c): the value decides. Its end counts as inside. */
	for (size_t i = 0; i < r->k->segment_count; i++) {
		const struct kernel_segment *s = &r->k->segments[i];
		if (s->fixed && value - s->vaddr <= s->mem_size)
			return true;
	}
	return false;
}

/*
 * Linux's x86-64 linker script computes image addresses from per-CPU symbols
 * (init_per_cpu__gdt_page = gdt_page + __per_cpu_load), and ld marks the results absolute. In
 * a kernel with a per-CPU segment, an absolute symbol whose value lies in the image (its end
 * included) is such an address and moves with the kernel: Linux's relocs.c relocates these by
 * name (its S_REL list), and refuses to build a kernel whose other absolute references are not
 * constants (its S_ABS list: CRCs, offsets), none of which lie in the top 2 GiB.
 */
static bool image_address_made_absolute(const struct reader *r, uint64_t value)
{
	bool per_cpu_segment = false;
	for (size_t i = 0; i < r->k->segment_count; i++)
		per_cpu_segment |= r->k->segments[i].fixed;
	return per_cpu_segment && value - r->k->link_virt <= r->k->mem_size;
}

/*
 * What the symbol a relocation names does when the kernel moves, or an error for a bad index
 * or, unless ignored (an R_*_NONE), an undefined symbol that is not weak.
 */
static int relocation_target(struct reader *r, const struct reloc_ctx *c, uint64_t info,
			     unsigned long long at, bool ignored, enum target *target)
{
	GElf_Sym sym;
	GElf_Word extended = 0;
	size_t index = GELF_R_SYM(info);
	if (!gelf_getsymshndx(c->symbols, c->symbol_sections, (int)index, &sym, &extended))
		return reader_fail(r, "bad symbol index in a relocation at %s+0x%llx",
				   c->section_name, at);
	size_t shndx = sym.st_shndx == SHN_XINDEX ? extended : sym.st_shndx;
	*target = TARGET_MOVES;
	if (sym.st_shndx == SHN_ABS && !image_address_made_absolute(r, sym.st_value))
		*target = TARGET_ABSOLUTE;
	else if (sym.st_shndx == SHN_UNDEF && index != 0 && GELF_ST_BIND(sym.st_info) == STB_WEAK)
		*target = TARGET_WEAK_UNDEFINED;
	else if (sym.st_shndx == SHN_UNDEF && index != 0 && !ignored)
		return reader_fail(r, "undefined symbol referenced at %s+0x%llx", c->section_name,
				   at);
	else if (in_fixed_segment(r, c, shndx, sym.st_value))
		*target = TARGET_FIXED;
	return 0;
}

/* Position-independent code's relocations: the GOT and PLT, which nothing relocates here. */
static bool is_pic_type(const char *name)
{
	return name && (strstr(name, "GOT") || strstr(name, "PLT") || strstr(name, "TLS") ||
			strstr(name, "TPOFF") || strstr(name, "DTP"));
}

/* The error for a type neither classifier handles, by name where it has one. */
static int unsupported(struct reader *r, const struct reloc_ctx *c, const char *name,
		       unsigned type, unsigned long long at)
{
	if (is_pic_type(name))
		return reader_fail(r, "unsupported relocation type %s at %s+0x%llx: position-"
				      "independent code; compile with -fno-pic -fno-pie",
				   name, c->section_name, at);
	if (name)
		return reader_fail(r, "unsupported relocation type %s at %s+0x%llx", name,
				   c->section_name, at);
	return reader_fail(r, "unsupported relocation type %u at %s+0x%llx", type,
			   c->section_name, at);
}

static int classify_i386(struct reader *r, const struct reloc_ctx *c, GElf_Rel *rel)
{
	unsigned type = GELF_R_TYPE(rel->r_info);
	unsigned long long at = rel->r_offset - c->target.sh_addr;
	enum target target;
	struct field f;
	if (relocation_target(r, c, rel->r_info, at, type == R_386_NONE, &target))
		return -1;
	if (type == R_386_NONE)
		return 0;
	if (type != R_386_32 && type != R_386_PC32 && type != R_386_PLT32)
		return unsupported(r, c, i386_type_name(type), type, at);
	if (locate_field(r, c, rel->r_offset, 4, &f))
		return -1;
	if (type == R_386_32)
		return absolute_field(r, c, &f, target, RELOC_ADD32, 4);
	return pc_relative_field(r, c, &f, target, false);
}

/* Bytes of the field an x86-64 relocation type patches; 0 for a type not handled here. */
static unsigned x86_64_width(unsigned type)
{
	switch (type) {
	case R_X86_64_64:
	case R_X86_64_PC64:
		return 8;
	case R_X86_64_32:
	case R_X86_64_32S:
	case R_X86_64_PC32:
	case R_X86_64_PLT32:
	case R_X86_64_GOTPCRELX:
	case R_X86_64_REX_GOTPCRELX:
		return 4;
	}
	return 0;
}

/*
 * x86-64: absolute fields hold virtual addresses (-mcmodel=kernel), so each fixup adds the
 * virtual slide (kernel_elf.fixups_follow_virt).
 */
static int classify_x86_64(struct reader *r, const struct reloc_ctx *c, GElf_Rela *rel)
{
	unsigned type = GELF_R_TYPE(rel->r_info);
	unsigned long long at = rel->r_offset - c->target.sh_addr;
	unsigned width = x86_64_width(type);
	enum target target;
	struct field f;
	if (relocation_target(r, c, rel->r_info, at, type == R_X86_64_NONE, &target))
		return -1;
	if (type == R_X86_64_NONE)
		return 0;
	if (!width)
		return unsupported(r, c, x86_64_type_name(type), type, at);
	if (locate_field(r, c, rel->r_offset, width, &f))
		return -1;
	switch (type) {
	case R_X86_64_64:
		return absolute_field(r, c, &f, target, RELOC_ADD64, 8);
	case R_X86_64_32:
		return absolute_field(r, c, &f, target, RELOC_ADD32, 4);
	case R_X86_64_32S:
		return absolute_field(r, c, &f, target, RELOC_ADD32S, 4);
	case R_X86_64_PC32:
	case R_X86_64_PLT32:
		return pc_relative_field(r, c, &f, target, false);
	case R_X86_64_PC64:
		return pc_relative_field(r, c, &f, target, true);
	}
	return gotpcrelx_field(r, c, &f, target, type);
}

static int read_relocation_section(struct reader *r, Elf_Scn *scn, const GElf_Shdr *sh,
				   struct reloc_ctx *c)
{
	size_t shstrndx;
	elf_getshdrstrndx(r->elf, &shstrndx);
	Elf_Scn *target = elf_getscn(r->elf, sh->sh_info);
	Elf_Scn *symtab = elf_getscn(r->elf, sh->sh_link);
	GElf_Shdr symsh;
	if (!target || !symtab || !gelf_getshdr(target, &c->target) || !gelf_getshdr(symtab, &symsh))
		return reader_fail(r, "relocation section with a bad target or symbol table");
	if (!(c->target.sh_flags & SHF_ALLOC))
		return 0; /* debug information: not loaded, nothing to move */
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	/* Notes (Xen's entry points, say) are read from the file by whoever boots it, at their
	 * link addresses; Linux's relocs.c leaves them alone too. */
	if (c->target.sh_type == SHT_NOTE) {
		r->k->skipped_notes += n;
		return 0;
	}
	c->section_name = elf_strptr(r->elf, shstrndx, c->target.sh_name);
	c->section_name = c->section_name ? c->section_name : "?";
	c->symbols = elf_getdata(symtab, NULL);
	c->symbol_sections = NULL;
	Elf_Scn *x = NULL;
	while ((x = elf_nextscn(r->elf, x))) {
		GElf_Shdr xs;
		if (gelf_getshdr(x, &xs) && xs.sh_type == SHT_SYMTAB_SHNDX && xs.sh_link == sh->sh_link)
			c->symbol_sections = elf_getdata(x, NULL);
	}
	Elf_Data *data = elf_getdata(scn, NULL);
	if (!c->symbols || !data)
		return reader_fail(r, "cannot read relocations for %s", c->section_name);
	bool x86_64 = r->k->arch == KSLIDE_ARCH_X86_64;
	if (!x86_64 && sh->sh_type == SHT_RELA)
		return reader_fail(r, "RELA relocations for %s are not supported for i386",
				   c->section_name);
	if (x86_64 && sh->sh_type == SHT_REL)
		return reader_fail(r, "REL relocations for %s are not supported for x86-64",
				   c->section_name);
	for (size_t i = 0; x86_64 && i < n; i++) {
		GElf_Rela rela;
		if (!gelf_getrela(data, (int)i, &rela))
			return reader_fail(r, "cannot read relocation %zu for %s", i, c->section_name);
		if (classify_x86_64(r, c, &rela))
			return -1;
	}
	for (size_t i = 0; !x86_64 && i < n; i++) {
		GElf_Rel rel;
		if (!gelf_getrel(data, (int)i, &rel))
			return reader_fail(r, "cannot read relocation %zu for %s", i, c->section_name);
		if (classify_i386(r, c, &rel))
			return -1;
	}
	return 0;
}

/* Which sections lie in a fixed segment, by index (struct reloc_ctx.fixed_sections). */
static bool *fixed_sections(struct reader *r, size_t *count)
{
	if (elf_getshdrnum(r->elf, count) != 0)
		return NULL;
	bool *fixed = calloc(*count ? *count : 1, sizeof(*fixed));
	for (size_t i = 0; fixed && i < *count; i++) {
		GElf_Shdr sh;
		Elf_Scn *scn = elf_getscn(r->elf, i);
		if (!scn || !gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC))
			continue;
		for (size_t j = 0; j < r->k->segment_count; j++) {
			const struct kernel_segment *s = &r->k->segments[j];
			if (s->fixed && sh.sh_addr - s->vaddr <= s->mem_size &&
			    sh.sh_size <= s->mem_size - (sh.sh_addr - s->vaddr))
				fixed[i] = true;
		}
	}
	return fixed;
}

int emit_relocs_read(struct reader *r)
{
	struct reloc_ctx c = { 0 };
	bool *fixed = fixed_sections(r, &c.section_count);
	if (!fixed)
		return reader_fail(r, "out of memory");
	c.fixed_sections = fixed;
	Elf_Scn *scn = NULL;
	bool any = false;
	int rc = 0;
	while (rc == 0 && (scn = elf_nextscn(r->elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			rc = reader_fail(r, "cannot read a section header");
		else if (sh.sh_type == SHT_REL || sh.sh_type == SHT_RELA) {
			any = true;
			rc = read_relocation_section(r, scn, &sh, &c);
		}
	}
	free(fixed);
	if (rc == 0 && !any)
		rc = reader_fail(r, "no relocations: link the kernel with --emit-relocs; without "
				    "them kslide cannot move it (a kernel whose link you cannot "
				    "change, as GNU Mach's or Xen's as shipped, cannot be "
				    "randomized)");
	return rc;
}
