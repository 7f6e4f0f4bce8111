/*
 * x86-64 4-level page tables built from a caller's pool of pages, for a 32-bit stub that
 * enters long mode: identity-map low memory, map the kernel's virtual range anywhere.
 *
 * Source for every number below: Intel SDM Vol. 3A, section 4.5 "4-Level Paging and 5-Level
 * Paging" (Figure 4-8 and the entry-format tables that follow it); canonical addresses: Vol. 1,
 * 3.3.7.1 "Canonical Addressing".
 *
 * A 48-bit (4-level) virtual address, and the table each field indexes:
 *
 *   63        48 47      39 38      30 29      21 20      12 11           0
 *  +------------+----------+----------+----------+----------+--------------+
 *  | copies of  |   PML4   |   PDPT   |    PD    |    PT    |  offset in   |
 *  |   bit 47   |  index   |  index   |  index   |  index   |  4 KiB page  |
 *  +------------+----------+----------+----------+----------+--------------+
 *                  9 bits     9 bits     9 bits     9 bits      12 bits
 *                                                |< 2 MiB page offset (21 bits) >|
 *
 * An entry holds the PHYSICAL address of the next table (or of the page) in bits 12..51 and
 * flags in the rest. A PD entry with PS set maps a 2 MiB page (address bits 21..51); a PDPT
 * entry with PS set maps a 1 GiB page. This builder makes 4 KiB and 2 MiB pages only; the walk
 * (pt_translate) also understands 1 GiB pages.
 */
#ifndef KSLIDE_LIB_PAGETABLE_H
#define KSLIDE_LIB_PAGETABLE_H

#include <stddef.h>
#include <stdint.h>

/* Entry flags (SDM Vol. 3A, 4.5, formats of PML4E, PDPTE, PDE and PTE). */
#define PTE_PRESENT  ((uint64_t)1 << 0) /* P: the entry is valid */
#define PTE_WRITABLE ((uint64_t)1 << 1) /* R/W: writes allowed (all levels must allow) */
#define PTE_ACCESSED ((uint64_t)1 << 5) /* A: set by the CPU, ignored by comparisons here */
#define PTE_DIRTY    ((uint64_t)1 << 6) /* D: set by the CPU in leaf entries */
#define PTE_PS       ((uint64_t)1 << 7) /* page size: the PDE (PDPTE) maps 2 MiB (1 GiB) */
#define PTE_GLOBAL   ((uint64_t)1 << 8) /* G: leaf survives CR3 reloads when CR4.PGE = 1 */
/* XD: no instruction fetch. A reserved bit (a page fault) unless IA32_EFER.NXE = 1. */
#define PTE_NX       ((uint64_t)1 << 63)

/* Leaf flags pt_map accepts. PTE_PRESENT is implied; PAT and PCD/PWT are left at 0 (WB). */
#define PT_MAP_FLAGS (PTE_PRESENT | PTE_WRITABLE | PTE_GLOBAL | PTE_NX)

/* Index of each level in a virtual address: (virt >> shift) & PT_INDEX_MASK. */
#define PT_SHIFT_PML4 39
#define PT_SHIFT_PDPT 30
#define PT_SHIFT_PD   21
#define PT_SHIFT_PT   12
#define PT_INDEX_MASK 0x1ffu /* 9 bits */
#define PT_ENTRIES    512    /* entries per table; a table fills one 4 KiB page */

#define PT_SIZE_4K ((uint64_t)1 << PT_SHIFT_PT)
#define PT_SIZE_2M ((uint64_t)1 << PT_SHIFT_PD)
#define PT_SIZE_1G ((uint64_t)1 << PT_SHIFT_PDPT)
/* Bytes one PML4 entry spans (512 GiB). */
#define PT_SIZE_512G ((uint64_t)1 << PT_SHIFT_PML4)

