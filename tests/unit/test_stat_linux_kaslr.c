/*
 * Unit tests for tools/stat/linux_kaslr.c: Linux's own KASLR as slots, on the figures of
 * Debian 12's 686 and cloud-amd64 kernels (6.1.0-57; kslide-pack -v prints them) under QEMU's
 * Linux loader. The 686 kernel's 28 physical positions are what 150 of its own boots showed
 * before this model existed (docs/results.md).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tools/stat/linux_kaslr.h"

#define MIB 0x100000ull
#define GIB (1024 * MIB)

/* QEMU -m 1G: the RAM of its e820 table, and where its Linux loader puts a small initrd. */
static const struct mem_span qemu_1g[] = {{0, 0x9fc00}, {MIB, 0x3ffe0000}};
static const struct mem_span qemu_1g_initrd = {0x3ffdd000, 0x3ffdfac4};

static struct linux_kaslr debian_686(void)
{
	return (struct linux_kaslr){
		.x86_64 = false,
		.align = 16 * MIB,
		.load_physical = 16 * MIB,
		.init_size = 16875520,
		.payload_length = 5711000,
		.output_len = 15201776 + 1106624,
		.kernel_total_size = 16875520,
		.kernel_map = 0xc0000000u,
		.loaded_at = MIB,
	};
}

static struct linux_kaslr debian_cloud_amd64(void)
{
	return (struct linux_kaslr){
		.x86_64 = true,
		.align = 2 * MIB,
		.load_physical = 16 * MIB,
		.init_size = 53968896,
		.payload_length = 13500000,
		.output_len = 52431728 + 811716,
		.kernel_total_size = 48234496,
		.kernel_map = 0xffffffff80000000ull,
		.loaded_at = MIB,
	};
}

static void needed_size_is_the_larger_and_x86_64_rounds_it_to_2_mib(void **state)
{
	(void)state;
	struct linux_kaslr k = debian_686();
	assert_int_equal(linux_kaslr_needed(&k), 16875520); /* the vmlinux with its bss */
	k.kernel_total_size = 1;
	assert_int_equal(linux_kaslr_needed(&k), 16308400); /* the payload: vmlinux + lists */
	k = debian_cloud_amd64();
	assert_int_equal(linux_kaslr_needed(&k), 26 * 2 * MIB); /* 53,243,444 rounded up */
}

static void output_is_the_load_address_aligned_and_at_least_load_physical_addr(void **state)
{
	(void)state;
	struct linux_kaslr k = debian_cloud_amd64();
	assert_int_equal(linux_kaslr_output(&k), 16 * MIB); /* 2 MiB is below 16 MiB */
	k.loaded_at = 48 * MIB + 1;
	assert_int_equal(linux_kaslr_output(&k), 50 * MIB);
	k = debian_686();
	k.loaded_at = 17 * MIB;
	assert_int_equal(linux_kaslr_output(&k), 32 * MIB);
}

/* 16 MiB steps from 16 MiB to 512 MiB, less the decompressor's run space [16, 32.09) MiB. */
static void i386_gives_the_28_positions_measured(void **state)
{
	(void)state;
	struct linux_kaslr k = debian_686();
	struct slot_set set;
	linux_kaslr_phys_slots(&k, qemu_1g, 2, &qemu_1g_initrd, 1, &set);
	assert_int_equal(set.total, 28);
	assert_int_equal(set.align, 16 * MIB);
	assert_int_equal(layout_index(&set, 48 * MIB), 0);
	assert_int_equal(layout_index(&set, 480 * MIB), 27);
	assert_int_equal(layout_index(&set, 32 * MIB), -1);  /* overlaps the run space */
	assert_int_equal(layout_index(&set, 496 * MIB), -1); /* would end past 512 MiB */
}

/* RAM beyond 512 MiB adds nothing on i386: entries above are ignored, others cut there. */
static void i386_ignores_memory_past_512_mib(void **state)
{
	(void)state;
	struct linux_kaslr k = debian_686();
	struct mem_span big[] = {{MIB, 0xbffe0000}, {4 * GIB, 6 * GIB}};
	struct slot_set set;
	linux_kaslr_phys_slots(&k, big, 2, NULL, 0, &set);
	assert_int_equal(set.total, 28);
}

