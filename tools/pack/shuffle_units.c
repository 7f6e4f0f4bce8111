/*
 * kslide-pack --shuffle (lib/shuffle.h): which sections move, which references follow them.
 *
 * A unit is a function section the link kept apart: an allocated, executable SHT_PROGBITS
 * section named .text.* (gcc -ffunction-sections; ld --unique=.text.*, or a script that lists
 * them). What does not move: plain .text, the section holding the entry point, anything that
 * is not a function section. The region is the units' span from the first unit up to the next
 * other section (or the end of their segment's file bytes); nothing else may lie inside it,
 * and one segment must hold it all.
 *
 * References come from the --emit-relocs sections, whose symbols say which section each one
 * names (the symbol's section decides, never the value stored). Checked: every relocation that
 * lies in a unit or names one is of a type handled here (R_386_32, R_386_PC32, R_386_PLT32;
 * R_X86_64_64, R_X86_64_32, R_X86_64_32S, R_X86_64_PC32, R_X86_64_PLT32), and no x86-64
 * 4-byte field can overflow its type in any layout: a PC-relative one here, from the moves its
 * two units can make; an absolute one, which the base's slide moves as well, against every
 * base of the window once the packing policy has chosen it (shuffle_units_check_bases).
 * Not checked: a PC-relative reference that leaves its unit with no relocation at all. An
 * assembler cannot resolve a reference to another section itself and always leaves one, so
 * such references come only from hand-written code that computes with link-time distances
 * between sections (docs/kernel-authors.md, "Function-granular shuffling").
 */
#include <elf.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/shuffle.h"
#include "lib/unaligned.h"
#include "tools/pack/base_window.h"
#include "tools/pack/fail.h"
#include "tools/pack/shuffle_units.h"

#define FUNCTION_SECTION_PREFIX ".text."

struct section {
	const char *name;
	uint64_t offset; /* in the payload */
	uint64_t size;
	uint64_t align;
	int unit; /* index among the units, or -1 */
	bool placed; /* allocated, with bytes in the payload */
};

struct unit_ref {
	size_t section;
	uint64_t offset;
};

struct reference {
	uint32_t site, kind, site_unit, target_unit;
};

/* The moves a unit can make in any layout: from the region's start to its end less the unit's
 * size (alignment only narrows them). */
struct move_range {
	int64_t low, high;
};

struct context {
	Elf *elf;
	const struct kernel_elf *k;
	struct section *sections;
	size_t section_count;
	struct unit_ref *units;
	size_t unit_count;
	struct reference *refs;
	size_t ref_count, ref_cap;
	size_t bound_cap;
	uint64_t region_start, region_end;
	struct shuffle_units *out;
	char *err;
	size_t err_cap;
};

/* The payload offset of the allocated bytes linked at vaddr, size long, or -1 if no segment
 * holds them. */
static int64_t payload_offset(const struct kernel_elf *k, uint64_t vaddr, uint64_t size)
{
	for (size_t i = 0; i < k->segment_count; i++) {
		const struct kernel_segment *s = &k->segments[i];
		uint64_t in = vaddr - s->vaddr;
		if (in <= s->mem_size && size <= s->mem_size - in)
			return (int64_t)(s->offset + in);
	}
	return -1;
}

