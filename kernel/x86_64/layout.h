/*
 * Where the x86-64 reference kernel is linked. Both builds (-mcmodel=kernel and PIE) are
 * linked at the same addresses; kslide moves the physical and virtual bases independently:
 *
 *   kernel model: anywhere in the top 2 GiB below FIXED_AREA (R_X86_64_32S reaches no
 *                 further), kslide-pack's default --virt-range for an ET_EXEC kernel
 *   PIE:          anywhere in the upper half outside the direct-map area and the top 512 GiB
 *
 * The entry code replaces the stub's tables with the kernel's own at once (paging.c).
 * Include kernel/layout.h, which adds what both arches share.
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

/* FIXED_AREA's first page: the read-only alias of the descriptor tables and TSS
 * (kernel/x86_64/cpu_tables.c), all SIDT and SGDT can show, whatever the slide. */
#define FIXMAP_VIRT FIXED_AREA
/* Not among lib/pagetable.h's leaf flags: that builder makes kernel mappings only. */
#define PTE_USER ((uint64_t)1 << 2)

/* Segment selectors of the kernel's GDT, user ones at RPL 3. User data sits just below user
 * code, the order SYSRET expects (STAR[63:48] = KERNEL_DS), though only INT and IRETQ are used. */
#define KERNEL_CS 0x08
#define KERNEL_DS 0x10
#define USER_DS 0x1b
#define USER_CS 0x23
#define TSS_SEL 0x28 /* a 16-byte descriptor: two GDT slots */

#endif
