/* Unit tests for tools/pack/bzimage.c: reading a Linux setup header (boot.rst's table). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tools/pack/bzimage.h"

#define FILE_BYTES 8192
#define SETUP_SECTS 3 /* protected-mode code at (3 + 1) * 512 */
#define PM_START ((SETUP_SECTS + 1) * 512)
#define HEADER_END 0x26c /* protocol 2.15: kernel_info_offset is the last field */

static uint8_t file[FILE_BYTES];
static char err[256];

static void put(unsigned offset, unsigned bytes, uint64_t value)
{
	for (unsigned i = 0; i < bytes; i++)
		file[offset + i] = (uint8_t)(value >> (8 * i));
}

/* A protocol 2.15 header as Debian's 686 kernel has it, with a 0x200-byte payload. */
static int make_header(void **state)
{
	(void)state;
	memset(file, 0, sizeof(file));
	put(0x1f1, 1, SETUP_SECTS);
	put(0x1fe, 2, 0xAA55);
	put(0x200, 1, 0xEB);
	put(0x201, 1, HEADER_END - 0x202);
	memcpy(file + 0x202, "HdrS", 4);
	put(0x206, 2, 0x020f);
	put(0x211, 1, 0x01);	       /* LOADED_HIGH */
	put(0x22c, 4, 0x7fffffff);     /* initrd_addr_max */
	put(0x230, 4, 0x1000000);      /* kernel_alignment */
	put(0x234, 1, 1);	       /* relocatable_kernel */
	put(0x235, 1, 13);	       /* min_alignment: 8 KiB */
	put(0x236, 2, 0x0004);	       /* xloadflags: EFI handover 32 */
	put(0x238, 4, 2047);	       /* cmdline_size */
	put(0x248, 4, 0x100);	       /* payload_offset, from the protected-mode code */
	put(0x24c, 4, 0x200);	       /* payload_length */
	put(0x258, 8, 0x1000000);      /* pref_address */
	put(0x260, 4, 0x1018000);      /* init_size */
	put(0x264, 4, 0x56bf65);       /* handover_offset */
	put(0x268, 4, 0x12345);	       /* kernel_info_offset */
	return 0;
}

static void test_every_field_of_a_2_15_header_is_read(void **state)
{
	(void)state;
	struct bzimage_header h;
	assert_true(bzimage_detect(file, sizeof(file)));
	assert_int_equal(bzimage_parse(file, sizeof(file), &h, err, sizeof(err)), 0);
	assert_int_equal(h.version, 0x020f);
	assert_int_equal(h.setup_sects, SETUP_SECTS);
	assert_int_equal(h.loadflags, LOADFLAGS_LOADED_HIGH);
	assert_int_equal(h.initrd_addr_max, 0x7fffffff);
	assert_int_equal(h.kernel_alignment, 0x1000000);
	assert_int_equal(h.relocatable_kernel, 1);
	assert_int_equal(h.min_alignment_log2, 13);
	assert_int_equal(h.xloadflags, 0x0004);
	assert_int_equal(h.cmdline_size, 2047);
	assert_int_equal(h.pref_address, 0x1000000);
	assert_int_equal(h.init_size, 0x1018000);
	assert_int_equal(h.handover_offset, 0x56bf65);
	assert_int_equal(h.kernel_info_offset, 0x12345);
	assert_int_equal(h.setup_bytes, PM_START);
	assert_int_equal(h.payload_offset, PM_START + 0x100);
	assert_int_equal(h.payload_length, 0x200);
}

static void test_header_bytes_run_from_0x1f1_to_the_jump_target(void **state)
{
	(void)state;
	struct bzimage_header h;
	assert_int_equal(bzimage_parse(file, sizeof(file), &h, err, sizeof(err)), 0);
	assert_int_equal(h.size, HEADER_END - 0x1f1);
	assert_memory_equal(h.bytes, file + 0x1f1, HEADER_END - 0x1f1);
}

static void test_setup_sects_zero_means_four(void **state)
{
	(void)state;
	struct bzimage_header h;
	put(0x1f1, 1, 0);
	assert_int_equal(bzimage_parse(file, sizeof(file), &h, err, sizeof(err)), 0);
	assert_int_equal(h.setup_bytes, (4 + 1) * 512);
}

static void test_fields_newer_than_the_protocol_read_as_zero(void **state)
{
	(void)state;
	struct bzimage_header h;
	put(0x206, 2, 0x0208); /* payload fields yes; min_alignment, pref, init_size: 2.10 */
	assert_int_equal(bzimage_parse(file, sizeof(file), &h, err, sizeof(err)), 0);
	assert_int_equal(h.kernel_alignment, 0x1000000);
	assert_int_equal(h.min_alignment_log2, 0);
	assert_int_equal(h.pref_address, 0);
	assert_int_equal(h.init_size, 0);
	assert_int_equal(h.xloadflags, 0);
	assert_int_equal(h.handover_offset, 0);
	assert_int_equal(h.kernel_info_offset, 0);
}

