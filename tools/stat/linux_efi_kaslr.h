/*
 * Linux's own KASLR when its EFI stub starts it (x86-64), as a slot model beside the BIOS
 * decompressor's (linux_kaslr.h). Since Linux 6.6, and in Debian 12's 6.1 kernels through the
 * stable backport of the stub's own decompressor (6.1.192's bzImage logs "disabling physical
 * KASLR" from it), efi_stub_entry draws both bases itself before ExitBootServices
 * (drivers/firmware/efi/libstub/x86-stub.c, efi_decompress_kernel; randomalloc.c), from
 * EFI_RNG_PROTOCOL's bytes XORed with kaslr_get_random_long():
 *
 *   physical: efi_random_alloc(alloc_size, CONFIG_PHYSICAL_ALIGN, seed[0], EFI_LOADER_CODE,
 *             LOAD_PHYSICAL_ADDR, EFI_X86_KERNEL_ALLOC_LIMIT): every kernel_alignment
 *             multiple b >= LOAD_PHYSICAL_ADDR with [b, b + alloc_size) inside one
 *             EfiConventionalMemory descriptor of the map at that moment, below 64 TiB; slot
 *             (total * seed[0]) >> 32, then AllocatePages at that address. alloc_size is
 *             misc.c's needed_size: max(output_len, kernel_total_size) rounded up to 2 MiB.
 *   virtual:  LOAD_PHYSICAL_ADDR + ((range * seed[1]) >> 32) rounded down to
 *             CONFIG_PHYSICAL_ALIGN, range = KERNEL_IMAGE_SIZE - LOAD_PHYSICAL_ADDR -
 *             kernel_total_size (_end - _text: linux_kaslr's text_to_end, which leaves out
 *             .init.scratch): ceil(range / align) values, the last of them less likely
 *             than the others by the fraction of a step range leaves (not the BIOS
 *             decompressor's count, which sizes the image by needed_size).
 *
 * The map at the draw is not the one Linux keeps: it logs (efi=debug) the map of
 * ExitBootServices, after the stub allocated the kernel's place (the EfiLoaderCode descriptor
 * that starts at the physical base) and then the initrd (EfiLoaderData). Both were
 * conventional memory at the draw, and are counted so here. What else the stub allocates
 * after the draw (its pool: the final memory map, the random seed table, a few pages) is not
 * told apart from what it allocated before it; where such a page ends a region, the region
 * counted here may be one slot short of Linux's, which would show as a base outside the
 * slots. Pure: no I/O.
 */
#ifndef KSLIDE_TOOLS_STAT_LINUX_EFI_KASLR_H
#define KSLIDE_TOOLS_STAT_LINUX_EFI_KASLR_H

#include <stddef.h>
#include <stdint.h>

#include "tools/stat/layout.h"
#include "tools/stat/lines.h"
#include "tools/stat/linux_kaslr.h"

/* EFI_X86_KERNEL_ALLOC_LIMIT on x86-64 (arch/x86/include/asm/efi.h): below 64 TiB. */
#define LINUX_EFI_X86_64_ALLOC_LIMIT ((64ull << 40) - 1)
/* EFI_ALLOC_ALIGN: allocations are whole 4 KiB pages. */
#define LINUX_EFI_PAGE 0x1000ull

/*
 * The conventional memory at the physical draw, rebuilt from the map of ExitBootServices:
 * its EfiConventionalMemory descriptors, the EfiLoaderCode descriptor that starts at
 * 'kernel_phys' (the kernel's own allocation) and the EfiLoaderData descriptors that hold the
 * initrd, neighbours merged, in address order. At most 'cap' spans; returns how many.
 */
size_t linux_efi_free_at_draw(const struct efi_mem *map, size_t count, uint64_t kernel_phys,
			      const struct mem_span *initrd, size_t initrd_count,
			      struct mem_span *out, size_t cap);

/* efi_random_alloc's slots for the kernel over those spans (get_entry_num_slots, per span). */
void linux_efi_phys_slots(const struct linux_kaslr *k, const struct mem_span *free_spans,
			  size_t count, struct slot_set *set);

/* The virtual bases efi_decompress_kernel draws among (see above). */
void linux_efi_virt_slots(const struct linux_kaslr *k, struct slot_set *set);

#endif
