/*
 * Where a base may land: the image's constraints (include/kslide/image.h) and the slot sets
 * they give. The physical set is recounted here from the image header and the memory map the
 * kernel reported, independently of the stub's arithmetic (lib/slots.c), so the stub's slots=
 * can be checked rather than believed.
 */
#ifndef KSLIDE_TOOLS_STAT_LAYOUT_H
#define KSLIDE_TOOLS_STAT_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "include/kslide/image.h"
#include "tools/stat/lines.h"

#define LAYOUT_SPANS_MAX 64

/* Slots 'align' apart: span i holds count[i] bases from first[i]. */
struct slot_set {
	uint64_t align;
	size_t spans;
	uint64_t first[LAYOUT_SPANS_MAX];
	uint64_t count[LAYOUT_SPANS_MAX];
	uint64_t total;
};

/*
 * Read and verify the packed image's header, and where its loader puts the image: *loaded
 * (when not NULL) is [load_addr, load_addr + image_file_size), load_addr from the headers of
 * the image's container (tools/pack/container.h), the range the stub avoids as its own.
 * 0, or -1 with *why set.
 */
int layout_read_header(const char *path, struct kslide_image_header *h, struct mem_span *loaded,
		       const char **why);

/*
 * The usable spans minus every avoided one, as [start, end) pieces in the usable spans' order;
 * at most 'cap' pieces (more are dropped). Returns the number written.
 */
size_t layout_subtract(const struct mem_span *usable, size_t count, const struct mem_span *avoid,
		       size_t avoid_count, struct mem_span *out, size_t cap);

/*
 * Every base b, a multiple of h->align with phys_min <= b and b + memory_size - 1 <= phys_max,
 * whose kernel lies inside one usable span and overlaps no avoided one: what the loader
 * placed (the packed image, the initrd). The loader's small tables and the command line,
 * which the stub also avoids, are not counted; below phys_min (as under QEMU) they change
 * nothing, elsewhere the recount can exceed the stub's count.
 */
void layout_phys_from_map(const struct kslide_image_header *h, const struct mem_span *usable,
			  size_t count, const struct mem_span *avoid, size_t avoid_count,
			  struct slot_set *set);

/*
 * The virtual bases of an image with a window of its own (h->virt_align set): every multiple
 * of virt_align with virt_min <= b and b + payload_mem_size - 1 <= virt_max. An empty set
 * where the image has no window.
 */
void layout_virt_from_header(const struct kslide_image_header *h, struct slot_set *set);

/* Add 'count' slots from 'first' (none when count is 0 or the set is full). */
void layout_add_span(struct slot_set *set, uint64_t first, uint64_t count);

/* The spans in address order, whatever order they were added in. */
void layout_sort(struct slot_set *set);

/* 'slots' bases from the first multiple of 'align' at or above 'lo'. */
void layout_contiguous(uint64_t lo, uint64_t align, uint64_t slots, struct slot_set *set);

/* The same set moved by 'delta' (the virtual bases when they follow the physical ones). */
void layout_shift(const struct slot_set *in, uint64_t delta, struct slot_set *out);

/* Index of 'base' among the set's slots in address order; -1 if it is not one of them. */
int64_t layout_index(const struct slot_set *set, uint64_t base);

/* Lowest base and the end of the highest kernel: the range a histogram covers. */
void layout_range(const struct slot_set *set, uint64_t size, uint64_t *lo, uint64_t *hi);

#endif
