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
 * lies in a unit or names one is of a type handled here (R_386_32, R_386_PC32, R_386_PLT32).
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

struct context {
	Elf *elf;
	const struct kernel_elf *k;
	struct section *sections;
	size_t section_count;
	struct unit_ref *units;
	size_t unit_count;
	struct reference *refs;
	size_t ref_count, ref_cap;
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

static int read_relocations(struct context *c, Elf_Scn *scn, const GElf_Shdr *sh)
{
	GElf_Shdr target, symsh;
	Elf_Scn *tscn = elf_getscn(c->elf, sh->sh_info), *symtab = elf_getscn(c->elf, sh->sh_link);
	if (!tscn || !symtab || !gelf_getshdr(tscn, &target) || !gelf_getshdr(symtab, &symsh))
		return pack_fail(c->err, c->err_cap, "relocation section with a bad target");
	if (!(target.sh_flags & SHF_ALLOC) || target.sh_type == SHT_NOTE)
		return 0; /* debug information and notes: read at link addresses, if at all */
	if (sh->sh_type == SHT_RELA)
		return pack_fail(c->err, c->err_cap, "--shuffle: RELA relocations on i386");
	const char *name = c->sections[sh->sh_info].name;
	uint32_t site_unit = unit_of(c, sh->sh_info);
	Elf_Data *data = elf_getdata(scn, NULL), *symbols = elf_getdata(symtab, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	if (!data || !symbols)
		return pack_fail(c->err, c->err_cap, "cannot read relocations for %s", name);
	for (size_t i = 0; i < n; i++) {
		GElf_Rel rel;
		GElf_Sym sym;
		if (!gelf_getrel(data, (int)i, &rel) ||
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
		if (type == R_386_NONE || (site_unit == SHUFFLE_NO_UNIT &&
					   target_unit == SHUFFLE_NO_UNIT))
			continue;
		int64_t site = payload_offset(c->k, rel.r_offset, 4);
		if (site < 0 || (uint64_t)site + 4 > c->k->file_size)
			return pack_fail(c->err, c->err_cap,
					 "--shuffle: relocation outside the file bytes at %s+0x%llx",
					 name, at);
		struct reference r = { (uint32_t)site, 0, site_unit, target_unit };
		switch (type) {
		case R_386_32:
			if (target_unit == SHUFFLE_NO_UNIT)
				continue; /* an absolute address of something that stays */
			r.kind = SHUFFLE_ABS32;
			break;
		case R_386_PC32:
		case R_386_PLT32:
			if (site_unit == target_unit) {
				c->out->same_unit++;
				continue; /* the distance moves with the unit */
			}
			r.kind = SHUFFLE_PC32;
			break;
		default:
			return pack_fail(c->err, c->err_cap,
					 "--shuffle: relocation type %u at %s+0x%llx %s a function "
					 "section; only R_386_32, R_386_PC32 and R_386_PLT32 are "
					 "known to follow a moved one",
					 type, name, at,
					 site_unit != SHUFFLE_NO_UNIT ? "lies in" : "names");
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
		if (c->refs[i].site < c->refs[i - 1].site + 4)
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
	if (k->arch != KSLIDE_ARCH_I386)
		return pack_fail(err, err_cap, "--shuffle: only i386 kernels are supported yet, "
					       "not x86-64");
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
	if (rc) {
		free(out->table);
		out->table = NULL;
	}
	return rc;
}
