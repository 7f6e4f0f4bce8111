/*
 * x86-64 address spaces for user processes.
 *
 *   0x0000000000400000  USER_BASE: program image, then zeroes; the stack ends at USER_TOP (U, RW)
 *   ... rest of the lower half                                                   unmapped
 *   0xffff800000000000  the kernel's half: direct map, image, FIXED_AREA       (supervisor)
 *
 * Each space has its own PML4: the kernel's upper-half entries (256..511) copied without the
 * user bit, and one chain PDPT -> PD -> PT for the user window, with user pages from a fixed
 * pool in .bss. Pages come back zeroed, so no kernel data (and no kernel address) survives
 * into a process. The copy happens at creation; the kernel adds no upper-half PML4 entry
 * after arch_cpu_init, so it stays complete.
 */
#include <stddef.h>

#include "arch/x86/sysregs.h"
#include "kernel/arch.h"
#include "kernel/page_pool.h"
#include "kernel/memory.h"
#include "kernel/x86_64/cpu_tables.h"
#include "kernel/x86_64/paging.h"
#include "kernel/x86_64/space.h"
#include "kernel/x86_64/trap.h"

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memset(void *dst, int c, size_t n);

#define KERNEL_HALF_FIRST (PT_ENTRIES / 2) /* PML4 entry of 0xffff800000000000 */
#define PAGES_PER_SPACE (4 + USER_PAGES)   /* PML4, PDPT, PD, PT, user pages */
#define MAX_SPACES 2
#define POOL_PAGES (MAX_SPACES * PAGES_PER_SPACE)
#define RFLAGS_RESERVED 0x2 /* bit 1 is always set; IF stays clear: no interrupts in ring 3 */
#define TABLE_FLAGS (PTE_PRESENT | PTE_WRITABLE | PTE_USER)

#define INDEX(va, shift) (((uint64_t)(va) >> (shift)) & PT_INDEX_MASK)
_Static_assert(USER_BASE >> PT_SHIFT_PD == (USER_TOP - 1) >> PT_SHIFT_PD,
	       "the user window fits one page table");

struct arch_space {
	bool used;
	uint64_t *pml4, *pdpt, *pd, *pt;
	uint8_t *pages[USER_PAGES];
};

PAGE_POOL(pool, POOL_PAGES);
static struct arch_space spaces[MAX_SPACES];
static struct arch_space *running;

void arch_space_destroy(struct arch_space *s)
{
	page_pool_free(&pool, s->pml4);
	page_pool_free(&pool, s->pdpt);
	page_pool_free(&pool, s->pd);
	page_pool_free(&pool, s->pt);
	for (unsigned i = 0; i < USER_PAGES; i++)
		page_pool_free(&pool, s->pages[i]);
	*s = (struct arch_space){ 0 };
}

static uint64_t entry(const void *table_or_page)
{
	return kernel_virt_to_phys(table_or_page) | TABLE_FLAGS;
}

