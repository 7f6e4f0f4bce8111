/*
 * Unit tests for tools/stat/linux_efi_kaslr.c: Linux's EFI-stub KASLR as slots, on Debian 12's
 * cloud-amd64 kernel (6.1.0-57; kslide-pack -v prints its figures) and the EFI memory map it
 * logged (efi=debug) after OVMF and systemd-boot started it at -m 1G, -M q35: its kernel at
 * 0x31000000 (52 MiB of EfiLoaderCode), the initrd at 0x3de7f000.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tools/stat/linux_efi_kaslr.h"

#define MIB 0x100000ull

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
		.text_to_end = 0x2830000, /* _end: .brk's end, before the 4 MiB .init.scratch */
	};
}

#define C EFI_MEM_CONVENTIONAL
#define LC EFI_MEM_LOADER_CODE
#define LD EFI_MEM_LOADER_DATA
#define O EFI_MEM_OTHER

/* The start of the map of ExitBootServices, as Linux logged it (the rest is firmware's). */
static const struct efi_mem ovmf_1g[] = {
	{0, C, {0x0, 0xa0000}},
	{1, C, {0x100000, 0x806000}},
	{2, O, {0x806000, 0x808000}},
	{3, C, {0x808000, 0x810000}},
	{4, O, {0x810000, 0x900000}},
	{5, O, {0x900000, 0x1500000}},
	{6, C, {0x1500000, 0x31000000}},
	{7, LC, {0x31000000, 0x34400000}}, /* the kernel's own allocation */
	{8, C, {0x34400000, 0x3bb75000}},
	{9, O, {0x3bb75000, 0x3bb95000}},
	{10, C, {0x3bb95000, 0x3c33a000}},
	{11, LC, {0x3c33a000, 0x3d107000}}, /* the bzImage, loaded by the firmware */
	{12, C, {0x3d107000, 0x3de7f000}},
	{13, LD, {0x3de7f000, 0x3de90000}}, /* the initrd */
	{14, LC, {0x3de90000, 0x3deb9000}}, /* systemd-boot */
	{15, C, {0x3deb9000, 0x3debb000}},
	{16, LD, {0x3debb000, 0x3debe000}},
};
static const struct mem_span initrd = {0x3de7f000, 0x3de8f13c};

static size_t free_spans(uint64_t kernel, struct mem_span *out, size_t cap)
{
	return linux_efi_free_at_draw(ovmf_1g, sizeof(ovmf_1g) / sizeof(ovmf_1g[0]), kernel,
				      &initrd, 1, out, cap);
}

static void the_kernel_and_the_initrd_were_free_at_the_draw(void **state)
{
	(void)state;
	struct mem_span s[16];
	size_t n = free_spans(0x31000000, s, 16);
	assert_int_equal(n, 7);
	/* the kernel's place joins its neighbours: one region from 21 MiB to the firmware's data */
	assert_int_equal(s[3].start, 0x1500000);
	assert_int_equal(s[3].end, 0x3bb75000);
	/* the initrd's pages join the conventional memory below them; systemd-boot does not */
	assert_int_equal(s[5].start, 0x3d107000);
	assert_int_equal(s[5].end, 0x3de90000);
	assert_int_equal(s[6].start, 0x3deb9000);
	/* a Loader Code descriptor that does not start at the kernel's base stays taken */
	n = free_spans(0x3c33a000, s, 16);
	assert_int_equal(n, 7);
	assert_int_equal(s[3].end, 0x31000000);
	assert_int_equal(s[5].start, 0x3bb95000);
	assert_int_equal(s[5].end, 0x3de90000); /* as if the firmware's bzImage were the kernel */
	/* without an initrd its Loader Data stays taken */
	n = linux_efi_free_at_draw(ovmf_1g, 17, 0x31000000, &initrd, 0, s, 16);
	assert_int_equal(n, 7);
	assert_int_equal(s[5].end, 0x3de7f000);
	/* more spans than room: the first ones kept, in address order */
	n = free_spans(0x31000000, s, 2);
	assert_int_equal(n, 2);
	assert_int_equal(s[0].start, 0);
	assert_int_equal(s[1].start, 0x100000);
}

