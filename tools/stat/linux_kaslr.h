/*
 * Linux's own KASLR as a slot model, so that kslide-stat can judge a stock kernel's bases by
 * the figures it uses for kslide's: where Linux's decompressor may put the kernel, from the
 * bzImage's setup header and vmlinux and the memory map the kernel was booted with. The
 * facts are Linux 6.1's arch/x86/boot/compressed/ (kaslr.c, misc.c, head_32.S, head_64.S),
 * restated here; Linux's names are in the comments. Pure: no I/O.
 */
#ifndef KSLIDE_TOOLS_STAT_LINUX_KASLR_H
#define KSLIDE_TOOLS_STAT_LINUX_KASLR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tools/stat/layout.h"
#include "tools/stat/lines.h"

/* KERNEL_IMAGE_SIZE: i386 keeps the kernel below 512 MiB physical; x86-64 with
 * CONFIG_RANDOMIZE_BASE maps it in the top 1 GiB and draws its virtual base there. */
#define LINUX_I386_KERNEL_IMAGE_SIZE   (512ull << 20)
#define LINUX_X86_64_KERNEL_IMAGE_SIZE (1ull << 30)
/* MIN_KERNEL_ALIGN on x86-64 (PMD_SIZE): misc.c rounds the needed size up to it. */
#define LINUX_X86_64_MIN_KERNEL_ALIGN (2ull << 20)

/* What the model needs of one kernel and its loader. */
struct linux_kaslr {
	bool x86_64;
	uint64_t align;		    /* kernel_alignment: CONFIG_PHYSICAL_ALIGN */
	uint64_t load_physical;	    /* pref_address: LOAD_PHYSICAL_ADDR */
	uint64_t init_size;	    /* the header's init_size */
	uint64_t payload_length;    /* the compressed payload in the bzImage (input_len) */
	uint64_t output_len;	    /* the decompressed payload: vmlinux and its relocations */
	uint64_t kernel_total_size; /* the vmlinux in memory, _end - _text */
	uint64_t kernel_map;	    /* virtual minus physical: __START_KERNEL_map or PAGE_OFFSET */
	uint64_t loaded_at; /* where the loader put the protected-mode code (code32_start) */
	/* VO__end - VO__text, what misc.c calls kernel_total_size: _end is the end of .brk
	 * (vmlinux.lds.S), before .init.scratch, which kernel_total_size above (the segments'
	 * span) includes. 0 when the vmlinux has no .brk section. */
	uint64_t text_to_end;
};

/* misc.c's needed_size: max(output_len, kernel_total_size), on x86-64 2 MiB aligned. */
uint64_t linux_kaslr_needed(const struct linux_kaslr *k);

/* head_32.S/head_64.S: where the decompressor extracts when it does not randomize (its
 * 'output'): the load address rounded up to kernel_alignment, at least LOAD_PHYSICAL_ADDR. */
uint64_t linux_kaslr_output(const struct linux_kaslr *k);

/*
 * The physical bases Linux's find_random_phys_addr chooses among, each equally likely (one
 * random number modulo their count): every kernel_alignment step within one RAM span of the
 * map, from min(output, 512 MiB), that leaves needed_size bytes clear of what it avoids: the
 * decompressor's own run space, the initrd (when given), and on i386 everything past 512
 * MiB. The loader's command line and zero page are not modelled: QEMU puts them below 1 MiB.
 * Linux avoids [input, output + init_size); input, where the compressed payload lies in the
 * relocated decompressor, is at most output + init_size - payload_length, which is what this
 * model avoids: the same slots whenever needed_size exceeds init_size - payload_length (true
 * of Debian's kernels: the first slot at output overlaps either way).
 */
void linux_kaslr_phys_slots(const struct linux_kaslr *k, const struct mem_span *ram,
			    size_t ram_count, const struct mem_span *initrd, size_t initrd_count,
			    struct slot_set *set);

/*
 * x86-64's find_random_virt_addr: _text at kernel_map + LOAD_PHYSICAL_ADDR + n steps of
 * kernel_alignment, for (KERNEL_IMAGE_SIZE - LOAD_PHYSICAL_ADDR - needed) / align + 1 values
 * of n (needed rounded up to the alignment). An empty set on i386, where the virtual base is
 * the physical one plus PAGE_OFFSET.
 */
void linux_kaslr_virt_slots(const struct linux_kaslr *k, struct slot_set *set);

#endif
