/*
 * Three cases of selftest=leak that look at the kernel as an attacker without the base would
 * (docs/security.md has the threat model):
 *
 * ldt: LAR on LDT selector 4 from ring 3 clears ZF and does not fault (LDTR is null).
 *
 * closure: ring 0 stands in for an arbitrary read. It starts from everything an unprivileged
 * process can know without the base: every page of the entry window, what SIDT, SGDT, SLDT
 * and STR return on the CPU the process runs on (ring 0 sees the same registers ring 3
 * would), the entries of the kernel's half of a running process's ring-3 page tables, and the result of every system call
 * (kernel/user/leak.c shows from ring 3 that no other register changes). It reads every
 * 4-byte-aligned word there (8 bytes wide on x86-64), follows each value that is a mapped
 * kernel address to the page behind it, to a fixed point, and fails on any value in the
 * image's virtual or physical range or equal to a slide, or, where the direct map's base is
 * drawn (x86-64), on any value in the direct map or, read from an aligned word, equal to its
 * offset in its window: the offset is a multiple of 1 GiB, whose low half is zero, so an
 * unaligned read across a zero word and a small one (a selector such as 0x1b after a zero
 * field in the entry area's tables) equals some boot's offset by chance, one boot in
 * thousands, and says nothing of it. Two kinds of value are not followed:
 * addresses in the process's own user window (what is there the process put there or was
 * handed by a system call, which the host checks line by line), and the words of the entry
 * area's code page, which is instead compared with the stubs as installed (assembled without
 * a relocation, the same bytes at every boot: nothing in them can depend on the base).
 *
 * user page-table audit: the ring-3 root of a running process, walked in full: no entry leads
 * to a frame of the image, and nothing maps the image's virtual range or any of the direct
 * map's window (where it is now, and on x86-64 every place it could be drawn, the old fixed
 * one among them).
 */
#include <stddef.h>

#include "arch/x86/sysregs.h"
#include "kernel/arch.h"
#include "kernel/console.h"
#include "kernel/cpu/descriptor.h"
#include "kernel/memory.h"
#include "kernel/mm/space.h"
#include "kernel/mm/walk.h"
#include "kernel/proc/proc.h"
#include "kernel/proc/syscall.h"
#include "kernel/secrecy/entry_area.h"
#include "kernel/selftest/leak_closure.h"
#include "kernel/user/leak.h"
#include "lib/string.h"

/* The design reaches the entry area's three pages (the ring-3 tables above them are walked,
 * not counted): more than this many pages means the closure has grown. */
#define CLOSURE_FRAMES_MAX 32
#define REPORTS_MAX 8 /* failures printed in detail; the rest are counted */
#define WORD_STEP 4   /* every 4-byte-aligned word; read pointer-wide, so unaligned on x86-64 */
#define FRAME_OF(a) ((a) & ~(uint64_t)(PAGE_SIZE - 1))

/* Differences, so that ranges at the top of the address space do not wrap. */
static bool overlaps(uint64_t a, uint64_t a_len, uint64_t b, uint64_t b_len)
{
	return a - b < b_len || b - a < a_len;
}

static bool in_image(const struct kslide_bootinfo *bi, uint64_t v)
{
	return v - bi->virt_base < bi->image_size || v - bi->phys_base < bi->image_size;
}

static bool is_slide(const struct kslide_bootinfo *bi, uint64_t v)
{
	uint64_t virt = kslide_virt_slide(bi), phys = kslide_phys_slide(bi);
	return (virt && v == virt) || (phys && v == phys);
}

/* Where the direct map's place is drawn, it is a secret like the bases: its addresses and its
 * offset in the window (a whole value: a word read aligned, an entry, a result, a register).
 * Where it is fixed (i386), its addresses are public. */
static bool in_direct_map(uint64_t v, bool whole)
{
	if (DIRECT_MAP_SLOTS == 1)
		return false;
	uint64_t offset = DIRECT_MAP - DIRECT_MAP_WINDOW_START;
	return v - DIRECT_MAP < DIRECT_MAP_SPAN || (whole && offset && v == offset);
}