static void test_fields_past_the_header_end_read_as_zero(void **state)
{
	(void)state;
	struct bzimage_header h;
	put(0x201, 1, 0x264 - 0x202); /* a 2.15 kernel whose header stops before handover */
	assert_int_equal(bzimage_parse(file, sizeof(file), &h, err, sizeof(err)), 0);
	assert_int_equal(h.init_size, 0x1018000);
	assert_int_equal(h.handover_offset, 0);
	assert_int_equal(h.kernel_info_offset, 0);
	assert_int_equal(h.size, 0x264 - 0x1f1);
}

/* Each change of the good header must be refused with a message containing 'why'. */
static void refused(const char *why)
{
	struct bzimage_header h;
	assert_int_equal(bzimage_parse(file, sizeof(file), &h, err, sizeof(err)), -1);
	if (!strstr(err, why))
		fail_msg("message \"%s\" lacks \"%s\"", err, why);
}

static void test_no_magic_is_not_a_bzimage(void **state)
{
	(void)state;
	memcpy(file + 0x202, "HdrT", 4);
	assert_false(bzimage_detect(file, sizeof(file)));
	refused("not a bzImage");
}

static void test_no_boot_flag_is_not_a_bzimage(void **state)
{
	(void)state;
	put(0x1fe, 2, 0);
	assert_false(bzimage_detect(file, sizeof(file)));
}

static void test_protocol_2_07_is_too_old(void **state)
{
	(void)state;
	put(0x206, 2, 0x0207);
	refused("boot protocol 2.07 is too old");
}

static void test_a_kernel_that_cannot_move_is_refused(void **state)
{
	(void)state;
	put(0x234, 1, 0);
	refused("not a relocatable kernel");
}

static void test_a_zimage_is_refused(void **state)
{
	(void)state;
	put(0x211, 1, 0);
	refused("a zImage");
}

static void test_alignment_must_be_a_power_of_two(void **state)
{
	(void)state;
	put(0x230, 4, 0x3000);
	refused("kernel_alignment 0x3000 is not a power of two");
}

static void test_min_alignment_above_kernel_alignment_is_refused(void **state)
{
	(void)state;
	put(0x235, 1, 25);
	refused("min_alignment 2^25 exceeds kernel_alignment 0x1000000");
}

static void test_a_header_without_payload_fields_is_refused(void **state)
{
	(void)state;
	put(0x201, 1, 0x24c - 0x202); /* ends inside payload_length */
	refused("malformed setup header");
}

static void test_a_file_ending_in_its_header_is_truncated(void **state)
{
	(void)state;
	struct bzimage_header h;
	assert_int_equal(bzimage_parse(file, 0x260, &h, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "the file ends inside its setup header"));
}

static void test_no_payload_is_refused(void **state)
{
	(void)state;
	put(0x24c, 4, 0);
	refused("names no payload");
}

static void test_a_payload_past_the_end_is_truncated(void **state)
{
	(void)state;
	put(0x24c, 4, FILE_BYTES - PM_START - 0x100 + 1);
	refused("runs past the end of the file");
	put(0x24c, 4, FILE_BYTES - PM_START - 0x100); /* exactly to the end: fine */
	struct bzimage_header h;
	assert_int_equal(bzimage_parse(file, sizeof(file), &h, err, sizeof(err)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_every_field_of_a_2_15_header_is_read, make_header),
		cmocka_unit_test_setup(test_header_bytes_run_from_0x1f1_to_the_jump_target,
				       make_header),
		cmocka_unit_test_setup(test_setup_sects_zero_means_four, make_header),
		cmocka_unit_test_setup(test_fields_newer_than_the_protocol_read_as_zero, make_header),
		cmocka_unit_test_setup(test_fields_past_the_header_end_read_as_zero, make_header),
		cmocka_unit_test_setup(test_no_magic_is_not_a_bzimage, make_header),
		cmocka_unit_test_setup(test_no_boot_flag_is_not_a_bzimage, make_header),
		cmocka_unit_test_setup(test_protocol_2_07_is_too_old, make_header),
		cmocka_unit_test_setup(test_a_kernel_that_cannot_move_is_refused, make_header),
		cmocka_unit_test_setup(test_a_zimage_is_refused, make_header),
		cmocka_unit_test_setup(test_alignment_must_be_a_power_of_two, make_header),
		cmocka_unit_test_setup(test_min_alignment_above_kernel_alignment_is_refused,
				       make_header),
		cmocka_unit_test_setup(test_a_header_without_payload_fields_is_refused, make_header),
		cmocka_unit_test_setup(test_a_file_ending_in_its_header_is_truncated, make_header),
		cmocka_unit_test_setup(test_no_payload_is_refused, make_header),
		cmocka_unit_test_setup(test_a_payload_past_the_end_is_truncated, make_header),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
