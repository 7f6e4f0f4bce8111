/*
 * Selftest suite "wx": the audit of the kernel's own mappings and the CPU's protections, read
 * from the live tables (kernel/mm/walk.h) and CR0/CR4/EFER, then shown at work by faults the
 * CPU raises itself:
 *
 *   the image     text read-only and executable, rodata read-only, data and bss writable;
 *                 rodata, data and bss NX where the CPU has NX (never on i386: no PAE); its
 *                 alias in the direct map read-only over text and rodata, writable over data
 *                 and bss, never executable (on i386 the alias is the image's own mapping)
 *   x86-64        no supervisor mapping both writable and executable, none executable but the
 *                 image's text and the entry stubs' page; EFER.NXE as CPUID says
 *   CR0, CR4      WP set; SMEP and SMAP exactly when CPUID has them
 *   by the CPU    a ring-0 write to text or rodata faults, through the image's mapping and
 *                 through the direct map; a ring-0 call into .data faults
 *                 with NX (x86-64); a ring-0 call into a user page
 *                 faults with SMEP; a ring-0 load from one faults with SMAP, and passes between
 *                 user_access_begin and user_access_end
 */
#include <stddef.h>

#include "arch/x86/arch_ops.h"
#include "arch/x86/sysregs.h"
#include "arch/x86/x86.h"
#include "kernel/arch.h"
#include "kernel/console.h"
#include "kernel/cpu/trap.h"
#include "kernel/cpu/user_access.h"
#include "kernel/memory.h"
#include "kernel/mm/space.h"
#include "kernel/mm/walk.h"
#include "kernel/secrecy/entry_area.h"
#include "kernel/selftest/selftest.h"
#include "kernel/smp/trampoline.h"
#ifdef __x86_64__
#include "kernel/x86_64/paging.h"
#endif
#include "lib/cpu.h"

#define RET_INSN 0xc3 /* what the user page holds: a call into it returns at once */

/* The CPU has NX and the kernel turned it on (x86-64 only). */
static bool nx_on(void)
{
#ifdef __x86_64__
	return (rdmsr(MSR_EFER) & EFER_NXE) != 0;
#else
	return false;
#endif
}

static bool page_as(uintptr_t va, bool writable, bool executable)
{
	uint64_t r = walk_rights(va, DIRECT_MAP);
	bool w = (r & WALK_WRITABLE) != 0, x = !(r & WALK_NX) || !nx_on();
	if (!(r & WALK_PRESENT) || (r & WALK_USER) || w != writable || x != executable) {
		kprintf("# page 0x%llx: present %d user %d writable %d executable %d\n",
			(unsigned long long)va, (int)(r & WALK_PRESENT), (r & WALK_USER) != 0, w, x);
		return false;
	}
	return true;
}

/* The direct map's address of an image address. */
static uintptr_t alias_of(const struct kslide_bootinfo *bi, uintptr_t va)
{
	return (uintptr_t)phys_to_virt(bi->phys_base + (va - (uintptr_t)_kernel_start));
}

static bool image_parts_mapped_as_their_use(const struct kslide_bootinfo *bi)
{
	const uintptr_t text = (uintptr_t)_kernel_text_end, data = (uintptr_t)_kernel_data_start;
	const bool nx = nx_on();
	for (uintptr_t va = (uintptr_t)_kernel_start; va < (uintptr_t)_kernel_end; va += PAGE_SIZE) {
		bool ok = va < text   ? page_as(va, false, true)
			  : va < data ? page_as(va, false, !nx)
				      : page_as(va, true, !nx);
		if (!ok)
			return check_fail("image page's rights (text RO X, rodata RO, data RW)", va,
					  0);
		/* Its alias: read-only where the image is, and (x86-64) never executable. */
		uintptr_t alias = alias_of(bi, va);
		if (alias != va && !page_as(alias, va >= data, !nx))
			return check_fail("direct-map alias's rights (text and rodata RO)", alias,
					  va);
	}
	return true;
}

#ifdef __x86_64__
struct wx_walk {
	uintptr_t first_bad;  /* the first writable and executable page, or 0 */
	uintptr_t first_code; /* the first executable page that holds no code, or 0 */
	unsigned long leaves;
};