static void physical_slots_are_every_2_mib_step_of_one_free_region_from_16_mib(void **state)
{
	(void)state;
	struct linux_kaslr k = debian_cloud_amd64();
	struct mem_span s[16];
	struct slot_set set;
	linux_efi_phys_slots(&k, s, free_spans(0x31000000, s, 16), &set);
	/* 52 MiB from 22 MiB (21 MiB rounded up) to 0x3bb75000 - 52 MiB rounded down: the
	 * 441 kslide-stat --uefi --linux counts at -m 1G (docs/results.md) */
	assert_int_equal(set.total, 441);
	assert_int_equal(set.spans, 1);
	assert_int_equal(set.first[0], 0x1600000);
	assert_int_equal(set.first[0] + (set.count[0] - 1) * 2 * MIB, 0x38600000);
	/* the region ending exactly where a kernel fits still holds that last slot */
	struct mem_span exact = {16 * MIB, 16 * MIB + 52 * MIB};
	linux_efi_phys_slots(&k, &exact, 1, &set);
	assert_int_equal(set.total, 1);
	exact.end--;
	linux_efi_phys_slots(&k, &exact, 1, &set);
	assert_int_equal(set.total, 0);
	/* nothing below LOAD_PHYSICAL_ADDR: a region from 0 starts at 16 MiB */
	struct mem_span low = {0, 16 * MIB + 54 * MIB};
	linux_efi_phys_slots(&k, &low, 1, &set);
	assert_int_equal(set.total, 2);
	assert_int_equal(set.first[0], 16 * MIB);
}

static void physical_slots_stop_below_64_tib(void **state)
{
	(void)state;
	struct linux_kaslr k = debian_cloud_amd64();
	struct slot_set set;
	struct mem_span high = {(64ull << 40) - 54 * MIB, (64ull << 40) + 100 * MIB};
	linux_efi_phys_slots(&k, &high, 1, &set);
	assert_int_equal(set.total, 2); /* 54 MiB below the limit: two places for 52 MiB */
}

static void virtual_slots_size_the_kernel_by_its_total_size(void **state)
{
	(void)state;
	struct linux_kaslr k = debian_cloud_amd64();
	struct slot_set set;
	linux_efi_virt_slots(&k, &set);
	/* range = 1 GiB - 16 MiB - (_end - _text): 483.9 steps, so 484 values, the last partial;
	 * 50 boots of it drew up to 0xffffffffbd600000, the last (docs/results.md) */
	assert_int_equal(set.total, 484);
	assert_int_equal(set.first[0], 0xffffffff81000000ull);
	assert_int_equal(layout_index(&set, 0xffffffffbd600000ull), 483);
	/* without .brk's end, the segments' span (.init.scratch included) */
	k.text_to_end = 0;
	linux_efi_virt_slots(&k, &set);
	assert_int_equal(set.total, 481);
	/* a range of whole steps gives no partial one */
	k.kernel_total_size = 48 * MIB;
	linux_efi_virt_slots(&k, &set);
	assert_int_equal(set.total, 480);
	k.kernel_total_size = 48 * MIB - 1;
	linux_efi_virt_slots(&k, &set);
	assert_int_equal(set.total, 481);
	k.x86_64 = false;
	linux_efi_virt_slots(&k, &set);
	assert_int_equal(set.total, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_kernel_and_the_initrd_were_free_at_the_draw),
		cmocka_unit_test(physical_slots_are_every_2_mib_step_of_one_free_region_from_16_mib),
		cmocka_unit_test(physical_slots_stop_below_64_tib),
		cmocka_unit_test(virtual_slots_size_the_kernel_by_its_total_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
