/* Linux's own KASLR as slot sets (see linux_kaslr.h). */
#include <string.h>

#include "tools/stat/linux_kaslr.h"

/* The decompressor's run space and the initrd: what find_random_phys_addr steps around. */
#define AVOIDED_MAX 2

static uint64_t align_up(uint64_t v, uint64_t align)
{
	return (v + align - 1) / align * align;
}

uint64_t linux_kaslr_needed(const struct linux_kaslr *k)
{
	uint64_t needed =
		k->output_len > k->kernel_total_size ? k->output_len : k->kernel_total_size;
	return k->x86_64 ? align_up(needed, LINUX_X86_64_MIN_KERNEL_ALIGN) : needed;
}

uint64_t linux_kaslr_output(const struct linux_kaslr *k)
{
	uint64_t output = align_up(k->loaded_at, k->align);
	return output < k->load_physical ? k->load_physical : output;
}

/* The avoided span starting lowest among those [start, start + size) overlaps; NULL if none. */
static const struct mem_span *lowest_overlap(uint64_t start, uint64_t size,
					     const struct mem_span *avoid, size_t count)
{
	const struct mem_span *lowest = NULL;
	for (size_t i = 0; i < count; i++)
		if (avoid[i].start < start + size && avoid[i].end > start &&
		    (!lowest || avoid[i].start < lowest->start))
			lowest = &avoid[i];
	return lowest;
}

/* kaslr.c's store_slot_info: the slots of a region that holds at least one kernel. */
static void store(struct slot_set *set, uint64_t start, uint64_t size, uint64_t needed,
		  uint64_t align)
{
	layout_add_span(set, start, (size - needed) / align + 1);
}

/* kaslr.c's process_mem_region for one RAM span, step for step. */
static void region_slots(const struct linux_kaslr *k, struct mem_span entry, uint64_t minimum,
			 uint64_t needed, const struct mem_span *avoid, size_t avoid_count,
			 struct slot_set *set)
{
	uint64_t limit = k->x86_64 ? UINT64_MAX : LINUX_I386_KERNEL_IMAGE_SIZE;
	if (entry.start >= limit || entry.end < minimum || entry.end <= entry.start)
		return;
	uint64_t start = entry.start, size = entry.end - entry.start;
	for (;;) {
		uint64_t raised = align_up(start < minimum ? minimum : start, k->align);
		if (raised > entry.end || raised >= limit)
			return;
		size -= raised - start;
		start = raised;
		if (size > limit - start)
			size = limit - start;
		if (size < needed)
			return;
		const struct mem_span *overlap = lowest_overlap(start, size, avoid, avoid_count);
		if (!overlap) {
			store(set, start, size, needed, k->align);
			return;
		}
		/* Linux keeps the part before the overlap only if it is strictly larger than
		 * the kernel. */
		if (overlap->start > start + needed)
			store(set, start, overlap->start - start, needed, k->align);
		if (overlap->end >= start + size)
			return;
		size -= overlap->end - start;
		start = overlap->end;
	}
}

void linux_kaslr_phys_slots(const struct linux_kaslr *k, const struct mem_span *ram,
			    size_t ram_count, const struct mem_span *initrd, size_t initrd_count,
			    struct slot_set *set)
{
	uint64_t output = linux_kaslr_output(k), needed = linux_kaslr_needed(k);
	uint64_t run_end = output + k->init_size;
	struct mem_span avoid[AVOIDED_MAX] = {
		{run_end - (k->payload_length < k->init_size ? k->payload_length : k->init_size),
		 run_end},
	};
	size_t avoid_count = 1;
	if (initrd_count && initrd->end > initrd->start)
		avoid[avoid_count++] = *initrd;
	/* choose_random_location: the smaller of 512 MiB and output, aligned */
	uint64_t minimum = align_up(output < (512ull << 20) ? output : 512ull << 20, k->align);
	memset(set, 0, sizeof(*set));
	set->align = k->align;
	for (size_t i = 0; i < ram_count; i++)
		region_slots(k, ram[i], minimum, needed, avoid, avoid_count, set);
	layout_sort(set);
}

void linux_kaslr_virt_slots(const struct linux_kaslr *k, struct slot_set *set)
{
	memset(set, 0, sizeof(*set));
	set->align = k->align;
	if (!k->x86_64)
		return;
	uint64_t minimum = align_up(k->load_physical, k->align);
	uint64_t image = align_up(linux_kaslr_needed(k), k->align);
	if (minimum + image > LINUX_X86_64_KERNEL_IMAGE_SIZE)
		return;
	layout_add_span(set, k->kernel_map + minimum,
			(LINUX_X86_64_KERNEL_IMAGE_SIZE - minimum - image) / k->align + 1);
}
