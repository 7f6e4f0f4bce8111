/*
 * Where the x86-64 reference kernel is linked. Both builds (-mcmodel=kernel and PIE) are
 * linked at the same addresses; kslide moves the physical and virtual bases independently:
 *
 *   kernel model: anywhere in the top 2 GiB below FIXED_AREA (R_X86_64_32S reaches no
 *                 further), kslide-pack's default --virt-range for an ET_EXEC kernel
 *   PIE:          anywhere in the upper half above the direct map's window (its first 8 TiB)
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
/* The kernel's half: every address from here up (PML4 entries 256 to 511). */
#define KERNEL_HALF 0xffff800000000000ull
/* The direct map of all RAM (kernel/x86_64/paging.c) reaches DIRECT_MAP_LIMIT (64 GiB) at
 * most. Its base is drawn at every boot (kernel/x86_64/direct_map.c), from the seed and
 * independently of the image's bases, among the DIRECT_MAP_ALIGN-aligned places where the
 * whole span fits in [DIRECT_MAP_WINDOW_START, DIRECT_MAP_WINDOW_END): the first 8 TiB of
 * the kernel's half, which kslide-pack's default PIE window already leaves out and nothing
 * else uses. 1 GiB, as Linux's RANDOMIZE_MEMORY: each GiB of the map is one whole PD of
 * 2 MiB pages, so no table is shared with a neighbour. (8 TiB - 64 GiB) / 1 GiB + 1 = 8129
 * places, 12.99 bits, whatever the RAM size (the window keeps room for the whole span). */
#define DIRECT_MAP_LIMIT 0x1000000000
#define DIRECT_MAP_SPAN DIRECT_MAP_LIMIT
#define DIRECT_MAP_WINDOW_START KERNEL_HALF
#define DIRECT_MAP_WINDOW_END 0xffff880000000000ull
#define DIRECT_MAP_ALIGN 0x40000000ull
#define DIRECT_MAP_SLOTS                                                                     \
	((DIRECT_MAP_WINDOW_END - DIRECT_MAP_WINDOW_START - DIRECT_MAP_SPAN) / DIRECT_MAP_ALIGN + 1)
#ifndef __ASSEMBLER__
#include <stdint.h>
/* Set once by paging_init (kernel/x86_64/direct_map.c), before the first access through the
 * direct map; until then the kernel runs on the stub's tables and reads physical memory one
 * to one. */
extern uint64_t direct_map_base;
#endif
/* The name the shared code uses for the direct map's base: i386's is a constant. */
#define DIRECT_MAP direct_map_base
/* The kernel reaches its own frames through the direct map too (selftest_paging.c, frames.c):
 * it must end below the direct map's end. Its kslide note tells kslide-pack. */
#define KERNEL_PHYS_LIMIT DIRECT_MAP_LIMIT
/* The virtual range the image may take (its kslide note): a PIE anywhere in the upper half
 * above the direct map's window and below FIXED_AREA, the kernel model in the top 2 GiB below
 * FIXED_AREA (its 32-bit fields reach no further). The PIE's start is DIRECT_MAP_WINDOW_END,
 * spelled for the assembler. */
#ifdef __pie__
#define KERNEL_VIRT_MIN 0xffff880000000000
#else
#define KERNEL_VIRT_MIN 0xffffffff80000000
#endif
#define KERNEL_VIRT_END FIXED_AREA
#define VIRT_FOLLOWS_PHYS 0

/* The entry area (kernel/secrecy/entry_area.h) lies somewhere in FIXED_AREA, at a page drawn at
 * every boot; the last page stays unmapped. */
#define ENTRY_WINDOW_START FIXED_AREA
#define ENTRY_WINDOW_END 0xfffffffffffff000
/* The GS bases (SDM Vol. 4, table 2-2): SWAPGS exchanges them. */
#define MSR_GS_BASE 0xc0000101
#define MSR_KERNEL_GS_BASE 0xc0000102
/* Not among lib/pagetable.h's leaf flags: that builder makes kernel mappings only. */
#define PTE_USER 0x4

/* Segment selectors of the kernel's GDT, user ones at RPL 3. User data sits just below user
 * code, the order SYSRET expects (STAR[63:48] = KERNEL_DS), though only INT and IRETQ are used. */
#define KERNEL_CS 0x08
#define KERNEL_DS 0x10
#define USER_DS 0x1b
#define USER_CS 0x23
#define TSS_SEL 0x28 /* a 16-byte descriptor: two GDT slots */

#endif
