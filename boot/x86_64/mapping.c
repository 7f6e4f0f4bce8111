/*
 * x86-64: the entry code identity-maps the first 4 GiB with tables of its own, enough to run
 * the stub. Before the copy we build the tables the kernel is entered with, in memory lent by
 * the policy, and switch to them:
 *
 *   physical [0, 4 GiB)              -> itself   (the stub, boot info, loader data)
 *   the kernel's physical range      -> itself   (the copy; may lie above 4 GiB)
 *   [virt, virt + size)              -> [phys, phys + size)
 *
 * 2 MiB pages wherever both bases are 2 MiB aligned, 4 KiB pages elsewhere (lib/pagetable).
 */
#include "boot/mapping.h"
#include "lib/errors.h"
#include "lib/pagetable.h"

#define IDENTITY_END 0x100000000ull

static uint64_t round_down(uint64_t x, uint64_t a)
{
	return x & ~(a - 1);
}

static uint64_t round_up(uint64_t x, uint64_t a)
{
	return round_down(x + a - 1, a);
}

/* The part of the kernel's physical range the first 4 GiB do not cover, in 2 MiB pages. */
static void high_identity(const struct kernel_mapping *h, uint64_t *start, uint64_t *end)
{
	*start = round_down(h->phys, PT_SIZE_2M);
	*end = round_up(h->phys + h->size, PT_SIZE_2M);
	if (*start < IDENTITY_END)
		*start = IDENTITY_END;
	if (*end < *start)
		*end = *start;
}

static void load_cr3(uint64_t pml4)
{
	__asm__ volatile("mov %0, %%cr3" : : "r"(pml4) : "memory");
}

int mapping_prepare(struct kernel_mapping *h, memory_lender lend)
{
	uint64_t high_start, high_end, size = round_up(h->size, PT_SIZE_4K);
	high_identity(h, &high_start, &high_end);
	uint64_t pages = PT_ROOT_PAGES + pt_pages_needed(0, 0, IDENTITY_END) +
			 pt_pages_needed(h->virt, h->phys, size);
	if (high_end > high_start)
		pages += pt_pages_needed(high_start, high_start, high_end - high_start);

	uint64_t pool;
	int rc = lend(pages * PT_SIZE_4K, &pool);
	if (rc != KS_OK)
		return rc;
	struct pt_builder b;
	rc = pt_init(&b, (uint64_t(*)[PT_ENTRIES])(uintptr_t)pool, pages, pool);
	if (rc == KS_OK)
		rc = pt_map(&b, 0, 0, IDENTITY_END, PTE_WRITABLE);
	if (rc == KS_OK && high_end > high_start)
		rc = pt_map(&b, high_start, high_start, high_end - high_start, PTE_WRITABLE);
	if (rc == KS_OK)
		rc = pt_map(&b, h->virt, h->phys, size, PTE_WRITABLE);
	if (rc != KS_OK)
		return rc;
	h->tables_start = pool;
	h->tables_end = pool + pages * PT_SIZE_4K;
	load_cr3(b.pml4_phys);
	return KS_OK;
}

uint64_t mapping_address(const struct kernel_mapping *m, uint64_t offset)
{
	return m->virt + offset;
}
