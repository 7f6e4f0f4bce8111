/* Unit tests for tools/stat/lines.c: the serial lines kslide-stat reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tools/stat/lines.h"

static void i386_line_gives_both_bases_and_the_same_slots_for_virtual(void **state)
{
	(void)state;
	struct base_line b;
	assert_int_equal(
		line_parse_base("kslide: base=0xe8c00000 phys=0x28c00000 slots=440 "
				"align=0x200000 entropy=rdrand,rdtsc,pit,rtc credited=76\r\n",
				&b),
		0);
	assert_true(b.virt == 0xe8c00000u);
	assert_true(b.phys == 0x28c00000u);
	assert_int_equal(b.slots, 440);
	assert_int_equal(b.align, 0x200000);
	assert_false(b.has_vslots);
	assert_int_equal(b.vslots, 440);
	assert_int_equal(b.valign, 0x200000);
	assert_string_equal(b.entropy, "rdrand,rdtsc,pit,rtc");
	assert_int_equal(b.credited, 76);
}

static void x86_64_line_without_valign_takes_align(void **state)
{
	(void)state;
	struct base_line b;
	assert_int_equal(line_parse_base("kslide: base=0xffffffffc4a00000 phys=0x6600000 slots=504 "
					 "vslots=1016 align=0x200000 entropy=rdtsc credited=8",
					 &b),
			 0);
	assert_true(b.virt == 0xffffffffc4a00000ull);
	assert_true(b.has_vslots);
	assert_int_equal(b.vslots, 1016);
	assert_int_equal(b.valign, 0x200000);
}

static void x86_64_line_with_valign(void **state)
{
	(void)state;
	struct base_line b;
	assert_int_equal(line_parse_base("kslide: base=0xffff880000001000 phys=0x1000000 slots=2 "
					 "vslots=9 align=0x200000 valign=0x1000 entropy=none "
					 "credited=0",
					 &b),
			 0);
	assert_int_equal(b.valign, 0x1000);
	assert_int_equal(b.credited, 0);
}

/* "slots=" must not be found inside "vslots=", nor "base=" inside another word. */
static void keys_match_whole_words_only(void **state)
{
	(void)state;
	struct base_line b;
	assert_int_equal(line_parse_base("kslide: base=0x1000 phys=0x1000 vslots=7 align=0x1000 "
					 "entropy=rtc credited=0",
					 &b),
			 -1);
	assert_int_equal(line_parse_base("kslide: base=0x1000 xphys=0x1000 slots=7 align=0x1000 "
					 "entropy=rtc credited=0",
					 &b),
			 -1);
}

static void other_and_malformed_lines_are_refused(void **state)
{
	(void)state;
	struct base_line b;
	assert_int_equal(line_parse_base("kernel: running at virt=0xc1000000", &b), -1);
	assert_int_equal(line_parse_base("kslide: nokaslr: kernel stays at 0x100000", &b), -1);
	assert_int_equal(line_parse_base("kslide: base=0xzz phys=0x1 slots=1 align=0x1000 "
					 "entropy=rtc credited=0",
					 &b),
			 -1);
	assert_int_equal(line_parse_base("kslide: base=0x1 phys=0x1 slots=-1 align=0x1000 "
					 "entropy=rtc credited=0",
					 &b),
			 -1);
	assert_int_equal(line_parse_base("kslide: base=0x1 phys=0x1 slots=1 align=0x1000 "
					 "credited=0",
					 &b),
			 -1);
}

static void usable_map_is_a_list_of_half_open_ranges(void **state)
{
	(void)state;
	struct mem_span s[4];
	size_t n;
	assert_int_equal(
		line_parse_usable("kernel: usable=0x0-0x9fc00,0x100000-0x3ffe0000\r\n", s, 4, &n),
		0);
	assert_int_equal(n, 2);
	assert_int_equal(s[0].start, 0);
	assert_int_equal(s[0].end, 0x9fc00);
	assert_int_equal(s[1].start, 0x100000);
	assert_int_equal(s[1].end, 0x3ffe0000);
	assert_int_equal(line_parse_usable("kernel: usable=\n", s, 4, &n), 0);
	assert_int_equal(n, 0);
}

