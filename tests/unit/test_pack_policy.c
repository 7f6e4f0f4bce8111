/*
 * Unit tests for tools/pack/policy.c, kslide-pack's packing policy: which handoff a kernel
 * gets, the windows it defaults to (kslide's, Linux's for a bzImage), what a Multiboot
 * kernel's own header changes, and which options are refused, and as whose fault.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "include/kslide/image.h"
#include "tools/pack/policy.h"
#include "tools/pack/single_slide.h"

#define ERR_CAP 512
#define MIB	0x100000ull
#define GIB	0x40000000ull

/* A kernel as read, its one executable segment holding every byte. */
struct fixture {
	struct kernel_segment segment;
	struct kernel_elf k;
	struct kernel_note note;
	struct multiboot_requests mb;
	struct linux_image li;
	struct pack_options opt;
	struct pack_choices ch;
	char warnings[4][ERR_CAP];
	int warning_count;
	struct pack_log log;
	char err[ERR_CAP];
};

static void collect(void *ctx, const char *text)
{
	struct fixture *f = ctx;
	if (f->warning_count < 4)
		snprintf(f->warnings[f->warning_count], ERR_CAP, "%s", text);
	f->warning_count++;
}

static void kernel(struct fixture *f, unsigned arch, uint64_t link_phys, uint64_t link_virt,
		   uint64_t size)
{
	memset(f, 0, sizeof(*f));
	f->segment = (struct kernel_segment){
		.file_size = size, .mem_size = size, .vaddr = link_virt, .executable = true};
	f->k = (struct kernel_elf){.arch = arch,
				   .file_size = size,
				   .mem_size = size,
				   .link_phys = link_phys,
				   .link_virt = link_virt,
				   .segments = &f->segment,
				   .segment_count = 1};
	f->opt = (struct pack_options){.align = DEFAULT_ALIGN, .min = DEFAULT_MIN};
	f->log = (struct pack_log){collect, f};
}

/* Debian's cloud-amd64 kernel, as its setup header says. */
static void bzimage_x86_64(struct fixture *f, uint16_t xloadflags)
{
	kernel(f, KSLIDE_ARCH_X86_64, 16 * MIB, 0xffffffff81000000ull, 30 * MIB);
	f->li.header.pref_address = 16 * MIB;
	f->li.header.min_alignment_log2 = 21;
	f->li.header.kernel_alignment = 2 * MIB;
	f->li.header.xloadflags = xloadflags;
}

static void test_a_bzimage_gets_linux_handoff_and_linux_windows(void **state)
{
	(void)state;
	struct fixture f;
	bzimage_x86_64(&f, XLF_KERNEL_64 | XLF_CAN_BE_LOADED_ABOVE_4G);
	const char *why = pack_choose_handoff(&f.opt, &f.ch, &f.note, &f.mb, true, &f.log);
	pack_apply_defaults(&f.opt, &f.k, &f.li, &f.note, &f.ch);
	assert_int_equal(f.opt.handoff, KSLIDE_HANDOFF_LINUX);
	assert_string_equal(why, "a Linux bzImage");
	assert_int_equal(f.opt.align, 2 * MIB); /* min_alignment */
	assert_int_equal(f.opt.min, 16 * MIB);	/* pref_address */
	assert_int_equal(f.opt.max, DEFAULT_MAX_X86_64);
	/* __START_KERNEL_map + pref_address, up to KERNEL_IMAGE_SIZE (1 GiB). */
	assert_int_equal(f.opt.virt_min, 0xffffffff81000000ull);
	assert_int_equal(f.opt.virt_last, 0xffffffffbfffffffull);
	assert_int_equal(pack_check_options(&f.opt, &f.k, &f.li, &f.note, f.err, ERR_CAP),
			 PACK_OPTIONS_OK);
	assert_int_equal(pack_check_linux_handoff(&f.opt, true, f.err, ERR_CAP), 0);
}

static void test_a_bzimage_that_cannot_go_above_4g_stays_below(void **state)
{
	(void)state;
	struct fixture f;
	bzimage_x86_64(&f, XLF_KERNEL_64);
	pack_apply_defaults(&f.opt, &f.k, &f.li, &f.note, &f.ch);
	assert_int_equal(f.opt.max, 4 * GIB);
	f.ch.given.max = true; /* --max given: the user's word stands */
	f.opt.max = 8 * GIB;
	pack_apply_defaults(&f.opt, &f.k, &f.li, &f.note, &f.ch);
	assert_int_equal(f.opt.max, 8 * GIB);
}

static void test_an_i386_bzimage_ends_inside_512m(void **state)
{
	(void)state;
	struct fixture f;
	kernel(&f, KSLIDE_ARCH_I386, 16 * MIB, 0xc1000000ull, 20 * MIB);
	f.li.header.kernel_alignment = 16 * MIB; /* no min_alignment: kernel_alignment */
	pack_apply_defaults(&f.opt, &f.k, &f.li, &f.note, &f.ch);
	assert_int_equal(f.opt.max, 512 * MIB);
	assert_int_equal(f.opt.align, 16 * MIB);
}