static int by_offset(const void *a, const void *b)
{
	const struct unit_ref *x = a, *y = b;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static int by_site(const void *a, const void *b)
{
	const struct reference *x = a, *y = b;
	return x->site < y->site ? -1 : x->site > y->site;
}

/* Every section, and which are units. 0 or -1. */
static int find_sections(struct context *c)
{
	size_t shstrndx;
	if (elf_getshdrnum(c->elf, &c->section_count) || elf_getshdrstrndx(c->elf, &shstrndx))
		return pack_fail(c->err, c->err_cap, "cannot read the section headers");
	c->sections = calloc(c->section_count + 1, sizeof(*c->sections));
	c->units = calloc(c->section_count + 1, sizeof(*c->units));
	if (!c->sections || !c->units)
		return pack_fail(c->err, c->err_cap, "out of memory");
	uint64_t entry = c->k->entry_offset;
	for (size_t i = 1; i < c->section_count; i++) {
		struct section *s = &c->sections[i];
		GElf_Shdr sh;
		Elf_Scn *scn = elf_getscn(c->elf, i);
		s->unit = -1;
		if (!scn || !gelf_getshdr(scn, &sh))
			return pack_fail(c->err, c->err_cap, "cannot read section %zu", i);
		s->name = elf_strptr(c->elf, shstrndx, sh.sh_name);
		s->name = s->name ? s->name : "?";
		if (!(sh.sh_flags & SHF_ALLOC) || sh.sh_size == 0)
			continue;
		int64_t at = payload_offset(c->k, sh.sh_addr, sh.sh_size);
		if (at < 0 || sh.sh_type == SHT_NOBITS)
			continue; /* bss and the like lie past the file bytes, after any unit */
		s->placed = true;
		s->offset = (uint64_t)at;
		s->size = sh.sh_size;
		s->align = sh.sh_addralign ? sh.sh_addralign : 1;
		bool function = sh.sh_type == SHT_PROGBITS && (sh.sh_flags & SHF_EXECINSTR) &&
				strncmp(s->name, FUNCTION_SECTION_PREFIX,
					strlen(FUNCTION_SECTION_PREFIX)) == 0;
		bool holds_entry = entry - s->offset < s->size;
		if (function && !holds_entry && s->offset + s->size <= c->k->file_size) {
			if (s->align > SHUFFLE_MAX_ALIGN)
				return pack_fail(c->err, c->err_cap,
						 "--shuffle: function section %s is aligned to %llu "
						 "bytes; at most %u keep their alignment when moved",
						 s->name, (unsigned long long)s->align,
						 SHUFFLE_MAX_ALIGN);
			c->units[c->unit_count++] = (struct unit_ref){ i, s->offset };
		}
	}
	if (c->unit_count < 2)
		return pack_fail(c->err, c->err_cap,
				 "--shuffle: %s: compile with -ffunction-sections and keep each "
				 ".text.* section apart in the link (ld --unique=.text.*)",
				 c->unit_count ? "only one separate function section"
					       : "no separate function sections");
	if (c->unit_count > SHUFFLE_MAX_UNITS)
		return pack_fail(c->err, c->err_cap, "--shuffle: %zu function sections; at most %u",
				 c->unit_count, SHUFFLE_MAX_UNITS);
	qsort(c->units, c->unit_count, sizeof(*c->units), by_offset);
	for (size_t u = 0; u < c->unit_count; u++)
		c->sections[c->units[u].section].unit = (int)u;
	return 0;
}

/* The region: from the first unit to the next section that is not one. 0 or -1. */
static int find_region(struct context *c, uint64_t *start, uint64_t *end)
{
	const struct section *first = &c->sections[c->units[0].section];
	const struct section *last = &c->sections[c->units[c->unit_count - 1].section];
	uint64_t units_end = last->offset + last->size;
	*start = first->offset;
	*end = c->k->file_size;
	const char *next = "the end of the kernel's file bytes";
	/* One segment holds them all and the room after them: a unit moved into another could
	 * land in memory its kernel maps without execute permission. */
	for (size_t i = 0; i < c->k->segment_count; i++) {
		const struct kernel_segment *seg = &c->k->segments[i];
		if (*start - seg->offset >= seg->file_size)
			continue;
		if (units_end > seg->offset + seg->file_size)
			return pack_fail(c->err, c->err_cap,
					 "--shuffle: the function sections span more than one "
					 "segment: link them into one");
		if (seg->offset + seg->file_size < *end) {
			*end = seg->offset + seg->file_size;
			next = "the end of their segment";
		}
	}
	for (size_t i = 1; i < c->section_count; i++) {
		const struct section *s = &c->sections[i];
		if (!s->placed || s->unit >= 0)
			continue;
		if (s->offset < units_end && s->offset + s->size > *start)
			return pack_fail(c->err, c->err_cap,
					 "--shuffle: section %s lies among the function sections and "
					 "would be overwritten: link it before or after them",
					 s->name);
		if (s->offset >= units_end && s->offset < *end) {
			*end = s->offset;
			next = s->name;
		}
	}
	uint64_t worst = 0;
	for (size_t u = 0; u < c->unit_count; u++) {
		const struct section *s = &c->sections[c->units[u].section];
		worst += s->size + s->align - 1;
	}
	c->out->region_size = *end - *start;
	c->out->worst_size = worst;
	if (*end > UINT32_MAX)
		return pack_fail(c->err, c->err_cap, "--shuffle: the kernel is larger than 4 GiB");
	if (worst > *end - *start)
		return pack_fail(c->err, c->err_cap,
				 "--shuffle: the %zu function sections need up to %llu bytes in "
				 "the worst order (each one's size plus its alignment less one), but "
				 "only %llu lie between the first and %s: leave %llu more bytes after "
				 "them in the linker script",
				 c->unit_count, (unsigned long long)worst,
				 (unsigned long long)(*end - *start), next,
				 (unsigned long long)(worst - (*end - *start)));
	return 0;
}

static struct move_range moves_of(const struct context *c, uint32_t unit)
{
	if (unit == SHUFFLE_NO_UNIT)
		return (struct move_range){ 0, 0 };
	const struct section *s = &c->sections[c->units[unit].section];
	return (struct move_range){ (int64_t)c->region_start - (int64_t)s->offset,
				    (int64_t)(c->region_end - s->size) - (int64_t)s->offset };
}

/* An absolute 4-byte x86-64 field: the values its target's moves can give it, for
 * shuffle_units_check_bases. 0 or -1. */
static int add_bound(struct context *c, uint32_t site, enum reloc_kind kind, int64_t value,
		     uint32_t target_unit)
{
	struct shuffle_units *o = c->out;
	if (o->bound_count == c->bound_cap) {
		size_t cap = c->bound_cap ? 2 * c->bound_cap : 64;
		struct shuffle_bound *more = realloc(o->bounds, cap * sizeof(*more));
		if (!more)
			return pack_fail(c->err, c->err_cap, "out of memory");
		o->bounds = more;
		c->bound_cap = cap;
	}
	struct move_range m = moves_of(c, target_unit);
	o->bounds[o->bound_count++] =
		(struct shuffle_bound){ site, kind, value + m.low, value + m.high };
	return 0;
}

/* A PC-relative x86-64 field holding v must stay an int32 whichever way its two units move.
 * 0 or -1. */
static int check_distance(struct context *c, const struct reference *r, int32_t v,
			  const char *name, unsigned long long at)
{
	struct move_range t = moves_of(c, r->target_unit), s = moves_of(c, r->site_unit);
	int64_t low = v + t.low - s.high, high = v + t.high - s.low;
	if (low >= INT32_MIN && high <= INT32_MAX)
		return 0;
	return pack_fail(c->err, c->err_cap,
			 "--shuffle: the PC-relative field at %s+0x%llx (holding %d) could "
			 "overflow 32 bits in some order of the function sections (from %lld to "
			 "%lld)",
			 name, at, (int)v, (long long)low, (long long)high);
}

static int add_reference(struct context *c, struct reference r)
{
	if (c->ref_count == c->ref_cap) {
		size_t cap = c->ref_cap ? 2 * c->ref_cap : 256;
		struct reference *more = realloc(c->refs, cap * sizeof(*more));
		if (!more)
			return pack_fail(c->err, c->err_cap, "out of memory");
		c->refs = more;
		c->ref_cap = cap;
	}
	c->refs[c->ref_count++] = r;
	return 0;
}

/* The unit of section index shndx, or SHUFFLE_NO_UNIT. */
static uint32_t unit_of(const struct context *c, size_t shndx)
{
	if (shndx == 0 || shndx >= c->section_count || c->sections[shndx].unit < 0)
		return SHUFFLE_NO_UNIT;
	return (uint32_t)c->sections[shndx].unit;
}

/* What the shuffle does with a relocation type: the table's kind (which gives the field's
 * width, shuffle_field_width), and for an x86-64 4-byte absolute field, whose value must stay
 * in its type's range, how the base relocation reads it. */
struct kind_of {
	uint32_t kind; /* 0: a type not handled */
	bool pc_relative;
	bool bounded; /* an absolute 4-byte x86-64 field */
	enum reloc_kind base_kind;
};

static struct kind_of kind_of(bool x86_64, unsigned type)
{
	if (!x86_64)
		switch (type) {
		case R_386_32:
			return (struct kind_of){ SHUFFLE_ABS32, false, false, RELOC_ADD32 };
		case R_386_PC32:
		case R_386_PLT32:
			return (struct kind_of){ SHUFFLE_PC32, true, false, RELOC_ADD32 };
		default:
			return (struct kind_of){ 0, false, false, RELOC_ADD32 };
		}
	switch (type) {
	case R_X86_64_64:
		return (struct kind_of){ SHUFFLE_ABS64, false, false, RELOC_ADD64 };
	case R_X86_64_32:
		return (struct kind_of){ SHUFFLE_ABS32, false, true, RELOC_ADD32 };
	case R_X86_64_32S:
		return (struct kind_of){ SHUFFLE_ABS32, false, true, RELOC_ADD32S };
	case R_X86_64_PC32:
	case R_X86_64_PLT32:
		return (struct kind_of){ SHUFFLE_PC32, true, false, RELOC_ADD32S };
	default:
		return (struct kind_of){ 0, false, false, RELOC_ADD32 };
	}
}

/* Relocation i of data, REL (i386) or RELA (x86-64), as a RELA one. 0 or -1. */
static int relocation_at(Elf_Data *data, bool rela, size_t i, GElf_Rela *out)
{
	if (rela)
		return gelf_getrela(data, (int)i, out) ? 0 : -1;
	GElf_Rel rel;
	if (!gelf_getrel(data, (int)i, &rel))
		return -1;
	*out = (GElf_Rela){ rel.r_offset, rel.r_info, 0 };
	return 0;
}

static int read_relocations(struct context *c, Elf_Scn *scn, const GElf_Shdr *sh)
{
	GElf_Shdr target, symsh;
	Elf_Scn *tscn = elf_getscn(c->elf, sh->sh_info), *symtab = elf_getscn(c->elf, sh->sh_link);
	if (!tscn || !symtab || !gelf_getshdr(tscn, &target) || !gelf_getshdr(symtab, &symsh))
		return pack_fail(c->err, c->err_cap, "relocation section with a bad target");
	if (!(target.sh_flags & SHF_ALLOC) || target.sh_type == SHT_NOTE)
		return 0; /* debug information and notes: read at link addresses, if at all */
	bool x86_64 = c->k->arch == KSLIDE_ARCH_X86_64;
	if ((sh->sh_type == SHT_RELA) != x86_64)
		return pack_fail(c->err, c->err_cap, "--shuffle: %s relocations on %s",
				 x86_64 ? "REL" : "RELA", x86_64 ? "x86-64" : "i386");
	const char *name = c->sections[sh->sh_info].name;
	uint32_t site_unit = unit_of(c, sh->sh_info);
	Elf_Data *data = elf_getdata(scn, NULL), *symbols = elf_getdata(symtab, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	if (!data || !symbols)
		return pack_fail(c->err, c->err_cap, "cannot read relocations for %s", name);
	for (size_t i = 0; i < n; i++) {
		GElf_Rela rel;
		GElf_Sym sym;
		if (relocation_at(data, x86_64, i, &rel) ||
		    !gelf_getsym(symbols, (int)GELF_R_SYM(rel.r_info), &sym))
			return pack_fail(c->err, c->err_cap, "cannot read relocation %zu for %s", i,
					 name);
		unsigned type = GELF_R_TYPE(rel.r_info);
		uint32_t target_unit = sym.st_shndx == SHN_XINDEX ? SHUFFLE_NO_UNIT
								  : unit_of(c, sym.st_shndx);
		unsigned long long at = rel.r_offset - target.sh_addr;
		if (sym.st_shndx == SHN_XINDEX)
			return pack_fail(c->err, c->err_cap, "--shuffle: extended section indices "
							     "are not supported (at %s+0x%llx)",
					 name, at);
		/* R_386_NONE and R_X86_64_NONE are both 0 */
		if (type == R_386_NONE || (site_unit == SHUFFLE_NO_UNIT &&
					   target_unit == SHUFFLE_NO_UNIT))
			continue;
		struct kind_of kind = kind_of(x86_64, type);
		if (kind.kind == 0)
			return pack_fail(c->err, c->err_cap,
					 "--shuffle: relocation type %u at %s+0x%llx %s a function "
					 "section; only %s are known to follow a moved one",
					 type, name, at,
					 site_unit != SHUFFLE_NO_UNIT ? "lies in" : "names",
					 x86_64 ? "R_X86_64_64, R_X86_64_32, R_X86_64_32S, "
						  "R_X86_64_PC32 and R_X86_64_PLT32"
						: "R_386_32, R_386_PC32 and R_386_PLT32");
		uint32_t width = shuffle_field_width(kind.kind);
		int64_t site = payload_offset(c->k, rel.r_offset, width);
		if (site < 0 || (uint64_t)site + width > c->k->file_size)
			return pack_fail(c->err, c->err_cap,
					 "--shuffle: relocation outside the file bytes at %s+0x%llx",
					 name, at);
		struct reference r = { (uint32_t)site, kind.kind, site_unit, target_unit };
		uint32_t field = load_le32(c->k->payload + site);
		if (!kind.pc_relative) {
			if (target_unit == SHUFFLE_NO_UNIT)
				continue; /* an absolute address of something that stays */
			if (kind.bounded &&
			    add_bound(c, r.site, kind.base_kind,
				      kind.base_kind == RELOC_ADD32 ? (int64_t)field
								    : (int64_t)(int32_t)field,
				      target_unit))
				return -1;
		} else {
			if (site_unit == target_unit) {
				c->out->same_unit++;
				continue; /* the distance moves with the unit */
			}
			if (x86_64 && check_distance(c, &r, (int32_t)field, name, at))
				return -1;
		}
		if (add_reference(c, r))
			return -1;
	}
	return 0;
}

static int encode(struct context *c, uint64_t start, uint64_t end)
{
	qsort(c->refs, c->ref_count, sizeof(*c->refs), by_site);
	for (size_t i = 1; i < c->ref_count; i++)
		if (c->refs[i].site < c->refs[i - 1].site + shuffle_field_width(c->refs[i - 1].kind))
			return pack_fail(c->err, c->err_cap,
					 "--shuffle: two relocations patch payload offset 0x%x",
					 (unsigned)c->refs[i].site);
	size_t words = SHUFFLE_HEADER_WORDS + c->unit_count * SHUFFLE_UNIT_WORDS +
		       c->ref_count * SHUFFLE_RELOC_WORDS;
	uint8_t *t = malloc(words * 4), *p = t;
	if (!t)
		return pack_fail(c->err, c->err_cap, "out of memory");
#define PUT(v) (store_le32(p, (uint32_t)(v)), p += 4)
	PUT(SHUFFLE_MAGIC);
	PUT(c->unit_count);
	PUT(c->ref_count);
	PUT(start);
	PUT(end);
	for (size_t u = 0; u < c->unit_count; u++) {
		const struct section *s = &c->sections[c->units[u].section];
		PUT(s->offset);
		PUT(s->size);
		PUT(s->align);
	}
	for (size_t i = 0; i < c->ref_count; i++) {
		PUT(c->refs[i].site);
		PUT(c->refs[i].kind);
		PUT(c->refs[i].site_unit | c->refs[i].target_unit << 16);
	}
#undef PUT
	c->out->table = t;
	c->out->size = words * 4;
	c->out->unit_count = c->unit_count;
	c->out->reloc_count = c->ref_count;
	return 0;
}

int shuffle_units_read(const uint8_t *buf, size_t len, const struct kernel_elf *k,
		       struct shuffle_units *out, char *err, size_t err_cap)
{
	*out = (struct shuffle_units){ 0 };
	if (k->pie)
		return pack_fail(err, err_cap, "--shuffle: static PIEs are not supported");
	elf_version(EV_CURRENT);
	struct context c = { .k = k, .out = out, .err = err, .err_cap = err_cap };
	c.elf = elf_memory((char *)buf, len);
	if (!c.elf)
		return pack_fail(err, err_cap, "not an ELF file libelf can read");
	uint64_t start = 0, end = 0;
	int rc = find_sections(&c);
	if (!rc)
		rc = find_region(&c, &start, &end);
	c.region_start = start;
	c.region_end = end;
	bool any = false;
	Elf_Scn *scn = NULL;
	while (!rc && (scn = elf_nextscn(c.elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			rc = pack_fail(err, err_cap, "cannot read a section header");
		else if (sh.sh_type == SHT_REL || sh.sh_type == SHT_RELA) {
			any = true;
			rc = read_relocations(&c, scn, &sh);
		}
	}
	if (!rc && !any)
		rc = pack_fail(err, err_cap, "--shuffle: no relocations: link with --emit-relocs");
	if (!rc)
		rc = encode(&c, start, end);
	/* The stub's own check, here first: a table it would refuse is never written. */
	struct shuffle_table t;
	const char *why;
	if (!rc && shuffle_parse(out->table, out->size, k->mem_size, k->entry_offset, &t, &why))
		rc = pack_fail(err, err_cap, "internal error: %s", why);
	free(c.sections);
	free(c.units);
	free(c.refs);
	elf_end(c.elf);
	if (rc)
		shuffle_units_free(out);
	return rc;
}

void shuffle_units_free(struct shuffle_units *s)
{
	free(s->table);
	free(s->bounds);
	s->table = NULL;
	s->bounds = NULL;
	s->bound_count = 0;
}

int shuffle_units_check_bases(const struct shuffle_units *s, const struct kernel_elf *k,
			      const struct pack_options *opt, char *err, size_t err_cap)
{
	if (k->arch == KSLIDE_ARCH_X86_64 && !k->single_slide)
		return pack_fail(err, err_cap,
				 "--shuffle: an x86-64 kernel with a virtual base of its own is not "
				 "shuffled: only one that moves by a single slide, a Multiboot kernel "
				 "packed --format multiboot (the i386 stub) or --format efi (the x86-64 "
				 "stub)");
	for (size_t i = 0; i < s->bound_count; i++) {
		const struct shuffle_bound *b = &s->bounds[i];
		if (base_window_holds(k, opt, b->kind, b->low) &&
		    base_window_holds(k, opt, b->kind, b->high))
			continue;
		return pack_fail(err, err_cap,
				 "--shuffle: the %s field at payload offset 0x%x names a function "
				 "section whose moves give it 0x%llx to 0x%llx, which would overflow "
				 "at some base of the window: narrow --min and --max, or link the "
				 "function sections where every address fits",
				 b->kind == RELOC_ADD32 ? "32-bit" : "32-bit sign-extended",
				 (unsigned)b->site, (unsigned long long)b->low,
				 (unsigned long long)b->high);
	}
	return 0;
}