static bool in_user_window(uint64_t v)
{
	return v >= USER_BASE && v <= USER_TOP;
}

struct closure {
	const struct kslide_bootinfo *bi;
	uint64_t frames[CLOSURE_FRAMES_MAX];
	unsigned frame_count;
	unsigned values;
	unsigned bad;
	unsigned results;
	bool root_walked;
	bool overflowed;
};

/* "# closure: 0x... (the word at 0x...) lies in the image or is a slide" */
static void report(unsigned *bad, const char *test, uint64_t value, const char *where,
		   uint64_t at, const char *what)
{
	if ((*bad)++ < REPORTS_MAX)
		kprintf("# %s: 0x%llx (%s 0x%llx) %s\n", test, (unsigned long long)value, where,
			(unsigned long long)at, what);
}

#define IN_IMAGE "lies in the image or is a slide"

static void add_frame(struct closure *c, uint64_t frame)
{
	for (unsigned i = 0; i < c->frame_count; i++)
		if (c->frames[i] == frame)
			return;
	if (c->frame_count == CLOSURE_FRAMES_MAX) {
		c->overflowed = true;
		return;
	}
	c->frames[c->frame_count++] = frame;
}

static void note_value(struct closure *c, uint64_t v, bool whole, const char *where, uint64_t at)
{
	c->values++;
	if (in_user_window(v))
		return;
	if (in_image(c->bi, v) || is_slide(c->bi, v)) {
		report(&c->bad, "closure", v, where, at, IN_IMAGE);
		return;
	}
	if (in_direct_map(v, whole)) {
		report(&c->bad, "closure", v, where, at, "lies in the direct map or is its offset");
		return;
	}
	uintptr_t va = (uintptr_t)v;
	if (va == v && arch_is_kernel_address(va) && walk_rights(va, DIRECT_MAP))
		add_frame(c, FRAME_OF(walk_virt_to_phys(va, DIRECT_MAP)));
}

static void read_frame(struct closure *c, uint64_t frame)
{
	if (frame == entry_area_frame(ENTRY_PAGE_CODE)) {
		if (!entry_area_code_intact())
			report(&c->bad, "closure", frame, "the frame of", entry_area_base(),
			       "holds stubs other than those installed");
		return;
	}
	const uint8_t *page = phys_to_virt(frame);
	for (unsigned off = 0; off < PAGE_SIZE; off += WORD_STEP) {
		uintptr_t word = 0;
		memcpy(&word, page + off, off + sizeof(word) <= PAGE_SIZE ? sizeof(word) : WORD_STEP);
		note_value(c, word, off % sizeof(word) == 0, "the word at physical", frame + off);
	}
}

static void root_entry(void *ctx, uintptr_t va, uint64_t span, uint64_t entry, bool leaf)
{
	struct closure *c = ctx;
	(void)span;
	note_value(c, entry, true, "the ring-3 page-table entry for", va);
	if (leaf)
		add_frame(c, entry & WALK_FRAME_MASK);
}

static void closure_observe(void *ctx, unsigned nr, long result)
{
	struct closure *c = ctx;
	c->results++;
	note_value(c, (uintptr_t)result, true, "the result of system call", nr);
	if (!c->root_walked) {
		c->root_walked = true;
		walk_tree(space_user_root(space_running()), WALK_KERNEL_HALF_FIRST, WALK_ENTRIES,
			  root_entry, c);
		/* The registers of the CPU ring 3 runs on (ring 0 sees what ring 3 would). */
		struct desc_ptr idt, gdt;
		sidt(&idt);
		sgdt(&gdt);
		note_value(c, idt.base, true, "SIDT", 0);
		note_value(c, gdt.base, true, "SGDT", 0);
		note_value(c, sldt(), true, "SLDT", 0);
		note_value(c, str(), true, "STR", 0);
	}
}