/* Code lives in the image's text and the entry area's stub page, nowhere else. */
static bool holds_code(uintptr_t va, uint64_t span)
{
	uintptr_t stubs = entry_area_base() + ENTRY_PAGE_CODE * PAGE_SIZE;
	return (va >= (uintptr_t)_kernel_start && va + span <= (uintptr_t)_kernel_text_end) ||
	       (va == stubs && span == PAGE_SIZE);
}

/* Depth first through the kernel half, the rights combined as the CPU does (W only when every
 * level has it, X unless one level has NX). */
static void wx_level(struct wx_walk *w, uint64_t table_phys, int shift, uintptr_t va_base,
		     unsigned first, bool writable, bool nx)
{
	const walk_entry_t *entries = phys_to_virt(table_phys);
	for (unsigned i = first; i < WALK_ENTRIES && !w->first_bad; i++) {
		uint64_t e = entries[i];
		if (!(e & WALK_PRESENT))
			continue;
		uintptr_t va = va_base | ((uintptr_t)i << shift);
		if (shift == WALK_TOP_SHIFT && i >= WALK_KERNEL_HALF_FIRST)
			va |= ~(uintptr_t)0 << (WALK_VIRT_BITS - 1);
		bool wr = writable && (e & WALK_WRITABLE), n = nx || (e & WALK_NX);
		if (shift == WALK_PAGE_SHIFT || (shift < WALK_TOP_SHIFT && (e & WALK_LARGE))) {
			w->leaves++;
			if (wr && !n)
				w->first_bad = va;
			else if (!n && !holds_code(va, (uint64_t)1 << shift) && !w->first_code)
				w->first_code = va;
			continue;
		}
		wx_level(w, e & WALK_FRAME_MASK, shift - WALK_INDEX_BITS, va, 0, wr, n);
	}
}

static bool nx_as_cpuid_says(void)
{
	uint32_t r[4];
	cpuid(CPUID_LEAF_EXT_MAX, 0, r);
	bool has = false;
	if (r[0] >= CPUID_LEAF_EXT_INFO) {
		cpuid(CPUID_LEAF_EXT_INFO, 0, r);
		has = (r[3] & CPUID_80000001_EDX_NX) != 0;
	}
	return nx_on() == has || check_fail("EFER.NXE as CPUID says", nx_on(), has);
}

static bool no_kernel_mapping_writable_and_executable(const struct kslide_bootinfo *bi)
{
	(void)bi;
	if (!nx_as_cpuid_says())
		return false;
	if (!nx_on()) {
		kprintf("# no NX on this CPU: every page may be executed, W^X cannot hold\n");
		return true;
	}
	struct wx_walk w = { 0 };
	wx_level(&w, read_cr3() & WALK_FRAME_MASK, WALK_TOP_SHIFT, 0, WALK_KERNEL_HALF_FIRST,
		 true, false);
	if (w.first_bad)
		return check_fail("a kernel page both writable and executable", w.first_bad, 0);
	if (w.first_code)
		return check_fail("an executable kernel page outside text and the entry stubs",
				  w.first_code, 0);
	return w.leaves > 0 || check_fail("kernel pages walked", 0, 1);
}

/* A RET in .data: the CPU, not a PTE read, says whether data may be run. */
static uint8_t ret_in_data[] = { RET_INSN };

static bool ring0_cannot_run_data(const struct kslide_bootinfo *bi)
{
	(void)bi;
	bool ran = try_exec((uintptr_t)ret_in_data);
	return ran != nx_on() || check_fail("ring 0 ran a RET in .data (NX on?)", ran, !nx_on());
}
#endif

static bool protections_as_cpuid_says(const struct kslide_bootinfo *bi)
{
	(void)bi;
	struct cpu_features f;
	cpu_probe(&x86_arch_ops, &f);
	uintptr_t cr4 = read_cr4();
	bool smep = (cr4 & CR4_SMEP) != 0, smap = (cr4 & CR4_SMAP) != 0;
	kprintf("# smep=%s smap=%s\n", smep ? "on" : "off", smap ? "on" : "off");
	if (!(read_cr0() & CR0_WP))
		return check_fail("CR0.WP", 0, 1);
	if (smep != f.smep || smap != f.smap || user_access_smap != f.smap)
		return check_fail("CR4.SMEP, CR4.SMAP, STAC in use: as CPUID says",
				  (unsigned)smep << 2 | (unsigned)smap << 1 | user_access_smap,
				  (unsigned)f.smep << 2 | (unsigned)f.smap << 1 | f.smap);
	return true;
}

