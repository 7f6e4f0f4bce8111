/* Where the i386 reference kernel is linked: Linux-style, virtual = physical + 3 GiB. */
#ifndef KSLIDE_KERNEL_I386_LAYOUT_H
#define KSLIDE_KERNEL_I386_LAYOUT_H

#define KERNEL_VIRT_OFFSET 0xC0000000 /* PAGE_OFFSET: start of the direct map */
#define KERNEL_LINK_PHYS 0x01000000   /* 16 MiB: the seed patch's and Linux's minimum */
/* The direct map covers physical [0, LOWMEM_LIMIT), as Linux's lowmem: 896 MiB leaves the
 * top 128 MiB of virtual space for other mappings. The kernel must lie below it. */
#define LOWMEM_LIMIT 0x38000000
#define KERNEL_PHYS_LIMIT LOWMEM_LIMIT
#define VIRT_FOLLOWS_PHYS 1 /* virtual = physical + KERNEL_VIRT_OFFSET, always */
#define PAGE_SIZE 4096
#define PAGE_TABLE_SPAN 0x400000 /* 4 MiB mapped by one page table */
#define LOWMEM_TABLES (LOWMEM_LIMIT / PAGE_TABLE_SPAN)
#define PDE_INDEX_OF_OFFSET (KERNEL_VIRT_OFFSET / PAGE_TABLE_SPAN)
#define PTE_PRESENT 0x001
#define PTE_WRITABLE 0x002
#define CR0_PG 0x80000000

#endif
