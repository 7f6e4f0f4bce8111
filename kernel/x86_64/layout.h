/*
 * Where the x86-64 reference kernel is linked. Both builds (-mcmodel=kernel and PIE) are
 * linked at the same addresses; kslide moves the physical and virtual bases independently:
 *
 *   kernel model: anywhere in the top 2 GiB below FIXED_AREA (R_X86_64_32S reaches no
 *                 further), kslide-pack's default --virt-range for an ET_EXEC kernel
 *   PIE:          anywhere in the upper half outside the direct-map area and the top 512 GiB
 *
 * Until the kernel installs tables of its own it runs on the stub's (include/kslide/
 * bootinfo.h), which map physical [0, 4 GiB) one to one.
 */
#ifndef KSLIDE_KERNEL_X86_64_LAYOUT_H
#define KSLIDE_KERNEL_X86_64_LAYOUT_H

#define KERNEL_LINK_VIRT 0xffffffff81000000
#define KERNEL_LINK_PHYS 0x01000000 /* 16 MiB, as on i386 */
/* The top 16 MiB: reserved for mappings at fixed addresses that must not depend on the slide. */
#define FIXED_AREA 0xffffffffff000000
/* Physical addresses the stub's tables reach for certain. */
#define IDENTITY_LIMIT 0x100000000ull
/* Highest end of the kernel's physical range kslide-pack allows by default (64 TiB). */
#define KERNEL_PHYS_LIMIT 0x400000000000ull
#define VIRT_FOLLOWS_PHYS 0
#define PAGE_SIZE 4096

#endif