static void usable_map_refuses_garbage_reversed_ranges_and_overflow(void **state)
{
	(void)state;
	struct mem_span s[1];
	size_t n;
	assert_int_equal(line_parse_usable("kernel: usable=0x10-0x5", s, 1, &n), -1);
	assert_int_equal(line_parse_usable("kernel: usable=0x0-0x10;0x20-0x30", s, 1, &n), -1);
	assert_int_equal(line_parse_usable("kernel: usable=0x0-0x10,0x20-0x30", s, 1, &n), -1);
	assert_int_equal(line_parse_usable("kernel: usable=0x0", s, 1, &n), -1);
}

static void random_line_gives_its_hex_digits(void **state)
{
	(void)state;
	const char *hex;
	size_t len;
	assert_int_equal(line_parse_random("kslide: random=00ff7a\r\n", &hex, &len), 0);
	assert_int_equal(len, 6);
	assert_memory_equal(hex, "00ff7a", 6);
	assert_int_equal(line_parse_random("kslide: random=0f0\n", &hex, &len), -1);
	assert_int_equal(line_parse_random("kslide: random=0g\n", &hex, &len), -1);
	assert_int_equal(line_parse_random("kslide: random=\n", &hex, &len), -1);
}

/* tests/linux/init.c's report: kallsyms pads _text to the word, iomem to 8 digits. */
static void linux_report_gives_text_and_the_kernel_code_range(void **state)
{
	(void)state;
	struct linux_report r;
	assert_int_equal(line_parse_linux("kslide-linux: _text=0xffffffff87a00000 "
					  "kernel_code=0x3c000000-0x3ce01ef1\r\n",
					  &r),
			 0);
	assert_true(r.text == 0xffffffff87a00000ull);
	assert_int_equal(r.code_first, 0x3c000000);
	assert_int_equal(r.code_last, 0x3ce01ef1);
	assert_int_equal(line_parse_linux("kslide-linux: _text=0xc3000000 "
					  "kernel_code=0x03000000-0x03a4ffff",
					  &r),
			 0);
	assert_int_equal(r.code_first, 0x3000000);
}

static void linux_report_refuses_errors_and_partial_lines(void **state)
{
	(void)state;
	struct linux_report r;
	assert_int_equal(line_parse_linux("kslide-linux: error: no _text in /proc/kallsyms", &r),
			 -1);
	assert_int_equal(line_parse_linux("kslide-linux: _text=0xc3000000", &r), -1);
	assert_int_equal(
		line_parse_linux("kslide-linux: _text=0xc3000000 kernel_code=0x3000000", &r), -1);
	assert_int_equal(line_parse_linux("kslide-linux: _text=0xc3000000 "
					  "kernel_code=0x3000000-0x2ffffff",
					  &r),
			 -1);
	assert_int_equal(line_parse_linux("kslide-linux: _text=0xc3000000 "
					  "kernel_code=0x3000000-0x3fffffff+",
					  &r),
			 -1);
}

/* init's map from /sys/firmware/memmap reads like the reference kernel's. */
static void linux_usable_map_and_initrd(void **state)
{
	(void)state;
	struct mem_span s[4], initrd;
	size_t n;
	assert_int_equal(line_parse_usable("kslide-linux: usable=0x0-0x9fc00,0x100000-0x3ffe0000\n",
					   s, 4, &n),
			 0);
	assert_int_equal(n, 2);
	assert_int_equal(s[1].end, 0x3ffe0000);
	assert_int_equal(
		line_parse_initrd("kslide-linux: initrd=0x3ffdd000-0x3ffdfac4\r\n", &initrd), 0);
	assert_int_equal(initrd.start, 0x3ffdd000);
	assert_int_equal(initrd.end, 0x3ffdfac4);
	assert_int_equal(line_parse_initrd("kslide-linux: initrd=0x3ffdd000", &initrd), -1);
	assert_int_equal(line_parse_initrd("kslide-linux: initrd=0x2-0x1", &initrd), -1);
	assert_int_equal(line_parse_initrd("kslide-linux: initrd=0x1-0x2 junk", &initrd), -1);
	assert_int_equal(line_parse_usable("kslide-linux: usable=0x1-0x2;", s, 4, &n), -1);
}