static void test_a_plain_kernel_gets_kslides_windows(void **state)
{
	(void)state;
	struct fixture f;
	kernel(&f, KSLIDE_ARCH_X86_64, 16 * MIB, 0xffffffff81000000ull, 4 * MIB);
	const char *why = pack_choose_handoff(&f.opt, &f.ch, &f.note, &f.mb, false, &f.log);
	pack_apply_defaults(&f.opt, &f.k, NULL, &f.note, &f.ch);
	assert_int_equal(f.opt.handoff, KSLIDE_HANDOFF_KSLIDE);
	assert_string_equal(why, "the kernel has no Multiboot header");
	assert_int_equal(f.opt.max, DEFAULT_MAX_X86_64);
	assert_int_equal(f.opt.virt_min, 0xffffffff80000000ull);
	assert_int_equal(f.opt.virt_last, 0xfffffffffeffffffull);
	f.k.pie = true;
	pack_apply_defaults(&f.opt, &f.k, NULL, &f.note, &f.ch);
	assert_int_equal(f.opt.virt_min, 0xffff880000000000ull);
	assert_int_equal(f.opt.virt_last, 0xffffff7fffffffffull);
	assert_int_equal(f.warning_count, 0);
}

static void test_the_note_chooses_the_handoff_and_handoff_overrides_it_with_a_warning(void **state)
{
	(void)state;
	struct fixture f;
	kernel(&f, KSLIDE_ARCH_I386, 16 * MIB, 16 * MIB, 4 * MIB);
	f.note = (struct kernel_note){.present = true, .handoff = KSLIDE_HANDOFF_KSLIDE};
	f.mb.mb1 = true; /* a Multiboot header too: the note wins */
	pack_choose_handoff(&f.opt, &f.ch, &f.note, &f.mb, false, &f.log);
	assert_int_equal(f.opt.handoff, KSLIDE_HANDOFF_KSLIDE);
	assert_int_equal(f.warning_count, 0);
	f.ch.handoff_given = true;
	f.opt.handoff = KSLIDE_HANDOFF_MULTIBOOT;
	pack_choose_handoff(&f.opt, &f.ch, &f.note, &f.mb, false, &f.log);
	assert_int_equal(f.opt.handoff, KSLIDE_HANDOFF_MULTIBOOT);
	assert_int_equal(f.warning_count, 1);
	assert_string_equal(f.warnings[0], "the kernel's kslide note asks for --handoff kslide; "
					   "--handoff multiboot overrides it");
}

static void test_a_multiboot_header_without_a_note_means_the_pass_through(void **state)
{
	(void)state;
	struct fixture f;
	kernel(&f, KSLIDE_ARCH_I386, 16 * MIB, 16 * MIB, 4 * MIB);
	f.mb.mb2 = true;
	pack_choose_handoff(&f.opt, &f.ch, &f.note, &f.mb, false, &f.log);
	assert_int_equal(f.opt.handoff, KSLIDE_HANDOFF_MULTIBOOT);
	assert_int_equal(pack_check_linux_handoff(&f.opt, false, f.err, ERR_CAP), 0);
	assert_int_not_equal(pack_check_linux_handoff(&f.opt, true, f.err, ERR_CAP), 0);
	assert_non_null(strstr(f.err, "not --handoff multiboot"));
}

static void test_a_relocatable_tag_narrows_the_window_and_names_what_it_overrides(void **state)
{
	(void)state;
	struct fixture f;
	kernel(&f, KSLIDE_ARCH_I386, 16 * MIB, 16 * MIB, 4 * MIB);
	f.mb = (struct multiboot_requests){.mb2 = true,
					   .bounded = true,
					   .min_addr = 64 * MIB,
					   .max_end = 256 * MIB,
					   .align = 4 * MIB};
	pack_apply_defaults(&f.opt, &f.k, NULL, &f.note, &f.ch);
	f.ch.given.min = true; /* --min 16M given, and narrowed: said */
	assert_int_equal(
		pack_prepare_multiboot("k.elf", &f.k, &f.mb, &f.opt, &f.ch, &f.log, f.err, ERR_CAP),
		0);
	assert_int_equal(f.opt.min, 64 * MIB);
	assert_int_equal(f.opt.max, 256 * MIB);
	assert_int_equal(f.opt.align, 4 * MIB);
	assert_ptr_equal(f.opt.multiboot, &f.mb);
	assert_int_equal(f.warning_count, 1);
	assert_string_equal(f.warnings[0], "k.elf: --min 0x1000000 overridden by the kernel's "
					   "Multiboot2 relocatable tag: 0x4000000");
}

