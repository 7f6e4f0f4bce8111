/*
 * User address spaces, on both arches (kernel/mm/space.h): a fixed set of spaces over pools of
 * pages outside the image, the program copied into the user window, and ring 3 entered
 * through the trap exit with a frame at the top of the kernel stack.
 */
#include <stddef.h>

#include "arch/x86/sysregs.h"
#include "kernel/arch.h"
#include "kernel/cpu/cpu_tables.h"
#include "kernel/cpu/trap.h"
#include "kernel/memory.h"
#include "kernel/mm/space.h"
#include "kernel/secrecy/entry_area.h"
#include "kernel/secrecy/oops.h"
#include "lib/string.h"

#define MAX_SPACES 2
#define ROOT_PAGES 2 /* kernel root, ring-3 root */
#define POOL_PAGES (MAX_SPACES * (SPACE_TABLE_PAGES + USER_PAGES))

_Static_assert(ROOT_PAGES * PAGE_SIZE == 2 * PTI_USER_ROOT_BIT, "the roots are a page apart");

PAGE_POOL(roots, MAX_SPACES);
PAGE_POOL(pool, POOL_PAGES);
static struct arch_space spaces[MAX_SPACES];
static struct arch_space *running;

void space_init(void)
{
	if (!page_pool_init(&roots, ROOT_PAGES) || !page_pool_init(&pool, 1))
		panic("no memory outside the image for user spaces");
}

void arch_space_destroy(struct arch_space *s)
{
	space_tables_free(s, &pool);
	page_pool_free(&roots, s->roots);
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
	bool ok = (s->roots = page_pool_alloc(&roots)) != NULL;
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

uint64_t space_kernel_root(const struct arch_space *s)
{
	return direct_virt_to_phys(s->roots);
}

uint64_t space_user_root(const struct arch_space *s)
{
	return space_kernel_root(s) + (entry_area_pti() ? PTI_USER_ROOT_BIT : 0);
}

const struct arch_space *space_running(void)
{
	return running;
}

int arch_user_run(struct arch_space *s, uintptr_t a0, uintptr_t a1)
{
	/* The frame goes where kernel_entry moves a trap from ring 3 on this CPU. */
	struct trapframe *tf = (struct trapframe *)(trap_stack_top() - sizeof(struct trapframe));
	memset(tf, 0, sizeof(*tf));
	tf->cs = USER_CS;
	tf->ss = USER_DS;
	tf->flags = FLAGS_RESERVED;
	tf->ip = USER_BASE;
	tf->sp = USER_TOP;
	trapframe_user_args(tf, a0, a1);
	running = s;
	write_cr3((uintptr_t)space_kernel_root(s));
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
		if (direct_virt_to_phys(s->pages[i]) == phys)
			return true;
	return false;
}
