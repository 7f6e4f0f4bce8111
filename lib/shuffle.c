/* Function-granular shuffling: the table checked, the order drawn, the units moved and their
 * references patched (lib/shuffle.h). */
#include "lib/shuffle.h"
#include "lib/errors.h"
#include "lib/string.h"
#include "lib/unaligned.h"

#define WORD 4u

static int fail(const char **why, const char *reason)
{
	*why = reason;
	return KS_EFORMAT;
}

struct shuffle_unit shuffle_unit_at(const struct shuffle_table *t, uint32_t i)
{
	const uint8_t *p = t->units + (size_t)i * SHUFFLE_UNIT_WORDS * WORD;
	return (struct shuffle_unit){ load_le32(p), load_le32(p + WORD), load_le32(p + 2 * WORD) };
}

struct shuffle_reloc shuffle_reloc_at(const struct shuffle_table *t, uint32_t i)
{
	const uint8_t *p = t->relocs + (size_t)i * SHUFFLE_RELOC_WORDS * WORD;
	uint32_t units = load_le32(p + 2 * WORD);
	return (struct shuffle_reloc){ load_le32(p), load_le32(p + WORD), units & 0xffffu,
				       units >> 16 };
}

uint32_t shuffle_field_width(uint32_t kind)
{
	return kind == SHUFFLE_ABS64 ? 2 * WORD : WORD;
}

static int check_units(const struct shuffle_table *t, const char **why)
{
	uint64_t prev_end = t->region_start, worst = 0;
	for (uint32_t i = 0; i < t->unit_count; i++) {
		struct shuffle_unit u = shuffle_unit_at(t, i);
		if (u.align == 0 || (u.align & (u.align - 1)) || u.align > SHUFFLE_MAX_ALIGN)
			return fail(why, "shuffle table: a unit's alignment is not a power of two "
					 "up to 4 KiB");
		if (u.offset & (u.align - 1))
			return fail(why, "shuffle table: a unit is not at a multiple of its alignment");
		if (u.size == 0 || u.offset < prev_end ||
		    (uint64_t)u.offset + u.size > t->region_end)
			return fail(why, "shuffle table: units are empty, out of order, overlap or "
					 "leave the region");
		prev_end = (uint64_t)u.offset + u.size;
		worst += (uint64_t)u.size + u.align - 1;
	}
	if (worst > (uint64_t)t->region_end - t->region_start)
		return fail(why, "shuffle table: the region cannot hold the units in every order");
	return KS_OK;
}

/* The field at site, width bytes, lies wholly in unit u, or (SHUFFLE_NO_UNIT) outside the
 * region and inside the image. */
static int site_fits(const struct shuffle_table *t, uint32_t site, uint32_t width, uint32_t u,
		     uint64_t image_size)
{
	uint64_t end = (uint64_t)site + width;
	if (u == SHUFFLE_NO_UNIT)
		return end <= image_size && (end <= t->region_start || site >= t->region_end);
	struct shuffle_unit unit = shuffle_unit_at(t, u);
	return site >= unit.offset && end <= (uint64_t)unit.offset + unit.size;
}

static int check_relocs(const struct shuffle_table *t, uint64_t image_size, const char **why)
{
	uint64_t next_free = 0;
	for (uint32_t i = 0; i < t->reloc_count; i++) {
		struct shuffle_reloc r = shuffle_reloc_at(t, i);
		if (r.kind != SHUFFLE_ABS32 && r.kind != SHUFFLE_PC32 && r.kind != SHUFFLE_ABS64)
			return fail(why, "shuffle table: a relocation of a kind unknown to this stub");
		if ((r.site_unit != SHUFFLE_NO_UNIT && r.site_unit >= t->unit_count) ||
		    (r.target_unit != SHUFFLE_NO_UNIT && r.target_unit >= t->unit_count))
			return fail(why, "shuffle table: a relocation names a unit that is not there");
		if (r.target_unit == SHUFFLE_NO_UNIT &&
		    (r.kind != SHUFFLE_PC32 || r.site_unit == SHUFFLE_NO_UNIT))
			return fail(why, "shuffle table: a relocation that nothing moves");
		uint32_t width = shuffle_field_width(r.kind);
		if (!site_fits(t, r.site, width, r.site_unit, image_size))
			return fail(why, "shuffle table: a relocation's field lies outside its unit "
					 "or the image");
		if (r.site < next_free)
			return fail(why, "shuffle table: relocations out of order or overlapping");
		next_free = (uint64_t)r.site + width;
	}
	return KS_OK;
}