/* The leak program's LEAK_REGS run (every system call, registers checked from ring 3), with
 * fn looking at each call as it returns. */
static int run_observed(syscall_observer_fn fn, void *ctx)
{
	syscall_observe(fn, ctx);
	int status = proc_run(&user_program_leak, 0, LEAK_REGS, 0);
	syscall_observe(NULL, NULL);
	kprintf("leak: exit regs status=0x%x\n", (unsigned)status);
	return status;
}

bool leak_closure(const struct kslide_bootinfo *bi)
{
	static struct closure c;
	c = (struct closure){ .bi = bi };
	int status = run_observed(closure_observe, &c);

	for (uintptr_t va = ENTRY_WINDOW_START; va < ENTRY_WINDOW_END; va += PAGE_SIZE)
		if (walk_rights(va, DIRECT_MAP))
			add_frame(&c, walk_virt_to_phys(va, DIRECT_MAP));
	for (unsigned i = 0; i < c.frame_count; i++) /* the list grows as it is read */
		read_frame(&c, c.frames[i]);

	kprintf("# closure: %u pages, %u values (%u system-call results); %u lead to the image\n",
		c.frame_count, c.values, c.results, c.bad);
	if (c.overflowed)
		kprintf("# closure: more than %u pages reached\n", CLOSURE_FRAMES_MAX);
	return status == 0 && c.root_walked && c.bad == 0 && !c.overflowed;
}

struct audit {
	const struct kslide_bootinfo *bi;
	bool walked;
	bool root_is_live;
	unsigned entries;
	unsigned bad;
};

static void audit_entry(void *ctx, uintptr_t va, uint64_t span, uint64_t entry, bool leaf)
{
	struct audit *a = ctx;
	const struct kslide_bootinfo *bi = a->bi;
	uint64_t frame = entry & WALK_FRAME_MASK;
	a->entries++;
	if (overlaps(frame, leaf ? span : PAGE_SIZE, bi->phys_base, bi->image_size))
		report(&a->bad, "audit", entry, "the entry for", va, "leads to a frame of the image");
	if (leaf && overlaps(va, span, bi->virt_base, bi->image_size))
		report(&a->bad, "audit", entry, "the entry for", va, "maps the image");
	if (leaf && overlaps(va, span, DIRECT_MAP_WINDOW_START,
			     DIRECT_MAP_WINDOW_END - DIRECT_MAP_WINDOW_START))
		report(&a->bad, "audit", entry, "the entry for", va, "maps the direct map's window");
}

static void audit_observe(void *ctx, unsigned nr, long result)
{
	struct audit *a = ctx;
	(void)nr, (void)result;
	if (a->walked)
		return;
	a->walked = true;
	const struct arch_space *s = space_running();
	/* The root walked is the one the exit stub loads: the kernel root CR3 holds now, plus
	 * the bit the stubs flip when isolation is on. */
	uint64_t live = read_cr3() & WALK_FRAME_MASK;
	a->root_is_live = live == space_kernel_root(s) &&
			  space_user_root(s) == live + (entry_area_pti() ? PTI_USER_ROOT_BIT : 0);
	walk_tree(space_user_root(s), 0, WALK_ENTRIES, audit_entry, a);
}

bool leak_user_table_audit(const struct kslide_bootinfo *bi)
{
	static struct audit a;
	a = (struct audit){ .bi = bi };
	int status = run_observed(audit_observe, &a);
	kprintf("# audit: %u entries of a running process's ring-3 tables, %u wrong\n",
		a.entries, a.bad);
	if (!a.root_is_live)
		kprintf("# audit: the root walked is not the one ring 3 runs on\n");
	return status == 0 && a.walked && a.root_is_live && a.bad == 0;
}

bool leak_ldt_lar(const struct kslide_bootinfo *bi)
{
	(void)bi;
	int status = proc_run(&user_program_leak, 0, LEAK_LDT, 0);
	kprintf("leak: exit ldt status=0x%x\n", (unsigned)status);
	return status == 0;
}