/* The value already there goes back: harmless should the write not fault. */
static bool write_faults(uintptr_t va, const char *what)
{
	uint32_t same = *(volatile const uint32_t *)va;
	if (try_write32(va, same))
		return check_fail(what, va, 0);
	return true;
}

static bool kernel_text_and_rodata_writes_fault(const struct kslide_bootinfo *bi)
{
	return write_faults((uintptr_t)_kernel_start, "ring-0 write to text did not fault") &&
	       write_faults((uintptr_t)_kernel_text_end, "ring-0 write to rodata did not fault") &&
	       write_faults(alias_of(bi, (uintptr_t)_kernel_start),
			    "ring-0 write to text's direct-map alias did not fault") &&
	       write_faults(alias_of(bi, (uintptr_t)_kernel_text_end),
			    "ring-0 write to rodata's direct-map alias did not fault");
}

/* A space whose first user page holds a RET, its kernel root live while probe runs. */
static bool with_user_page(bool (*probe)(uintptr_t user_page))
{
	static const uint8_t program[] = { RET_INSN };
	struct arch_space *s = arch_space_create(program, sizeof(program));
	if (!s)
		return check_fail("a space for the probe", 0, 1);
	write_cr3((uintptr_t)space_kernel_root(s));
	uint64_t r = walk_rights(USER_BASE, DIRECT_MAP);
	bool ok = (r & WALK_PRESENT) && (r & WALK_USER) ? probe(USER_BASE)
							 : check_fail("user page U=1", r, WALK_USER);
	write_cr3((uintptr_t)kernel_tables_root());
	arch_space_destroy(s);
	return ok;
}

static bool smep_probe(uintptr_t user_page)
{
	bool smep = (read_cr4() & CR4_SMEP) != 0;
	bool ran = try_exec(user_page);
	return ran != smep || check_fail("ring 0 ran a user page (SMEP on?)", ran, !smep);
}

static bool smap_probe(uintptr_t user_page)
{
	bool smap = (read_cr4() & CR4_SMAP) != 0;
	uint32_t v = 0;
	bool read = try_read32(user_page, &v);
	if (read == smap)
		return check_fail("ring 0 read a user page without STAC (SMAP on?)", read, !smap);
	user_access_begin();
	read = try_read32(user_page, &v);
	user_access_end();
	if (!read || (v & 0xff) != RET_INSN)
		return check_fail("ring 0 read a user page between user_access_begin and end", v,
				  RET_INSN);
	return true;
}

static bool ring0_cannot_run_user_pages(const struct kslide_bootinfo *bi)
{
	(void)bi;
	return with_user_page(smep_probe);
}

static bool ring0_touches_user_pages_only_when_it_means_to(const struct kslide_bootinfo *bi)
{
	(void)bi;
	return with_user_page(smap_probe);
}

static const struct selftest_case cases[] = {
	{ "image: text RO+X, rodata RO, data and bss RW (NX where the CPU has it)",
	  image_parts_mapped_as_their_use },
#ifdef __x86_64__
	{ "no kernel mapping writable and executable, none executable but code; NX as CPUID says",
	  no_kernel_mapping_writable_and_executable },
	{ "a ring-0 call into .data faults where NX is on", ring0_cannot_run_data },
#endif
	{ "CR0.WP set, CR4.SMEP and CR4.SMAP as CPUID says", protections_as_cpuid_says },
	{ "a ring-0 write to text or rodata faults, and to their direct-map alias",
	  kernel_text_and_rodata_writes_fault },
	{ "user page U=1; ring 0 runs it only without SMEP", ring0_cannot_run_user_pages },
	{ "ring 0 reads a user page without STAC only without SMAP",
	  ring0_touches_user_pages_only_when_it_means_to },
};

const struct selftest_suite selftest_wx = SELFTEST_SUITE("wx", cases);
