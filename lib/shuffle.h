/*
 * Function-granular shuffling (kslide-pack --shuffle, docs/format.md): the kernel's function
 * sections, each a unit, are laid out in the text region in a random order, and every field
 * that names a moved unit, or lies in one and names something at another distance, is patched.
 *
 * The table (little-endian 32-bit words; offsets are from the payload's first byte):
 *
 *   magic  unit_count  reloc_count  region_start  region_end
 *   unit  := offset size align                   ascending, disjoint, inside the region
 *   reloc := site kind units                     ascending by site, fields disjoint
 *            units = site_unit | target_unit << 16, SHUFFLE_NO_UNIT for "not in a unit"
 *
 * With delta(u) = new offset of u - link offset of u (0 for no unit), a field at site gets,
 * at the site's new position:
 *   SHUFFLE_ABS32  += delta(target unit), 4 bytes       (R_386_32, R_X86_64_32, R_X86_64_32S)
 *   SHUFFLE_PC32   += delta(target unit) - delta(site unit), 4 bytes
 *                                     (R_386_PC32, R_386_PLT32, R_X86_64_PC32, R_X86_64_PLT32)
 *   SHUFFLE_ABS64  += delta(target unit), 8 bytes       (R_X86_64_64)
 * The 4-byte fields wrap modulo 2^32: kslide-pack proves at pack time that no layout makes an
 * x86-64 one overflow its type (tools/pack/shuffle_units.c); the 8-byte one adds the move
 * sign-extended.
 * The changes add to whatever the base relocation already added, so the two passes compose in
 * either order; the stub shuffles after relocating (boot/stub_shuffle.c).
 *
 * Layout rule, the capacity every table must meet: the units are placed one after another from
 * region_start, each at the next multiple of its alignment, so any order needs at most
 * sum(size + align - 1) bytes; shuffle_parse refuses a table whose region holds fewer.
 */
#ifndef KSLIDE_LIB_SHUFFLE_H
#define KSLIDE_LIB_SHUFFLE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/uniform.h"

#define SHUFFLE_MAGIC 0x4853534bu /* "KSSH" */
#define SHUFFLE_HEADER_WORDS 5
#define SHUFFLE_UNIT_WORDS 3
#define SHUFFLE_RELOC_WORDS 3
#define SHUFFLE_NO_UNIT 0xffffu
#define SHUFFLE_MAX_UNITS 0xfffeu /* a unit index fits 16 bits beside SHUFFLE_NO_UNIT */
/* The payload's base is page aligned and moves by whole pages, so a unit keeps any alignment up
 * to a page wherever the region goes. */
#define SHUFFLE_MAX_ALIGN 0x1000u
#define SHUFFLE_FILL 0xccu /* int3: what the region holds between units after the move */

enum shuffle_kind {
	SHUFFLE_ABS32 = 1,
	SHUFFLE_PC32 = 2,
	SHUFFLE_ABS64 = 3,
};

/* The bytes a field of kind patches: 8 for SHUFFLE_ABS64, else 4. */
uint32_t shuffle_field_width(uint32_t kind);

/* A table that passed shuffle_parse. */
struct shuffle_table {
	const uint8_t *units;  /* unit_count entries of SHUFFLE_UNIT_WORDS */
	const uint8_t *relocs; /* reloc_count entries of SHUFFLE_RELOC_WORDS */
	uint32_t unit_count, reloc_count;
	uint32_t region_start, region_end;
};

struct shuffle_unit {
	uint32_t offset, size, align;
};

struct shuffle_reloc {
	uint32_t site;
	uint32_t kind;
	uint32_t site_unit, target_unit; /* SHUFFLE_NO_UNIT or an index */
};

/*
 * Check size bytes of table against a payload of image_size bytes in memory (the image may
 * store fewer: kslide-pack leaves out a zero tail) whose entry point is at
 * entry_offset (which must lie outside the region): every rule above. KS_OK, or KS_EFORMAT
 * with *why naming the first problem.
 */
int shuffle_parse(const uint8_t *bytes, size_t size, uint64_t image_size, uint64_t entry_offset,
		  struct shuffle_table *t, const char **why);

struct shuffle_unit shuffle_unit_at(const struct shuffle_table *t, uint32_t i);
struct shuffle_reloc shuffle_reloc_at(const struct shuffle_table *t, uint32_t i);

/* Bytes of the scratch area shuffle_run needs: the region's copy, the order and the offsets. */
uint64_t shuffle_scratch_size(const struct shuffle_table *t);

/* order[0..n) a uniformly random permutation of 0..n-1 (Fisher-Yates, each index drawn by
 * uniform_below). */
void shuffle_permute(uint32_t *order, uint32_t n, random_u64_fn next, void *ctx);

/* new_offset[u] for each unit u placed in 'order' by the layout rule. KS_OK, or KS_ENOSPC if
 * the region cannot hold them (never for a parsed table). */
int shuffle_layout(const struct shuffle_table *t, const uint32_t *order, uint32_t *new_offset);

/* The units moved from their link offsets to new_offset inside image, through scratch (the
 * region's size); the rest of the region is SHUFFLE_FILL. */
void shuffle_move(uint8_t *image, const struct shuffle_table *t, const uint32_t *new_offset,
		  uint8_t *scratch);

/* Every field of the table patched for the layout new_offset, at its new position. */
void shuffle_relocate(uint8_t *image, const struct shuffle_table *t, const uint32_t *new_offset);

/*
 * All of it, in scratch (shuffle_scratch_size bytes): draw, lay out, move, relocate. With
 * next == NULL the link order is kept and nothing changes. KS_OK or shuffle_layout's error.
 */
int shuffle_run(uint8_t *image, const struct shuffle_table *t, uint8_t *scratch,
		random_u64_fn next, void *ctx);

#endif