static void test_a_multiboot_entry_must_be_code_inside_the_kernel(void **state)
{
	(void)state;
	struct fixture f;
	kernel(&f, KSLIDE_ARCH_I386, 16 * MIB, 16 * MIB, 4 * MIB);
	f.segment.file_size = 1 * MIB; /* code in the first MiB; the rest is bss */
	f.mb = (struct multiboot_requests){
		.mb2 = true, .entry_given = true, .entry_addr = 16 * MIB + 0x40};
	assert_int_equal(
		pack_prepare_multiboot("k", &f.k, &f.mb, &f.opt, &f.ch, &f.log, f.err, ERR_CAP), 0);
	assert_int_equal(f.k.entry_offset, 0x40);
	f.mb.entry_addr = 20 * MIB; /* just past the kernel */
	assert_int_not_equal(
		pack_prepare_multiboot("k", &f.k, &f.mb, &f.opt, &f.ch, &f.log, f.err, ERR_CAP), 0);
	assert_non_null(strstr(f.err, "lies outside the kernel"));
	f.mb.entry_addr = 18 * MIB; /* inside, in the bss */
	assert_int_not_equal(
		pack_prepare_multiboot("k", &f.k, &f.mb, &f.opt, &f.ch, &f.log, f.err, ERR_CAP), 0);
	assert_non_null(strstr(f.err, "an entry point must be code"));
}

/* The usual x86-64 Multiboot kernel: one delta for both bases, run by the i386 stub. */
static void test_an_x86_64_multiboot_kernel_moves_by_a_single_slide(void **state)
{
	(void)state;
	struct fixture f;
	kernel(&f, KSLIDE_ARCH_X86_64, 2 * MIB, 2 * MIB, 4 * MIB);
	f.k.fixups_follow_virt = true;
	f.mb.mb2 = true;
	pack_apply_defaults(&f.opt, &f.k, NULL, &f.note, &f.ch);
	assert_int_equal(
		pack_prepare_multiboot("k", &f.k, &f.mb, &f.opt, &f.ch, &f.log, f.err, ERR_CAP), 0);
	assert_true(f.k.single_slide);
	assert_false(f.k.fixups_follow_virt);
	assert_int_equal(kernel_elf_stub_arch(&f.k), KSLIDE_ARCH_I386);
	assert_int_equal(f.opt.max, SINGLE_SLIDE_MAX_X86_64); /* what such kernels map */
	/* --max narrows it, and is never widened. */
	kernel(&f, KSLIDE_ARCH_X86_64, 2 * MIB, 2 * MIB, 4 * MIB);
	f.mb.mb1 = true;
	f.ch.given.max = true;
	f.opt.max = 64 * MIB;
	assert_int_equal(
		pack_prepare_multiboot("k", &f.k, &f.mb, &f.opt, &f.ch, &f.log, f.err, ERR_CAP), 0);
	assert_int_equal(f.opt.max, 64 * MIB);
}

static void test_a_single_slide_keeps_the_segments_alignment(void **state)
{
	(void)state;
	struct fixture f;
	kernel(&f, KSLIDE_ARCH_X86_64, 2 * MIB, 2 * MIB, 4 * MIB);
	f.mb.mb2 = true;
	f.k.max_segment_align = 4 * MIB;
	assert_int_equal(
		pack_prepare_multiboot("k", &f.k, &f.mb, &f.opt, &f.ch, &f.log, f.err, ERR_CAP), 0);
	assert_int_equal(f.opt.align, 4 * MIB);
	f.opt.align = 2 * MIB;
	f.ch.given.align = true;
	assert_int_not_equal(
		pack_prepare_multiboot("k", &f.k, &f.mb, &f.opt, &f.ch, &f.log, f.err, ERR_CAP), 0);
	assert_string_equal(f.err, "--align 0x200000 is below its segments' alignment (p_align "
				   "0x400000), which a move must keep");
}

static void test_an_x86_64_kernel_without_a_multiboot_entry_is_refused_the_pass_through(
	void **state)
{
	(void)state;
	struct fixture f;
	kernel(&f, KSLIDE_ARCH_X86_64, 16 * MIB, 0xffffffff81000000ull, 4 * MIB);
	assert_int_not_equal(
		pack_prepare_multiboot("k", &f.k, &f.mb, &f.opt, &f.ch, &f.log, f.err, ERR_CAP), 0);
	assert_non_null(strstr(f.err, "an entry in long mode takes --handoff kslide"));
}