/* Physical address bits 12..51 of an entry (MAXPHYADDR is at most 52). */
#define PT_ADDR_MASK  0x000ffffffffff000ull
#define PT_PHYS_LIMIT ((uint64_t)1 << 52) /* first physical address out of reach */
#define PT_VIRT_BITS  48                  /* bits 63..47 of a canonical address are all equal */

/* Pages pt_init takes for the PML4. */
#define PT_ROOT_PAGES 1

/*
 * The caller's pages, allocated in order and zeroed as they are handed out. Page i lives at
 * physical address phys_of_first + i * 4 KiB; in the stub (paging off) that is the pointer
 * itself, in host tests any 4 KiB-aligned base, translated back when walking.
 */
struct pt_pool {
	uint64_t (*pages)[PT_ENTRIES]; /* count pages; need not be aligned on the host */
	size_t count;
	size_t used;
	uint64_t phys_of_first; /* 4 KiB aligned, pool wholly below PT_PHYS_LIMIT */
};

struct pt_builder {
	struct pt_pool pool;
	uint64_t pml4_phys; /* what CR3 gets; a 32-bit stub loads only 32 bits, so keep the
			       pool below 4 GiB there */
};

/*
 * Start an empty address space in pages[0..count) whose first page is at physical address
 * phys_of_first: takes one page for the PML4. Returns KS_OK, KS_EINVAL (pages NULL,
 * phys_of_first not 4 KiB aligned, or the pool reaching past PT_PHYS_LIMIT) or KS_ENOSPC
 * (count == 0).
 */
int pt_init(struct pt_builder *b, uint64_t (*pages)[PT_ENTRIES], size_t count,
	    uint64_t phys_of_first);

/*
 * Tables (besides the PML4) that pt_map(virt, phys, size) allocates at most: exactly what it
 * takes in an empty address space, where the range needs one PDPT per 512 GiB region and one
 * PD per 1 GiB region it touches, and one PT per 2 MiB region it touches but does not fill
 * with a 2 MiB page. Tables an earlier mapping already made only lower the real count.
 * Arguments pt_map would reject give 0. Only shifts, so i386 needs no libgcc.
 */
uint64_t pt_pages_needed(uint64_t virt, uint64_t phys, uint64_t size);

/*
 * Map virtual [virt, virt + size) to physical [phys, phys + size) with leaf flags 'flags'
 * (a subset of PT_MAP_FLAGS). A 2 MiB stretch of virt whose start is 2 MiB aligned, whose
 * physical start is 2 MiB aligned too and which lies wholly in the range gets one 2 MiB
 * page (unless a PT is already there, which is filled instead); every other page is 4 KiB.
 * Intermediate entries are PRESENT | WRITABLE, never NX, so the leaf flags alone decide.
 *
 * All or nothing: the whole range is checked and the tables it needs are counted before
 * the first entry is written, so a failed call leaves the tables and the pool as they were.
 *
 * Returns KS_OK, or KS_EINVAL when: size is 0; virt, phys or size is not 4 KiB aligned;
 * virt or virt + size - 1 is not canonical, or the range wraps past 2^64 or crosses the
 * non-canonical hole; phys + size passes PT_PHYS_LIMIT; flags has bits outside
 * PT_MAP_FLAGS; or a page of the range is already mapped to a different physical address
 * or with different flags (mapping the same translation again is allowed and changes
 * nothing). KS_ENOSPC when the pool has fewer free pages than the new tables need;
 * KS_ERANGE if an entry points outside the pool (the tables were corrupted).
 */
int pt_map(struct pt_builder *b, uint64_t virt, uint64_t phys, uint64_t size, uint64_t flags);

/*
 * Software page walk: the physical address virt translates to, through 4 KiB, 2 MiB or
 * 1 GiB pages. Returns KS_OK, KS_ENOENT (some level is not present), KS_EINVAL (virt is not
 * canonical) or KS_ERANGE (an entry points outside the pool).
 */
int pt_translate(const struct pt_builder *b, uint64_t virt, uint64_t *phys);

#endif