struct arch_space *arch_space_create(const void *image, size_t len)
{
	struct arch_space *s = NULL;
	for (unsigned i = 0; i < MAX_SPACES && !s; i++)
		if (!spaces[i].used)
			s = &spaces[i];
	if (!s || len > (USER_PAGES - 1) * PAGE_SIZE) /* keep at least a page of stack */
		return NULL;
	s->used = true;
	s->pml4 = page_pool_alloc(&pool);
	s->pdpt = page_pool_alloc(&pool);
	s->pd = page_pool_alloc(&pool);
	s->pt = page_pool_alloc(&pool);
	bool ok = s->pml4 && s->pdpt && s->pd && s->pt;
	for (unsigned i = 0; i < USER_PAGES; i++)
		ok &= (s->pages[i] = page_pool_alloc(&pool)) != NULL;
	if (!ok) {
		arch_space_destroy(s);
		return NULL;
	}
	/* The kernel half as the kernel sees it: supervisor entries only. */
	const uint64_t *kernel_pml4 = phys_to_virt(paging_kernel_space()->pml4_phys);
	for (unsigned i = KERNEL_HALF_FIRST; i < PT_ENTRIES; i++)
		s->pml4[i] = kernel_pml4[i] & ~PTE_USER;
	s->pml4[INDEX(USER_BASE, PT_SHIFT_PML4)] = entry(s->pdpt);
	s->pdpt[INDEX(USER_BASE, PT_SHIFT_PDPT)] = entry(s->pd);
	s->pd[INDEX(USER_BASE, PT_SHIFT_PD)] = entry(s->pt);
	for (unsigned i = 0; i < USER_PAGES; i++)
		s->pt[INDEX(USER_BASE, PT_SHIFT_PT) + i] = entry(s->pages[i]);
	for (size_t done = 0; done < len; done += PAGE_SIZE) {
		size_t n = len - done < PAGE_SIZE ? len - done : PAGE_SIZE;
		memcpy(s->pages[done / PAGE_SIZE], (const uint8_t *)image + done, n);
	}
	return s;
}

uintptr_t arch_user_base(void)
{
	return USER_BASE;
}

int arch_user_run(struct arch_space *s, uintptr_t a0, uintptr_t a1)
{
	/* The frame goes where the CPU would put a trap from ring 3: the top of the trap stack,
	 * which the TSS names. */
	struct trapframe *tf =
		(struct trapframe *)(uintptr_t)(cpu_tables->tss.rsp[0] - sizeof(struct trapframe));
	memset(tf, 0, sizeof(*tf));
	tf->cs = USER_CS;
	tf->ss = USER_DS;
	tf->rflags = RFLAGS_RESERVED;
	tf->rip = USER_BASE;
	tf->rsp = USER_TOP;
	tf->rdi = a0;
	tf->rsi = a1;
	running = s;
	write_cr3(kernel_virt_to_phys(s->pml4));
	int status = user_enter(tf);
	write_cr3(paging_kernel_space()->pml4_phys);
	running = NULL;
	return status;
}

bool arch_user_range(uintptr_t addr, size_t len)
{
	return running && addr >= USER_BASE && addr <= USER_TOP && len <= USER_TOP - addr;
}

bool arch_is_kernel_address(uintptr_t addr)
{
	return addr >= DIRECT_MAP; /* the upper half */
}

static bool own_page(const struct arch_space *s, uint64_t phys)
{
	for (unsigned i = 0; i < USER_PAGES; i++)
		if (kernel_virt_to_phys(s->pages[i]) == phys)
			return true;
	return false;
}

/* Follows user-accessible entries only: the CPU lets ring 3 through an entry only when every
 * level above it has the user bit too. Large pages are never user pages here. */
static bool user_entries_ok(const struct arch_space *s, uint64_t table_phys, int shift,
			    uint64_t va_base)
{
	const uint64_t *table = phys_to_virt(table_phys);
	for (unsigned i = 0; i < PT_ENTRIES; i++) {
		uint64_t e = table[i];
		if (!(e & PTE_PRESENT) || !(e & PTE_USER))
			continue;
		uint64_t va = va_base | ((uint64_t)i << shift);
		if (shift == PT_SHIFT_PML4 && i >= KERNEL_HALF_FIRST)
			return false; /* a user entry in the kernel's half */
		if (shift == PT_SHIFT_PT) {
			if (va < USER_BASE || va >= USER_TOP || !own_page(s, e & PT_ADDR_MASK))
				return false;
			continue;
		}
		if ((e & PTE_PS) || !user_entries_ok(s, e & PT_ADDR_MASK, shift - 9, va))
			return false;
	}
	return true;
}

bool space_user_mappings_ok(const struct arch_space *s)
{
	return user_entries_ok(s, kernel_virt_to_phys(s->pml4), PT_SHIFT_PML4, 0);
}