static void test_segments_of_different_offsets_need_a_single_slide(void **state)
{
	(void)state;
	struct fixture f;
	kernel(&f, KSLIDE_ARCH_X86_64, 2 * MIB, 2 * MIB, 4 * MIB);
	snprintf(f.k.offsets_differ, sizeof(f.k.offsets_differ), "segments 0 and 1 differ");
	assert_int_not_equal(single_slide_check_offsets(&f.k, f.err, ERR_CAP), 0);
	assert_non_null(strstr(f.err, "segments 0 and 1 differ; they may differ only when"));
	assert_non_null(strstr(f.err, "loaded low with AT()"));
	f.mb.mb2 = true;
	assert_int_equal(
		pack_prepare_multiboot("k", &f.k, &f.mb, &f.opt, &f.ch, &f.log, f.err, ERR_CAP), 0);
	assert_int_equal(single_slide_check_offsets(&f.k, f.err, ERR_CAP), 0);
}

static void test_options_are_refused_as_options_or_as_the_kernels(void **state)
{
	(void)state;
	struct fixture f;
	kernel(&f, KSLIDE_ARCH_I386, 16 * MIB, 16 * MIB, 4 * MIB);
	pack_apply_defaults(&f.opt, &f.k, NULL, &f.note, &f.ch);
	assert_int_equal(pack_check_options(&f.opt, &f.k, NULL, &f.note, f.err, ERR_CAP),
			 PACK_OPTIONS_OK);
	f.opt.align = 3 * MIB;
	assert_int_equal(pack_check_options(&f.opt, &f.k, NULL, &f.note, f.err, ERR_CAP),
			 PACK_BAD_OPTION);
	assert_string_equal(f.err, "--align must be a power of two of at least 4K");
	f.opt.align = 2 * MIB;
	f.opt.max = f.opt.min + 2 * MIB; /* the 4 MiB kernel cannot fit */
	assert_int_equal(pack_check_options(&f.opt, &f.k, NULL, &f.note, f.err, ERR_CAP),
			 PACK_BAD_FOR_KERNEL);
	assert_string_equal(f.err, "kernel (4194304 bytes) does not fit between --min and --max");
	f.opt.max = 8 * GIB;
	assert_int_equal(pack_check_options(&f.opt, &f.k, NULL, &f.note, f.err, ERR_CAP),
			 PACK_BAD_OPTION);
	assert_string_equal(f.err, "--max is beyond the 4 GiB an i386 kernel can address");
}

static void test_virtual_options_on_i386_are_warned_of(void **state)
{
	(void)state;
	struct fixture f;
	kernel(&f, KSLIDE_ARCH_I386, 16 * MIB, 16 * MIB, 4 * MIB);
	f.ch.given.virt_align = f.ch.given.range = true;
	pack_warn_unused_options("k", &f.k, &f.ch, &f.log);
	assert_int_equal(f.warning_count, 1);
	assert_string_equal(f.warnings[0], "k: --virt-align and --virt-range ignored: an i386 "
					   "kernel's virtual base follows its physical one");
}

static void test_handoff_names_come_from_the_one_list(void **state)
{
	(void)state;
	uint32_t id = 0;
	assert_string_equal(pack_handoff_names(), "kslide, multiboot, linux");
	assert_int_equal(pack_handoff_parse("linux", &id), 0);
	assert_int_equal(id, KSLIDE_HANDOFF_LINUX);
	assert_int_equal(pack_handoff_parse("linus", &id), -1);
	assert_string_equal(pack_handoff_name(KSLIDE_HANDOFF_MULTIBOOT),
			    KSLIDE_HANDOFF_MULTIBOOT_NAME);
	assert_null(pack_handoff_at(3));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_bzimage_gets_linux_handoff_and_linux_windows),
		cmocka_unit_test(test_a_bzimage_that_cannot_go_above_4g_stays_below),
		cmocka_unit_test(test_an_i386_bzimage_ends_inside_512m),
		cmocka_unit_test(test_a_plain_kernel_gets_kslides_windows),
		cmocka_unit_test(
			test_the_note_chooses_the_handoff_and_handoff_overrides_it_with_a_warning),
		cmocka_unit_test(test_a_multiboot_header_without_a_note_means_the_pass_through),
		cmocka_unit_test(
			test_a_relocatable_tag_narrows_the_window_and_names_what_it_overrides),
		cmocka_unit_test(test_a_multiboot_entry_must_be_code_inside_the_kernel),
		cmocka_unit_test(test_an_x86_64_multiboot_kernel_moves_by_a_single_slide),
		cmocka_unit_test(test_a_single_slide_keeps_the_segments_alignment),
		cmocka_unit_test(
			test_an_x86_64_kernel_without_a_multiboot_entry_is_refused_the_pass_through),
		cmocka_unit_test(test_segments_of_different_offsets_need_a_single_slide),
		cmocka_unit_test(test_options_are_refused_as_options_or_as_the_kernels),
		cmocka_unit_test(test_virtual_options_on_i386_are_warned_of),
		cmocka_unit_test(test_handoff_names_come_from_the_one_list),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