/* x86-64: 2 MiB steps above 16 MiB + init_size, below the initrd at the top of RAM. */
static void x86_64_physical_slots_under_qemu_1g(void **state)
{
	(void)state;
	struct linux_kaslr k = debian_cloud_amd64();
	struct slot_set set;
	linux_kaslr_phys_slots(&k, qemu_1g, 2, &qemu_1g_initrd, 1, &set);
	/* 16 MiB + 53,968,896 = 67.47 MiB: the first step past it is 68 MiB; the last kernel
	 * ends by 0x3ffdd000: 970 MiB */
	assert_int_equal(set.total, (970 - 68) / 2 + 1);
	assert_int_equal(layout_index(&set, 68 * MIB), 0);
	assert_int_equal(layout_index(&set, 66 * MIB), -1);
	assert_int_equal(layout_index(&set, 970 * MIB), (970 - 68) / 2);
	assert_int_equal(layout_index(&set, 972 * MIB), -1);
}

static void x86_64_counts_memory_above_4_gib(void **state)
{
	(void)state;
	struct linux_kaslr k = debian_cloud_amd64();
	struct mem_span big[] = {{MIB, 0xbffe0000}, {4 * GIB, 6 * GIB}};
	struct slot_set below, both;
	linux_kaslr_phys_slots(&k, big, 1, NULL, 0, &below);
	linux_kaslr_phys_slots(&k, big, 2, NULL, 0, &both);
	assert_int_equal(both.total - below.total, (2 * GIB - 52 * MIB) / (2 * MIB) + 1);
	assert_int_equal(layout_index(&both, 4 * GIB), (int64_t)below.total);
}

/* Linux keeps the part of a region before an avoided range only when it is strictly larger
 * than the kernel (kaslr.c: overlap.start > region.start + image_size). */
static void an_exact_fit_before_the_initrd_is_not_a_slot(void **state)
{
	(void)state;
	struct linux_kaslr k = debian_cloud_amd64();
	uint64_t needed = linux_kaslr_needed(&k);
	struct mem_span ram[] = {{128 * MIB, 512 * MIB}};
	struct mem_span initrd = {128 * MIB + needed, 128 * MIB + needed + 4096};
	struct slot_set set;
	linux_kaslr_phys_slots(&k, ram, 1, &initrd, 1, &set);
	assert_int_equal(layout_index(&set, 128 * MIB), -1);
	initrd.start++;
	initrd.end++;
	linux_kaslr_phys_slots(&k, ram, 1, &initrd, 1, &set);
	assert_int_equal(layout_index(&set, 128 * MIB), 0);
}

/* find_random_virt_addr: (1 GiB - 16 MiB - 52 MiB) / 2 MiB + 1 values of _text. */
static void x86_64_virtual_slots(void **state)
{
	(void)state;
	struct linux_kaslr k = debian_cloud_amd64();
	struct slot_set set;
	linux_kaslr_virt_slots(&k, &set);
	assert_int_equal(set.total, 479);
	assert_int_equal(layout_index(&set, 0xffffffff81000000ull), 0);
	assert_int_equal(layout_index(&set, 0xffffffff81000000ull + 478 * 2 * MIB), 478);
	assert_int_equal(layout_index(&set, 0xffffffff81000000ull + 479 * 2 * MIB), -1);
	k = debian_686();
	linux_kaslr_virt_slots(&k, &set);
	assert_int_equal(set.total, 0); /* i386: the virtual base follows the physical one */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(needed_size_is_the_larger_and_x86_64_rounds_it_to_2_mib),
		cmocka_unit_test(
			output_is_the_load_address_aligned_and_at_least_load_physical_addr),
		cmocka_unit_test(i386_gives_the_28_positions_measured),
		cmocka_unit_test(i386_ignores_memory_past_512_mib),
		cmocka_unit_test(x86_64_physical_slots_under_qemu_1g),
		cmocka_unit_test(x86_64_counts_memory_above_4_gib),
		cmocka_unit_test(an_exact_fit_before_the_initrd_is_not_a_slot),
		cmocka_unit_test(x86_64_virtual_slots),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
