/*
 * No image byte may belong to two fields: the value check sees only the original bytes, so a
 * patch on top of a patch could overflow, or fail halfway through writing. The walk in
 * lib/reloc.c refuses overlap inside a group and notes whether the groups follow one another
 * in the image, as the packer writes them; only other tables need this pairwise comparison,
 * O(groups x fields).
 */
#include <stdbool.h>

#include "lib/reloc_table.h"

/* One group's fields in ascending order, decoded lazily from a table that passed the walk. */
struct field_cursor {
	struct decoder d;
	uint64_t left;   /* fields not yet read */
	uint64_t offset; /* the current field */
	unsigned width;
};

/* Start reading the group at p; returns the position just past the group. */
static const uint8_t *cursor_open(struct field_cursor *c, const uint8_t *p, const uint8_t *end)
{
	c->d = (struct decoder){ p + 1, end };
	c->width = reloc_kind_width(*p);
	c->left = 0;
	c->offset = 0;
	read_uleb128(&c->d, &c->left);
	struct decoder skip = c->d;
	for (uint64_t i = 0, gap; i < c->left; i++)
		read_uleb128(&skip, &gap);
	return skip.p;
}

static bool cursor_next(struct field_cursor *c)
{
	uint64_t gap = 0;
	if (c->left == 0)
		return false;
	c->left--;
	read_uleb128(&c->d, &gap);
	c->offset += gap;
	return true;
}

/* Two groups' fields, each list ascending and in bounds (so offset + width cannot wrap). */
static bool groups_overlap(struct field_cursor *a, struct field_cursor *b)
{
	bool more_a = cursor_next(a), more_b = cursor_next(b);
	while (more_a && more_b) {
		if (a->offset + a->width <= b->offset)
			more_a = cursor_next(a);
		else if (b->offset + b->width <= a->offset)
			more_b = cursor_next(b);
		else
			return true;
	}
	return false;
}

int reloc_check_disjoint(const uint8_t *table, size_t table_size)
{
	const uint8_t *end = table + table_size;
	for (const uint8_t *later = table; later != end;) {
		struct field_cursor b;
		const uint8_t *next = cursor_open(&b, later, end);
		for (const uint8_t *earlier = table; earlier != later;) {
			struct field_cursor a;
			earlier = cursor_open(&a, earlier, end);
			cursor_open(&b, later, end);
			if (groups_overlap(&a, &b))
				return KS_EFORMAT;
		}
		later = next;
	}
	return KS_OK;
}