int shuffle_parse(const uint8_t *bytes, size_t size, uint64_t image_size, uint64_t entry_offset,
		  struct shuffle_table *t, const char **why)
{
	if (size < SHUFFLE_HEADER_WORDS * WORD || load_le32(bytes) != SHUFFLE_MAGIC)
		return fail(why, "shuffle table: no table magic");
	t->unit_count = load_le32(bytes + WORD);
	t->reloc_count = load_le32(bytes + 2 * WORD);
	t->region_start = load_le32(bytes + 3 * WORD);
	t->region_end = load_le32(bytes + 4 * WORD);
	uint64_t want = SHUFFLE_HEADER_WORDS * WORD +
			(uint64_t)t->unit_count * SHUFFLE_UNIT_WORDS * WORD +
			(uint64_t)t->reloc_count * SHUFFLE_RELOC_WORDS * WORD;
	if (t->unit_count == 0 || t->unit_count > SHUFFLE_MAX_UNITS)
		return fail(why, "shuffle table: unit count out of range");
	if (want != size)
		return fail(why, "shuffle table: its size does not match its counts");
	if (t->region_start >= t->region_end || t->region_end > image_size)
		return fail(why, "shuffle table: the region is empty or outside the kernel's file "
				 "bytes");
	if (entry_offset >= t->region_start && entry_offset < t->region_end)
		return fail(why, "shuffle table: the entry point lies in the region");
	t->units = bytes + SHUFFLE_HEADER_WORDS * WORD;
	t->relocs = t->units + (size_t)t->unit_count * SHUFFLE_UNIT_WORDS * WORD;
	int rc = check_units(t, why);
	return rc == KS_OK ? check_relocs(t, image_size, why) : rc;
}

uint64_t shuffle_scratch_size(const struct shuffle_table *t)
{
	uint64_t region = ((uint64_t)t->region_end - t->region_start + WORD - 1) & ~(uint64_t)(WORD - 1);
	return region + 2 * (uint64_t)t->unit_count * WORD;
}

void shuffle_permute(uint32_t *order, uint32_t n, random_u64_fn next, void *ctx)
{
	for (uint32_t i = 0; i < n; i++)
		order[i] = i;
	for (uint32_t i = n; i > 1; i--) {
		uint32_t j = (uint32_t)uniform_below(i, next, ctx); /* in [0, i) */
		uint32_t keep = order[i - 1];
		order[i - 1] = order[j];
		order[j] = keep;
	}
}

int shuffle_layout(const struct shuffle_table *t, const uint32_t *order, uint32_t *new_offset)
{
	uint64_t cursor = t->region_start;
	for (uint32_t i = 0; i < t->unit_count; i++) {
		struct shuffle_unit u = shuffle_unit_at(t, order[i]);
		cursor = (cursor + u.align - 1) & ~(uint64_t)(u.align - 1);
		new_offset[order[i]] = (uint32_t)cursor;
		cursor += u.size;
		if (cursor > t->region_end)
			return KS_ENOSPC;
	}
	return KS_OK;
}

void shuffle_move(uint8_t *image, const struct shuffle_table *t, const uint32_t *new_offset,
		  uint8_t *scratch)
{
	size_t region = t->region_end - t->region_start;
	memcpy(scratch, image + t->region_start, region);
	memset(image + t->region_start, SHUFFLE_FILL, region);
	for (uint32_t i = 0; i < t->unit_count; i++) {
		struct shuffle_unit u = shuffle_unit_at(t, i);
		memcpy(image + new_offset[i], scratch + (u.offset - t->region_start), u.size);
	}
}

/* How far unit u moved, negative for down (offsets are below 2^32, so the difference fits). */
static int64_t delta(const struct shuffle_table *t, const uint32_t *new_offset, uint32_t u)
{
	return u == SHUFFLE_NO_UNIT ? 0
				    : (int64_t)new_offset[u] - (int64_t)shuffle_unit_at(t, u).offset;
}

void shuffle_relocate(uint8_t *image, const struct shuffle_table *t, const uint32_t *new_offset)
{
	for (uint32_t i = 0; i < t->reloc_count; i++) {
		struct shuffle_reloc r = shuffle_reloc_at(t, i);
		int64_t change = delta(t, new_offset, r.target_unit);
		if (r.kind == SHUFFLE_PC32)
			change -= delta(t, new_offset, r.site_unit);
		uint8_t *field = image + (r.site + delta(t, new_offset, r.site_unit));
		/* two's complement: a unit moving down adds a "negative" change */
		if (r.kind == SHUFFLE_ABS64)
			store_le64(field, load_le64(field) + (uint64_t)change);
		else
			store_le32(field, load_le32(field) + (uint32_t)(uint64_t)change);
	}
}

int shuffle_run(uint8_t *image, const struct shuffle_table *t, uint8_t *scratch,
		random_u64_fn next, void *ctx)
{
	if (next == NULL)
		return KS_OK;
	size_t region = ((size_t)(t->region_end - t->region_start) + WORD - 1) & ~(size_t)(WORD - 1);
	uint32_t *order = (uint32_t *)(void *)(scratch + region);
	uint32_t *new_offset = order + t->unit_count;
	shuffle_permute(order, t->unit_count, next, ctx);
	int rc = shuffle_layout(t, order, new_offset);
	if (rc != KS_OK)
		return rc;
	shuffle_move(image, t, new_offset, scratch);
	shuffle_relocate(image, t, new_offset);
	return KS_OK;
}
