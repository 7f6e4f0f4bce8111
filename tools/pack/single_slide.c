/* The single slide of a Multiboot kernel (single_slide.h). */
#include <stdio.h>

#include "include/kslide/image.h"
#include "tools/pack/fail.h"
#include "tools/pack/single_slide.h"

/*
 * The Multiboot handoff moves the kernel by one delta, physical and virtual alike: its entry
 * is 32-bit protected-mode code that runs where it was loaded and builds its own page tables,
 * so only a move that keeps virtual = physical + its link-time offset can work. An x86-64
 * kernel of this shape maps a physical window at its higher half (the tutorials' and
 * Dreamos64's boot tables: the first 1 GiB in 2 MiB pages, one page directory), and it must
 * lie inside it: that is the default --max. A kernel that maps less needs --max (or its
 * kslide note's limit); one that maps more may go up to 2 GiB (single_slide_check_window).
 */
int single_slide_choose(struct kernel_elf *k, struct pack_options *opt,
			const struct pack_choices *ch, char *err, size_t err_cap)
{
	k->single_slide = true;
	k->fixups_follow_virt = false;
	if (k->arch == KSLIDE_ARCH_X86_64 && !ch->given.max && opt->max > SINGLE_SLIDE_MAX_X86_64)
		opt->max = SINGLE_SLIDE_MAX_X86_64;
	if (k->max_segment_align <= opt->align)
		return 0;
	if (ch->given.align)
		return pack_fail(err, err_cap,
				 "--align 0x%llx is below its segments' alignment (p_align 0x%llx), "
				 "which a move must keep",
				 (unsigned long long)opt->align,
				 (unsigned long long)k->max_segment_align);
	opt->align = k->max_segment_align;
	return 0;
}

/*
 * A single slide moves the higher half with the physical base: at the window's highest base
 * every segment must still end inside the address space (a kernel at KERNEL_VMA + physical
 * reaches the top at 2 GiB). Its fields' int32 and int64 ranges do not see this: their values
 * cross from negative to positive, which base_window_check allows.
 */
int single_slide_check_window(const struct kernel_elf *k, const struct pack_options *opt,
			      char *err, size_t err_cap)
{
	uint64_t size = opt->memory_size > k->mem_size ? opt->memory_size : k->mem_size;
	if (!k->single_slide || k->arch != KSLIDE_ARCH_X86_64 || opt->max < size)
		return 0;
	uint64_t last_base = (opt->max - size) & ~(opt->align - 1);
	if (last_base <= k->link_phys)
		return 0;
	uint64_t slide = last_base - k->link_phys;
	for (size_t i = 0; i < k->segment_count; i++) {
		const struct kernel_segment *s = &k->segments[i];
		uint64_t room = 0 - (s->vaddr + s->mem_size); /* bytes above its end, mod 2^64 */
		if (s->vaddr + s->mem_size == 0 || s->vaddr + s->mem_size < s->vaddr || slide <= room)
			continue;
		return pack_fail(err, err_cap,
				 "its segment at virtual 0x%llx would end past the top of the address "
				 "space at the highest base, 0x%llx: one slide moves it with the "
				 "physical base; lower --max to 0x%llx",
				 (unsigned long long)s->vaddr, (unsigned long long)last_base,
				 (unsigned long long)(k->link_phys + room + size));
	}
	return 0;
}

int single_slide_check_offsets(const struct kernel_elf *k, char *err, size_t err_cap)
{
	if (!k->offsets_differ[0] || k->single_slide)
		return 0;
	return pack_fail(err, err_cap,
			 "%s; they may differ only when the kernel moves by one delta (--handoff "
			 "multiboot, for a kernel with a Multiboot entry). Otherwise link the "
			 "segments with one offset: in the linker script, give the low sections "
			 "the higher-half address too, loaded low with AT()",
			 k->offsets_differ);
}

int single_slide_check_entry(const char *in, const struct kernel_elf *k,
			     const struct pack_log *log, char *err, size_t err_cap)
{
	if (!k->entry_not_code[0])
		return 0;
	if (!k->single_slide)
		return pack_fail(err, err_cap, "%s: the ELF header's e_entry must point at code",
				 k->entry_not_code);
	char text[320];
	snprintf(text, sizeof(text),
		 "%s: %s, only of one without PF_X; a Multiboot entry runs with paging off, where "
		 "that mark means nothing: packed, as its loader would load it",
		 in, k->entry_not_code);
	if (log && log->warn)
		log->warn(log->ctx, text);
	return 0;
}
