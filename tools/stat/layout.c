/* Slot sets from the image header and a memory map (see layout.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/errors.h"
#include "lib/image.h"
#include "tools/stat/layout.h"

#define IMAGE_MAX_BYTES (256u << 20) /* far above any reference or example image */

/* The header sits in the stub's .kslide_header section; find it by its magic. */
int layout_read_header(const char *path, struct kslide_image_header *h, const char **why)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		*why = strerror(errno);
		return -1;
	}
	uint8_t *buf = malloc(IMAGE_MAX_BYTES);
	size_t n = buf ? fread(buf, 1, IMAGE_MAX_BYTES, f) : 0;
	int rc = -1;
	*why = buf ? "no kslide image header (not a packed image?)" : "out of memory";
	fclose(f);
	for (size_t off = 0; buf && off + sizeof(*h) <= n; off += 4) {
		if (memcmp(buf + off, KSLIDE_IMAGE_MAGIC, KSLIDE_IMAGE_MAGIC_BYTES))
			continue;
		memcpy(h, buf + off, sizeof(*h));
		if (h->version != KSLIDE_IMAGE_VERSION) {
			static char version_why[96];
			snprintf(version_why, sizeof(version_why),
				 "image format version %u; this kslide-stat reads version %u",
				 (unsigned)h->version, (unsigned)KSLIDE_IMAGE_VERSION);
			*why = version_why;
			break;
		}
		rc = image_verify(buf, n, (const struct kslide_image_header *)(buf + off), why) ==
				     KS_OK
			     ? 0
			     : -1;
		break;
	}
	free(buf);
	return rc;
}

static uint64_t round_up(uint64_t v, uint64_t align)
{
	return (v + align - 1) / align * align;
}

static void add_span(struct slot_set *set, uint64_t first, uint64_t count)
{
	if (count == 0 || set->spans == LAYOUT_SPANS_MAX)
		return;
	set->first[set->spans] = first;
	set->count[set->spans] = count;
	set->spans++;
	set->total += count;
}

void layout_phys_from_map(const struct kslide_image_header *h, const struct mem_span *usable,
			  size_t count, struct slot_set *set)
{
	uint64_t size = h->memory_size;
	memset(set, 0, sizeof(*set));
	set->align = h->align;
	for (size_t i = 0; i < count; i++) {
		if (usable[i].end <= usable[i].start || size == 0)
			continue;
		/* inclusive bounds throughout: phys_max may be the last address there is */
		uint64_t lo = usable[i].start > h->phys_min ? usable[i].start : h->phys_min;
		uint64_t last = usable[i].end - 1 < h->phys_max ? usable[i].end - 1 : h->phys_max;
		lo = round_up(lo, h->align);
		if (last < size - 1 || lo > last - (size - 1))
			continue;
		add_span(set, lo, (last - (size - 1) - lo) / h->align + 1);
	}
	for (size_t i = 1; i < set->spans; i++) /* address order, whatever the map's */
		for (size_t j = i; j > 0 && set->first[j - 1] > set->first[j]; j--) {
			uint64_t f = set->first[j], c = set->count[j];
			set->first[j] = set->first[j - 1];
			set->count[j] = set->count[j - 1];
			set->first[j - 1] = f;
			set->count[j - 1] = c;
		}
}

void layout_virt_from_header(const struct kslide_image_header *h, struct slot_set *set)
{
	uint64_t size = h->payload_mem_size;
	memset(set, 0, sizeof(*set));
	set->align = h->virt_align;
	if (!h->virt_align || size == 0)
		return;
	uint64_t first = round_up(h->virt_min, h->virt_align);
	if (h->virt_max >= size - 1 && h->virt_max - (size - 1) >= first)
		add_span(set, first, (h->virt_max - (size - 1) - first) / h->virt_align + 1);
}

void layout_contiguous(uint64_t lo, uint64_t align, uint64_t slots, struct slot_set *set)
{
	memset(set, 0, sizeof(*set));
	set->align = align;
	add_span(set, round_up(lo, align), slots);
}

void layout_shift(const struct slot_set *in, uint64_t delta, struct slot_set *out)
{
	*out = *in;
	for (size_t i = 0; i < out->spans; i++)
		out->first[i] += delta;
}

int64_t layout_index(const struct slot_set *set, uint64_t base)
{
	uint64_t before = 0;
	for (size_t i = 0; i < set->spans; i++) {
		uint64_t first = set->first[i];
		if (base >= first && (base - first) % set->align == 0 &&
		    (base - first) / set->align < set->count[i])
			return (int64_t)(before + (base - first) / set->align);
		before += set->count[i];
	}
	return -1;
}

void layout_range(const struct slot_set *set, uint64_t size, uint64_t *lo, uint64_t *hi)
{
	*lo = *hi = 0;
	if (set->spans == 0)
		return;
	*lo = set->first[0];
	size_t last = set->spans - 1;
	*hi = set->first[last] + (set->count[last] - 1) * set->align + size;
}
