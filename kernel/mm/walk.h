/*
 * Reading the live page tables as the CPU walks them (kernel/mm/walk.c): the hardware's view,
 * independent of what the boot info or the kernel's own bookkeeping claims. The formats
 * (Intel SDM Vol. 3A, 4.3 "32-Bit Paging" and 4.5 "4-Level Paging"):
 *
 *   i386:   CR3 -> page directory (1024 x 4 bytes, bits 31..22) -> page table (bits 21..12)
 *   x86-64: CR3 -> PML4 (512 x 8 bytes, bits 47..39) -> PDPT -> PD -> PT (9 bits each);
 *           a PDPT or PD entry with PS set maps a 1 GiB or 2 MiB page
 */
#ifndef KSLIDE_KERNEL_MM_WALK_H
#define KSLIDE_KERNEL_MM_WALK_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __x86_64__
typedef uint64_t walk_entry_t;
#define WALK_TOP_SHIFT 39
#define WALK_INDEX_BITS 9
#define WALK_FRAME_MASK 0x000ffffffffff000ull /* physical address bits 51..12 */
#define WALK_LARGE_PAGES 1
#define WALK_VIRT_BITS 48 /* bits 63..47 of a canonical address are all equal */
#define WALK_KERNEL_HALF_FIRST 256 /* the top-level entry of 0xffff800000000000 */
#define WALK_NX (1ull << 63)      /* XD: no instruction fetch (when EFER.NXE is set) */
#else
typedef uint32_t walk_entry_t;
#define WALK_TOP_SHIFT 22
#define WALK_INDEX_BITS 10
#define WALK_FRAME_MASK 0xfffff000u
#define WALK_LARGE_PAGES 0 /* CR4.PSE stays off: every directory entry names a page table */
#define WALK_VIRT_BITS 32
#define WALK_KERNEL_HALF_FIRST 768 /* the directory entry of 0xC0000000 */
#define WALK_NX 0 /* 32-bit paging has no XD bit: every present page may be executed */
#endif
#define WALK_PAGE_SHIFT 12
#define WALK_PRESENT 0x1u
#define WALK_WRITABLE 0x2u
#define WALK_USER 0x4u
#define WALK_LARGE 0x80u /* PS */
#define WALK_ENTRIES (1u << WALK_INDEX_BITS)

/* The physical address virt maps to through the live tables, or 0. Each table page is read
 * at its physical address plus table_offset: 0 under the stub's one-to-one map, DIRECT_MAP
 * under the kernel's. */
uint64_t walk_virt_to_phys(uintptr_t virt, uint64_t table_offset);

/* What the live tables allow at virt, as the CPU combines the levels: WALK_PRESENT, and
 * WALK_WRITABLE and WALK_USER only when every level has them, WALK_NX when any level has it;
 * 0 when unmapped. */
uint64_t walk_rights(uintptr_t virt, uint64_t table_offset);

/* Called for every present entry: va is the first address it covers and span how many bytes
 * (a table's whole range, or the page's), leaf whether it maps a page rather than a table. */
typedef void (*walk_visit_fn)(void *ctx, uintptr_t va, uint64_t span, uint64_t entry, bool leaf);

/* Every present entry under the root table at root_phys whose top-level index lies in
 * [first, end), depth first, each table read through the direct map. */
void walk_tree(uint64_t root_phys, unsigned first, unsigned end, walk_visit_fn visit, void *ctx);

#endif
