/*
 * Selftest suite "reloc": the kernel checks that every kind of absolute address in it was
 * moved by exactly the slide: pointers in .data and .rodata, immediates in code, jump tables,
 * function pointers. The truth comes from EIP/RIP-relative arithmetic, which relocation never
 * touches, and from the boot info.
 */
#include <stddef.h>
#include <stdint.h>

#include "kernel/memory.h"
#include "kernel/selftest/selftest.h"

extern const uintptr_t probe_abs_rodata[], probe_abs_data[];
extern const uint32_t probe_count;
extern const int32_t probe_pcrel[];
uintptr_t probe_pcrel_runtime(void);
uintptr_t start_runtime(void);
extern char _start[], _kernel_start[];
extern char kernel_link_phys[]; /* absolute: must be left alone by relocation */

/* Targets named by reloc_probes.S */
uint32_t probe_data_word = 0x12345678;
uint32_t probe_bss_word;
const char probe_string[] = "relocated";

static bool probes_match(const uintptr_t *table, const char *what)
{
	uintptr_t pcrel = probe_pcrel_runtime();
	for (uint32_t i = 0; i < probe_count; i++) {
		uintptr_t truth = pcrel + i * sizeof(int32_t) + (uintptr_t)probe_pcrel[i];
		if (table[i] != truth)
			return check_fail(what, table[i], truth);
	}
	return probe_count > 0;
}

static bool rodata_pointers(const struct kslide_bootinfo *bi)
{
	(void)bi;
	return probes_match(probe_abs_rodata, "pointer in .rodata");
}

static bool data_pointers(const struct kslide_bootinfo *bi)
{
	(void)bi;
	return probes_match(probe_abs_data, "pointer in .data");
}

static bool code_immediates(const struct kslide_bootinfo *bi)
{
	(void)bi;
	/* &probe_data_word is an absolute immediate in this function's code. */
	uintptr_t truth = probe_pcrel_runtime() + sizeof(int32_t) + (uintptr_t)probe_pcrel[1];
	if ((uintptr_t)&probe_data_word != truth)
		return check_fail("immediate in code", (uintptr_t)&probe_data_word, truth);
	return probe_data_word == 0x12345678;
}

/* Distinct side effects keep the compiler from turning this into a value table: it must
 * emit a jump table of absolute code addresses. */
static volatile uint32_t jump_sink;

__attribute__((noinline)) static uint32_t dispatch(unsigned k)
{
	switch (k) {
	case 0: jump_sink = 11; break;
	case 1: jump_sink ^= 23; break;
	case 2: jump_sink += 37; break;
	case 3: jump_sink = jump_sink * 3; break;
	case 4: jump_sink -= 5; break;
	case 5: jump_sink = 59; break;
	case 6: jump_sink |= 0x100; break;
	case 7: jump_sink &= 0xff; break;
	case 8: jump_sink = 71; break;
	default: jump_sink = 0; break;
	}
	return jump_sink;
}

static bool jump_table(const struct kslide_bootinfo *bi)
{
	(void)bi;
	jump_sink = 0;
	uint32_t got = 0;
	for (unsigned k = 0; k <= 9; k++)
		got = got * 31 + dispatch(k);
	uint32_t want = 0, v = 0;
	v = 11; want = want * 31 + v;
	v ^= 23; want = want * 31 + v;
	v += 37; want = want * 31 + v;
	v = v * 3; want = want * 31 + v;
	v -= 5; want = want * 31 + v;
	v = 59; want = want * 31 + v;
	v |= 0x100; want = want * 31 + v;
	v &= 0xff; want = want * 31 + v;
	v = 71; want = want * 31 + v;
	v = 0; want = want * 31 + v;
	return got == want ? true : check_fail("switch through jump table", got, want);
}

static int add_one(int x) { return x + 1; }
static int times_two(int x) { return x * 2; }
static int negate(int x) { return -x; }

static int (*const function_table[])(int) = { add_one, times_two, negate };

static bool function_pointers(const struct kslide_bootinfo *bi)
{
	(void)bi;
	int x = 5;
	for (size_t i = 0; i < sizeof(function_table) / sizeof(function_table[0]); i++)
		x = function_table[i](x);
	return x == -12 ? true : check_fail("calls through a function table", (unsigned)x, -12);
}

static bool runs_where_boot_info_says(const struct kslide_bootinfo *bi)
{
	uintptr_t offset = (uintptr_t)(_start - _kernel_start);
	if (start_runtime() != bi->virt_base + offset)
		return check_fail("virtual address of _start", start_runtime(), bi->virt_base + offset);
	if (start_phys_runtime() != bi->phys_base + offset)
		return check_fail("physical address of _start", start_phys_runtime(),
				  bi->phys_base + offset);
	return true;
}

/* A pointer-sized field naming an absolute symbol: relocation must leave it alone. Read
 * through volatile so the compiler cannot fold it into code. */
static const char *volatile link_phys_ref = kernel_link_phys;

static bool absolute_symbols_untouched(const struct kslide_bootinfo *bi)
{
	uintptr_t in_data = (uintptr_t)link_phys_ref;
	if (in_data != bi->link_phys_base)
		return check_fail("absolute symbol kernel_link_phys in data", in_data,
				  bi->link_phys_base);
#ifndef __PIE__
	/* Position-dependent code names it as an immediate too; a PIE can only reach an
	 * absolute symbol through data, RIP-relative addressing would add the slide. */
	if ((uintptr_t)kernel_link_phys != bi->link_phys_base)
		return check_fail("absolute symbol kernel_link_phys", (uintptr_t)kernel_link_phys,
				  bi->link_phys_base);
#endif
	return true;
}

static const struct selftest_case cases[] = {
	{ "pointers in .rodata equal their runtime targets", rodata_pointers },
	{ "pointers in .data equal their runtime targets", data_pointers },
	{ "absolute immediates in code are relocated", code_immediates },
	{ "switch jump tables land on the right case", jump_table },
	{ "calls through a const function table work", function_pointers },
	{ "kernel runs at the base the boot info reports", runs_where_boot_info_says },
	{ "absolute (SHN_ABS) symbols are not relocated", absolute_symbols_untouched },
};

const struct selftest_suite selftest_reloc = SELFTEST_SUITE("reloc", cases);
