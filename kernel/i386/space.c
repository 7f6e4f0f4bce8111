/*
 * i386 address spaces for user processes.
 *
 *   0x00000000  unmapped (NULL and below the program)
 *   0x00400000  USER_BASE: program image, then zeroes; the stack ends at USER_TOP  (U, RW)
 *   0xC0000000  the kernel's direct map of lowmem                            (supervisor)
 *   0xFFC00000  the fixmap: read-only alias of the descriptor tables           (supervisor)
 *
 * Each space has its own page directory: the kernel's entries copied without the user bit,
 * and one page table with user pages from a fixed pool in .bss. Pages come back zeroed, so
 * no kernel data (and no kernel address) survives into a process.
 */
#include <stddef.h>

#include "arch/x86/sysregs.h"
#include "kernel/arch.h"
#include "kernel/page_pool.h"
#include "kernel/i386/cpu_tables.h"
#include "kernel/i386/layout.h"
#include "kernel/i386/space.h"
#include "kernel/i386/trap.h"

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memset(void *dst, int c, size_t n);

#define ENTRIES_PER_TABLE (PAGE_SIZE / 4)
#define PDE_INDEX_OF_USER (USER_BASE / PAGE_TABLE_SPAN)
#define PAGES_PER_SPACE (2 + USER_PAGES) /* directory, table, user pages */
#define MAX_SPACES 2
#define POOL_PAGES (MAX_SPACES * PAGES_PER_SPACE)
#define EFLAGS_RESERVED 0x2 /* bit 1 is always set; IF stays clear: no interrupts in ring 3 */

_Static_assert(USER_TOP <= (PDE_INDEX_OF_USER + 1) * PAGE_TABLE_SPAN, "user window > 4 MiB");

struct arch_space {
	bool used;
	uint32_t *dir;
	uint32_t *table;
	uint8_t *pages[USER_PAGES];
};

PAGE_POOL(pool, POOL_PAGES);
static struct arch_space spaces[MAX_SPACES];
static struct arch_space *running;

static uint32_t virt_to_phys(const void *p)
{
	return (uint32_t)(uintptr_t)p - KERNEL_VIRT_OFFSET;
}

void arch_space_destroy(struct arch_space *s)
{
	page_pool_free(&pool, s->dir);
	page_pool_free(&pool, s->table);
	for (unsigned i = 0; i < USER_PAGES; i++)
		page_pool_free(&pool, s->pages[i]);
	*s = (struct arch_space){ 0 };
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
	s->dir = page_pool_alloc(&pool);
	s->table = page_pool_alloc(&pool);
	for (unsigned i = 0; i < USER_PAGES; i++)
		s->pages[i] = page_pool_alloc(&pool);
	for (unsigned i = 0; i < USER_PAGES; i++)
		if (!s->pages[i] || !s->dir || !s->table) {
			arch_space_destroy(s);
			return NULL;
		}
	/* The kernel half as the kernel sees it: supervisor entries only. */
	for (unsigned i = PDE_INDEX_OF_OFFSET; i < ENTRIES_PER_TABLE; i++)
		s->dir[i] = boot_page_dir[i] & ~(uint32_t)PTE_USER;
	s->dir[PDE_INDEX_OF_USER] = virt_to_phys(s->table) | PTE_PRESENT | PTE_WRITABLE | PTE_USER;
	for (unsigned i = 0; i < USER_PAGES; i++)
		s->table[i] = virt_to_phys(s->pages[i]) | PTE_PRESENT | PTE_WRITABLE | PTE_USER;
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
		(struct trapframe *)(uintptr_t)(cpu_tables->tss.esp0 - sizeof(struct trapframe));
	memset(tf, 0, sizeof(*tf));
	tf->cs = USER_CS;
	tf->ds = tf->es = tf->fs = tf->gs = tf->ss = USER_DS;
	tf->eflags = EFLAGS_RESERVED;
	tf->eip = USER_BASE;
	tf->esp = USER_TOP;
	tf->eax = a0;
	tf->ebx = a1;
	running = s;
	write_cr3(virt_to_phys(s->dir));
	int status = user_enter(tf);
	write_cr3(virt_to_phys(boot_page_dir));
	running = NULL;
	return status;
}

bool arch_user_range(uintptr_t addr, size_t len)
{
	return running && addr >= USER_BASE && addr <= USER_TOP && len <= USER_TOP - addr;
}

bool arch_is_kernel_address(uintptr_t addr)
{
	return addr >= KERNEL_VIRT_OFFSET;
}

static bool own_page(const struct arch_space *s, uint32_t phys)
{
	for (unsigned i = 0; i < USER_PAGES; i++)
		if (virt_to_phys(s->pages[i]) == phys)
			return true;
	return false;
}

bool space_user_mappings_ok(const struct arch_space *s)
{
	for (unsigned d = 0; d < ENTRIES_PER_TABLE; d++) {
		uint32_t pde = s->dir[d];
		if (!(pde & PTE_PRESENT) || !(pde & PTE_USER))
			continue;
		uint32_t frame = pde & ~(uint32_t)(PAGE_SIZE - 1);
		if (d != PDE_INDEX_OF_USER || frame != virt_to_phys(s->table))
			return false;
		for (unsigned t = 0; t < ENTRIES_PER_TABLE; t++) {
			uint32_t pte = s->table[t];
			if (!(pte & PTE_PRESENT))
				continue;
			uintptr_t va = (uintptr_t)d * PAGE_TABLE_SPAN + (uintptr_t)t * PAGE_SIZE;
			if (!(pte & PTE_USER) || va < USER_BASE || va >= USER_TOP ||
			    !own_page(s, pte & ~(uint32_t)(PAGE_SIZE - 1)))
				return false;
		}
	}
	return true;
}
