/* Linux's EFI-stub KASLR as slot sets (see linux_efi_kaslr.h). */
#include <string.h>

#include "tools/stat/linux_efi_kaslr.h"

static uint64_t align_up(uint64_t v, uint64_t align)
{
	return (v + align - 1) / align * align;
}

/* Whether the descriptor was conventional memory when the stub drew the physical base. */
static int free_at_draw(const struct efi_mem *m, uint64_t kernel_phys,
			const struct mem_span *initrd, size_t initrd_count)
{
	switch (m->kind) {
	case EFI_MEM_CONVENTIONAL: return 1;
	case EFI_MEM_LOADER_CODE: return m->span.start == kernel_phys;
	case EFI_MEM_LOADER_DATA:
		/* efi_load_initrd allocates whole pages for the initrd, after the draw */
		return initrd_count && initrd->end > initrd->start &&
		       m->span.start <= initrd->start && initrd->end <= m->span.end;
	default: return 0;
	}
}

size_t linux_efi_free_at_draw(const struct efi_mem *map, size_t count, uint64_t kernel_phys,
			      const struct mem_span *initrd, size_t initrd_count,
			      struct mem_span *out, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < count; i++) {
		if (!free_at_draw(&map[i], kernel_phys, initrd, initrd_count))
			continue;
		struct mem_span s = map[i].span;
		/* into address order, merged with a neighbour on either side */
		size_t at = n;
		while (at > 0 && out[at - 1].start > s.start)
			at--;
		if (at > 0 && out[at - 1].end == s.start) {
			out[at - 1].end = s.end;
			if (at < n && out[at].start == s.end) {
				out[at - 1].end = out[at].end;
				memmove(&out[at], &out[at + 1], (n - at - 1) * sizeof(out[0]));
				n--;
			}
			continue;
		}
		if (at < n && out[at].start == s.end) {
			out[at].start = s.start;
			continue;
		}
		if (n == cap)
			continue;
		memmove(&out[at + 1], &out[at], (n - at) * sizeof(out[0]));
		out[at] = s;
		n++;
	}
	return n;
}

void linux_efi_phys_slots(const struct linux_kaslr *k, const struct mem_span *free_spans,
			  size_t count, struct slot_set *set)
{
	uint64_t align = k->align < LINUX_EFI_PAGE ? LINUX_EFI_PAGE : k->align;
	uint64_t size = align_up(linux_kaslr_needed(k), LINUX_EFI_PAGE);
	memset(set, 0, sizeof(*set));
	set->align = align;
	for (size_t i = 0; i < count; i++) {
		const struct mem_span *m = &free_spans[i];
		if (m->end <= m->start)
			continue;
		uint64_t last = m->end - 1 < LINUX_EFI_X86_64_ALLOC_LIMIT
					? m->end - 1
					: LINUX_EFI_X86_64_ALLOC_LIMIT;
		if (last < size)
			continue;
		uint64_t first_slot =
			align_up(m->start > k->load_physical ? m->start : k->load_physical, align);
		uint64_t last_slot = (last - size + 1) / align * align;
		if (first_slot <= last_slot)
			layout_add_span(set, first_slot, (last_slot - first_slot) / align + 1);
	}
	layout_sort(set);
}

void linux_efi_virt_slots(const struct linux_kaslr *k, struct slot_set *set)
{
	memset(set, 0, sizeof(*set));
	set->align = k->align;
	uint64_t used =
		k->load_physical + (k->text_to_end ? k->text_to_end : k->kernel_total_size);
	if (!k->x86_64 || !k->align || used >= LINUX_X86_64_KERNEL_IMAGE_SIZE)
		return;
	uint64_t range = LINUX_X86_64_KERNEL_IMAGE_SIZE - used;
	/* (range * seed) >> 32 is at most range - 1, then rounded down to the alignment */
	layout_add_span(set, k->kernel_map + k->load_physical, (range - 1) / k->align + 1);
}
