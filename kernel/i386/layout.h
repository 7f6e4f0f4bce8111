/* Where the i386 reference kernel is linked: Linux-style, virtual = physical + 3 GiB.
 * Include kernel/layout.h, which adds what both arches share. */
#ifndef KSLIDE_KERNEL_I386_LAYOUT_H
#define KSLIDE_KERNEL_I386_LAYOUT_H

#define KERNEL_VIRT_OFFSET 0xC0000000 /* PAGE_OFFSET: start of the direct map */
#define DIRECT_MAP KERNEL_VIRT_OFFSET
#define KERNEL_LINK_PHYS 0x01000000   /* 16 MiB: the seed patch's and Linux's minimum */
/* The direct map covers physical [0, LOWMEM_LIMIT), as Linux's lowmem: 896 MiB leaves the
 * top 128 MiB of virtual space for other mappings. The kernel must lie below it. */
#define LOWMEM_LIMIT 0x38000000
#define DIRECT_MAP_SPAN LOWMEM_LIMIT
/* One place only: the 3G/1G split leaves the kernel one GiB, lowmem's 896 MiB of it the direct
 * map, with no room to move it, and the image lies inside it (docs/security.md). */
#define DIRECT_MAP_WINDOW_START DIRECT_MAP
#define DIRECT_MAP_WINDOW_END (DIRECT_MAP + DIRECT_MAP_SPAN)
#define DIRECT_MAP_SLOTS 1
#define KERNEL_PHYS_LIMIT LOWMEM_LIMIT
#define VIRT_FOLLOWS_PHYS 1 /* virtual = physical + KERNEL_VIRT_OFFSET, always */
#define KERNEL_VIRT_MIN 0   /* so no virtual window of its own (its kslide note) */
#define KERNEL_VIRT_END 0
#define PAGE_TABLE_SPAN 0x400000 /* 4 MiB mapped by one page table */
#define LOWMEM_TABLES (LOWMEM_LIMIT / PAGE_TABLE_SPAN)
#define PDE_INDEX_OF_OFFSET (KERNEL_VIRT_OFFSET / PAGE_TABLE_SPAN)
#define PTE_PRESENT 0x001
#define PTE_WRITABLE 0x002
#define PTE_USER 0x004
#define CR0_PG 0x80000000

/* Above lowmem's end (0xF8000000), kernel only:
 *   0xF8000000  the physical-memory window (kernel/mm/phys_map.h): one page table, in which the
 *               kernel maps firmware tables that lie above lowmem (ACPI's, at the top of RAM)
 *   0xF8400000  MMIO at its own address (the local APIC at 0xFEE00000: kernel/i386/smp.c)
 *   0xFFC00000  the fixmap
 */
#define PHYS_WINDOW_VIRT 0xF8000000 /* KERNEL_VIRT_OFFSET + LOWMEM_LIMIT */
#define PHYS_WINDOW_END (PHYS_WINDOW_VIRT + PAGE_TABLE_SPAN)

/* The fixmap: the top 4 MiB (one page table), above lowmem's end at 0xF8000000. The entry
 * area (kernel/secrecy/entry_area.h) lies somewhere in it, at a page drawn at every boot; the last
 * page stays unmapped. */
#define FIXMAP_VIRT 0xFFC00000
#define PDE_INDEX_OF_FIXMAP (FIXMAP_VIRT / PAGE_TABLE_SPAN)
#define ENTRY_WINDOW_START FIXMAP_VIRT
#define ENTRY_WINDOW_END 0xFFFFF000
#define DR7_RESET 0x400 /* every breakpoint off; bit 10 reads as 1 (SDM Vol. 3B, 17.2.4) */

/* Segment selectors of the kernel's GDT (kernel/i386/cpu_tables.c); user ones at RPL 3. */
#define KERNEL_CS 0x08
#define KERNEL_DS 0x10
#define USER_CS 0x1b
#define USER_DS 0x23
#define TSS_SEL 0x28

#endif
