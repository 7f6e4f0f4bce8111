/*
 * User address spaces, on both arches (kernel/space.h): a fixed set of spaces over one pool of
 * pages in .bss, the program copied into the user window, and ring 3 entered through the trap
 * exit with a frame at the top of the trap stack.
 */
#include <stddef.h>

#include "arch/x86/sysregs.h"
#include "kernel/arch.h"
#include "kernel/cpu_tables.h"
#include "kernel/memory.h"
#include "kernel/space.h"
#include "kernel/trap.h"

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memset(void *dst, int c, size_t n);

#define MAX_SPACES 2
#define POOL_PAGES (MAX_SPACES * (SPACE_TABLE_PAGES + USER_PAGES))

PAGE_POOL(pool, POOL_PAGES);
static struct arch_space spaces[MAX_SPACES];
static struct arch_space *running;

void arch_space_destroy(struct arch_space *s)
{
	space_tables_free(s, &pool);
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
	bool ok = true;
	for (unsigned i = 0; i < USER_PAGES; i++)
		ok &= (s->pages[i] = page_pool_alloc(&pool)) != NULL;
	if (!ok || !space_tables_build(s, &pool)) {
		arch_space_destroy(s);
		return NULL;
	}
	for (size_t done = 0; done < len; done += PAGE_SIZE) {
		size_t n = len - done < PAGE_SIZE ? len - done : PAGE_SIZE;
		memcpy(s->pages[done / PAGE_SIZE], (const uint8_t *)image + done, n);
	}
	return s;
}

int arch_user_run(struct arch_space *s, uintptr_t a0, uintptr_t a1)
{
	/* The frame goes where the CPU would put a trap from ring 3. */
	struct trapframe *tf = (struct trapframe *)(trap_stack_top() - sizeof(struct trapframe));
	memset(tf, 0, sizeof(*tf));
	tf->cs = USER_CS;
	tf->ss = USER_DS;
	tf->flags = FLAGS_RESERVED;
	tf->ip = USER_BASE;
	tf->sp = USER_TOP;
	trapframe_user_args(tf, a0, a1);
	running = s;
	write_cr3((uintptr_t)space_tables_root(s));
	int status = user_enter(tf);
	write_cr3((uintptr_t)kernel_tables_root());
	running = NULL;
	return status;
}

bool arch_user_range(uintptr_t addr, size_t len)
{
	return running && addr >= USER_BASE && addr <= USER_TOP && len <= USER_TOP - addr;
}

bool space_owns_frame(const struct arch_space *s, uint64_t phys)
{
	for (unsigned i = 0; i < USER_PAGES; i++)
		if (kernel_virt_to_phys(s->pages[i]) == phys)
			return true;
	return false;
}
