/*
 * x86-64 4-level page tables: a two-pass builder (check and count, then write) over the
 * caller's page pool, and a software walk. Only shifts and masks, so i386 needs no libgcc.
 */
#include "lib/pagetable.h"
#include "lib/errors.h"

#include <stdbool.h>

/*
 * Levels are numbered by the table they index: 4 = PML4, 3 = PDPT, 2 = PD, 1 = PT. An entry
 * of a level-L table spans 1 << level_shift[L] bytes of virtual addresses.
 */
enum { LEVEL_PT = 1, LEVEL_PD = 2, LEVEL_PDPT = 3, LEVEL_PML4 = 4 };

static const unsigned int level_shift[] = {
	[LEVEL_PT] = PT_SHIFT_PT,
	[LEVEL_PD] = PT_SHIFT_PD,
	[LEVEL_PDPT] = PT_SHIFT_PDPT,
	[LEVEL_PML4] = PT_SHIFT_PML4,
};

/* Leaf attributes compared when a page is mapped a second time (PRESENT is always set). */
#define LEAF_ATTRS (PT_MAP_FLAGS & ~PTE_PRESENT)
/* What a table-pointing entry carries: the leaf decides writability and NX. */
#define TABLE_FLAGS (PTE_PRESENT | PTE_WRITABLE)

static bool is_canonical(uint64_t virt)
{
	uint64_t sign = virt >> (PT_VIRT_BITS - 1); /* bits 63..47 */

	return sign == 0 || sign == (UINT64_MAX >> (PT_VIRT_BITS - 1));
}

static bool aligned_4k(uint64_t v)
{
	return (v & (PT_SIZE_4K - 1)) == 0;
}

/*
 * The checks pt_map and pt_pages_needed share: a non-empty, 4 KiB-aligned range inside one
 * canonical half (so it neither wraps past 2^64 nor crosses the hole), and a physical range
 * below PT_PHYS_LIMIT.
 */
static bool range_ok(uint64_t virt, uint64_t phys, uint64_t size)
{
	if (size == 0 || !aligned_4k(virt) || !aligned_4k(phys) || !aligned_4k(size))
		return false;
	if (size - 1 > UINT64_MAX - virt)
		return false;
	uint64_t last = virt + (size - 1);
	if (!is_canonical(virt) || !is_canonical(last) || (virt >> 63) != (last >> 63))
		return false;
	return phys < PT_PHYS_LIMIT && size <= PT_PHYS_LIMIT - phys;
}

/* How many aligned 2^shift-byte regions [virt, virt + size) touches; size >= 1. */
static uint64_t regions_touched(uint64_t virt, uint64_t size, unsigned int shift)
{
	uint64_t last = virt + (size - 1);

	return (last >> shift) - (virt >> shift) + 1;
}

/*
 * PTs the range needs in an empty tree: every 2 MiB region it touches when virt and phys
 * disagree modulo 2 MiB; otherwise only a partly covered first and last region.
 */
static uint64_t pts_needed(uint64_t virt, uint64_t phys, uint64_t size)
{
	uint64_t n = regions_touched(virt, size, PT_SHIFT_PD);

	if (((virt ^ phys) & (PT_SIZE_2M - 1)) != 0)
		return n;
	bool head = (virt & (PT_SIZE_2M - 1)) != 0;
	bool tail = ((virt + size) & (PT_SIZE_2M - 1)) != 0; /* end may wrap to 0: aligned */
	if (n == 1)
		return head || tail;
	return (uint64_t)head + tail;
}

/* Tables of levels 'level' down to 1 that the range needs below a missing entry. */
static uint64_t tables_needed(unsigned int level, uint64_t virt, uint64_t phys, uint64_t size)
{
	uint64_t n = pts_needed(virt, phys, size);

	if (level >= LEVEL_PD)
		n += regions_touched(virt, size, PT_SHIFT_PDPT);
	if (level >= LEVEL_PDPT)
		n += regions_touched(virt, size, PT_SHIFT_PML4);
	return n;
}

uint64_t pt_pages_needed(uint64_t virt, uint64_t phys, uint64_t size)
{
	if (!range_ok(virt, phys, size))
		return 0;
	return tables_needed(LEVEL_PDPT, virt, phys, size);
}

/* The pool page at physical address 'phys', or NULL if it is not an allocated page. */
static uint64_t *pool_page(const struct pt_pool *pool, uint64_t phys)
{
	if (phys < pool->phys_of_first)
		return NULL;
	uint64_t index = (phys - pool->phys_of_first) >> PT_SHIFT_PT;
	if (index >= pool->used)
		return NULL;
	return pool->pages[index];
}

/* Hand out the next page, zeroed, and its physical address; NULL when the pool is empty. */
static uint64_t *pool_alloc(struct pt_pool *pool, uint64_t *phys)
{
	if (pool->used >= pool->count)
		return NULL;
	uint64_t *page = pool->pages[pool->used];
	for (unsigned int i = 0; i < PT_ENTRIES; i++)
		page[i] = 0;
	*phys = pool->phys_of_first + ((uint64_t)pool->used << PT_SHIFT_PT);
	pool->used++;
	return page;
}

