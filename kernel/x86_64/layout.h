/*
 * Where the x86-64 reference kernel is linked. Both builds (-mcmodel=kernel and PIE) are
 * linked at the same addresses; kslide moves the physical and virtual bases independently:
 *
 *   kernel model: anywhere in the top 2 GiB below FIXED_AREA (R_X86_64_32S reaches no
 *                 further), kslide-pack's default --virt-range for an ET_EXEC kernel
 *   PIE:          anywhere in the upper half outside the direct-map area and the top 512 GiB
 *
 * The entry code replaces the stub's tables with the kernel's own at once (paging.c).
 */
#ifndef KSLIDE_KERNEL_X86_64_LAYOUT_H
#define KSLIDE_KERNEL_X86_64_LAYOUT_H

#define KERNEL_LINK_VIRT 0xffffffff81000000
#define KERNEL_LINK_PHYS 0x01000000 /* 16 MiB, as on i386 */
/* The top 16 MiB: reserved for mappings at fixed addresses that must not depend on the slide. */
#define FIXED_AREA 0xffffffffff000000
/* Where the kernel maps all RAM (kernel/x86_64/paging.c), and how much at most. */
#define DIRECT_MAP 0xffff800000000000ull
#define DIRECT_MAP_LIMIT (64ull << 30)
/* Highest end of the kernel's physical range kslide-pack allows by default (64 TiB). */
#define KERNEL_PHYS_LIMIT 0x400000000000ull
#define VIRT_FOLLOWS_PHYS 0
#define PAGE_SIZE 4096

#endif