static void efi_map_line_gives_the_kind_and_the_range(void **state)
{
	(void)state;
	struct efi_mem m;
	assert_int_equal(line_parse_efi_mem("kslide-linux: efi: mem06: [Conventional|   |  |  |  |  |"
					    "  |  |  |  |  |   |WB|WT|WC|UC] range=[0x0000000001500000-"
					    "0x0000000030ffffff] (763MB)\r\n",
					    &m),
			 0);
	assert_int_equal(m.index, 6);
	assert_int_equal(m.kind, EFI_MEM_CONVENTIONAL);
	assert_int_equal(m.span.start, 0x1500000);
	assert_int_equal(m.span.end, 0x31000000); /* the range is inclusive */
	assert_int_equal(line_parse_efi_mem("kslide-linux: efi: mem07: [Loader Code |   |WB] "
					    "range=[0x31000000-0x343fffff] (52MB)",
					    &m),
			 0);
	assert_int_equal(m.kind, EFI_MEM_LOADER_CODE);
	assert_int_equal(line_parse_efi_mem("kslide-linux: efi: mem13: [Loader Data |   |WB] "
					    "range=[0x3de7f000-0x3de8ffff] (0MB)",
					    &m),
			 0);
	assert_int_equal(m.kind, EFI_MEM_LOADER_DATA);
	assert_int_equal(line_parse_efi_mem("kslide-linux: efi: mem120: [Boot Data   |   |WB] "
					    "range=[0x3e800000-0x3e9fffff] (2MB)",
					    &m),
			 0);
	assert_int_equal(m.index, 120);
	assert_int_equal(m.kind, EFI_MEM_OTHER);
	/* a type that only begins like one that counts is another */
	assert_int_equal(line_parse_efi_mem("kslide-linux: efi: mem1: [Conventional2|WB] "
					    "range=[0x0-0xfff] (0MB)",
					    &m),
			 0);
	assert_int_equal(m.kind, EFI_MEM_OTHER);
	/* other efi: lines and broken ranges are refused */
	assert_int_equal(line_parse_efi_mem("kslide-linux: efi: memattr: [Conventional] "
					    "range=[0x0-0xfff]",
					    &m),
			 -1);
	assert_int_equal(line_parse_efi_mem("kslide-linux: efi: mem1: [Conventional|WB] "
					    "range=[0x2000-0xfff]",
					    &m),
			 -1);
	assert_int_equal(line_parse_efi_mem("kslide-linux: efi: mem1: [Conventional|WB] "
					    "range=[0x0-0xfff",
					    &m),
			 -1);
	assert_int_equal(line_parse_efi_mem("efi: mem1: [Conventional|WB] range=[0x0-0xfff]", &m),
			 -1);
}

static void loader_line_gives_where_the_image_lies(void **state)
{
	(void)state;
	uint64_t at = 0;
	assert_int_equal(line_parse_image("kslide: loader=\"GRUB 2.06-13+deb12u2\" map=mmap "
					  "entries=6 image=0x2345000\r\n",
					  &at),
			 0);
	assert_int_equal(at, 0x2345000);
	/* a loader may call itself anything: the last word counts */
	assert_int_equal(line_parse_image("kslide: loader=\"x image=0x1\" map=none entries=0 "
					  "image=0x100000",
					  &at),
			 0);
	assert_int_equal(at, 0x100000);
	/* a stub older than image= says nothing; other lines and bad numbers are refused */
	assert_int_equal(line_parse_image("kslide: loader=\"GRUB\" map=efi entries=24", &at), -1);
	assert_int_equal(line_parse_image("kslide: base=0x1 image=0x2", &at), -1);
	assert_int_equal(line_parse_image("kslide: loader=\"\" map=none entries=0 image=", &at),
			 -1);
	assert_int_equal(line_parse_image("kslide: loader=\"\" map=none entries=0 image=0x1z", &at),
			 -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(i386_line_gives_both_bases_and_the_same_slots_for_virtual),
		cmocka_unit_test(x86_64_line_without_valign_takes_align),
		cmocka_unit_test(x86_64_line_with_valign),
		cmocka_unit_test(keys_match_whole_words_only),
		cmocka_unit_test(other_and_malformed_lines_are_refused),
		cmocka_unit_test(usable_map_is_a_list_of_half_open_ranges),
		cmocka_unit_test(usable_map_refuses_garbage_reversed_ranges_and_overflow),
		cmocka_unit_test(random_line_gives_its_hex_digits),
		cmocka_unit_test(linux_report_gives_text_and_the_kernel_code_range),
		cmocka_unit_test(linux_report_refuses_errors_and_partial_lines),
		cmocka_unit_test(linux_usable_map_and_initrd),
		cmocka_unit_test(loader_line_gives_where_the_image_lies),
		cmocka_unit_test(efi_map_line_gives_the_kind_and_the_range),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