int pt_init(struct pt_builder *b, uint64_t (*pages)[PT_ENTRIES], size_t count,
	    uint64_t phys_of_first)
{
	if (pages == NULL || !aligned_4k(phys_of_first) || phys_of_first >= PT_PHYS_LIMIT ||
	    count > ((PT_PHYS_LIMIT - phys_of_first) >> PT_SHIFT_PT))
		return KS_EINVAL;
	b->pool = (struct pt_pool){ pages, count, 0, phys_of_first };
	if (pool_alloc(&b->pool, &b->pml4_phys) == NULL)
		return KS_ENOSPC;
	return KS_OK;
}

/* Physical address bits of a leaf at 'level' (a 2 MiB page's frame starts at bit 21). */
static uint64_t leaf_frame(uint64_t entry, unsigned int level)
{
	return entry & PT_ADDR_MASK & ~((((uint64_t)1) << level_shift[level]) - 1);
}

/* One call's state: pass 1 only checks and counts new tables, pass 2 writes. */
struct map_pass {
	struct pt_pool *pool;
	uint64_t flags; /* leaf attributes, within LEAF_ATTRS */
	bool write;
	uint64_t new_tables; /* counted by pass 1 */
};

/*
 * Map [virt, virt + size) -> phys through 'table', a level-'level' table whose span holds
 * the whole range. Pass 1 stops at missing entries (nothing below them can conflict) and
 * adds the tables they will need; pass 2 creates them and descends.
 *
 *   entry state          leaf wanted here            smaller pages wanted here
 *   not present          write the leaf              new table, descend
 *   points to a table    descend (fill the PT)       descend
 *   leaf (4K, 2M, 1G)    must give the same translation and attributes, else KS_EINVAL
 */
static int map_range(struct map_pass *p, uint64_t *table, unsigned int level, uint64_t virt,
		     uint64_t phys, uint64_t size)
{
	unsigned int shift = level_shift[level];
	uint64_t span = (uint64_t)1 << shift;

	while (size > 0) {
		uint64_t offset = virt & (span - 1);
		uint64_t chunk = span - offset < size ? span - offset : size;
		uint64_t *entry = &table[(virt >> shift) & PT_INDEX_MASK];
		bool leaf = level == LEVEL_PT ||
			    (level == LEVEL_PD && offset == 0 && chunk == span &&
			     (phys & (span - 1)) == 0);
		int rc = KS_OK;

		if (!(*entry & PTE_PRESENT)) {
			if (leaf) {
				if (p->write)
					*entry = phys | p->flags | PTE_PRESENT |
						 (level == LEVEL_PT ? 0 : PTE_PS);
			} else if (!p->write) {
				p->new_tables += tables_needed(level - 1, virt, phys, chunk);
			} else {
				uint64_t next_phys;
				uint64_t *next = pool_alloc(p->pool, &next_phys);
				if (next == NULL)
					return KS_ENOSPC; /* pass 1 counted, so never */
				*entry = next_phys | TABLE_FLAGS;
				rc = map_range(p, next, level - 1, virt, phys, chunk);
			}
		} else if (level > LEVEL_PT && !(*entry & PTE_PS)) {
			uint64_t *next = pool_page(p->pool, *entry & PT_ADDR_MASK);
			if (next == NULL)
				return KS_ERANGE;
			rc = map_range(p, next, level - 1, virt, phys, chunk);
		} else if (leaf_frame(*entry, level) + offset != phys ||
			   (*entry & LEAF_ATTRS) != p->flags) {
			return KS_EINVAL;
		}
		if (rc != KS_OK)
			return rc;
		virt += chunk;
		phys += chunk;
		size -= chunk;
	}
	return KS_OK;
}

int pt_map(struct pt_builder *b, uint64_t virt, uint64_t phys, uint64_t size, uint64_t flags)
{
	if (!range_ok(virt, phys, size) || (flags & ~PT_MAP_FLAGS) != 0)
		return KS_EINVAL;
	uint64_t *pml4 = pool_page(&b->pool, b->pml4_phys);
	if (pml4 == NULL)
		return KS_ERANGE;

	struct map_pass pass = { &b->pool, flags & LEAF_ATTRS, false, 0 };
	int rc = map_range(&pass, pml4, LEVEL_PML4, virt, phys, size);
	if (rc != KS_OK)
		return rc;
	if (pass.new_tables > b->pool.count - b->pool.used)
		return KS_ENOSPC;
	pass.write = true;
	return map_range(&pass, pml4, LEVEL_PML4, virt, phys, size);
}

int pt_translate(const struct pt_builder *b, uint64_t virt, uint64_t *phys)
{
	if (!is_canonical(virt))
		return KS_EINVAL;
	const uint64_t *table = pool_page(&b->pool, b->pml4_phys);

	for (unsigned int level = LEVEL_PML4;; level--) {
		if (table == NULL)
			return KS_ERANGE;
		unsigned int shift = level_shift[level];
		uint64_t entry = table[(virt >> shift) & PT_INDEX_MASK];
		if (!(entry & PTE_PRESENT))
			return KS_ENOENT;
		/* PS is reserved in a PML4E; a PDPTE or PDE with it is a 1 GiB or 2 MiB page. */
		if (level == LEVEL_PT || (level != LEVEL_PML4 && (entry & PTE_PS))) {
			*phys = leaf_frame(entry, level) | (virt & (((uint64_t)1 << shift) - 1));
			return KS_OK;
		}
		table = pool_page(&b->pool, entry & PT_ADDR_MASK);
	}
}
