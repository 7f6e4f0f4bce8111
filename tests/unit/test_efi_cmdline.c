/*
 * Unit tests for boot/efi_cmdline.c: UEFI load options (UTF-16LE) as the kernel's ASCII
 * command line, read as Linux's EFI stub reads them: up to a NUL or a newline, within the
 * options' size and the buffer; characters outside ASCII become '?'.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "boot/efi.h"

#define UNITS_MAX 64

/* The UTF-16LE bytes of units, as the firmware's LoadOptions hold them. */
static uint8_t options[2 * UNITS_MAX];

static uint32_t utf16(const uint16_t *units, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		options[2 * i] = (uint8_t)units[i];
		options[2 * i + 1] = (uint8_t)(units[i] >> 8);
	}
	return (uint32_t)(2 * count);
}

static uint32_t ascii(const char *s)
{
	uint16_t units[UNITS_MAX];
	size_t n = strlen(s);
	for (size_t i = 0; i < n; i++)
		units[i] = (uint8_t)s[i];
	return utf16(units, n);
}

static void test_ascii_options_are_the_command_line(void **state)
{
	(void)state;
	char out[64];
	uint32_t size = ascii("console=ttyS0 initrd=\\init.img");
	assert_int_equal(efi_options_to_ascii(options, size, out, sizeof(out)), 30);
	assert_string_equal(out, "console=ttyS0 initrd=\\init.img");
}

static void test_the_shell_s_image_path_is_kept_as_linux_keeps_it(void **state)
{
	(void)state;
	char out[64];
	uint32_t size = ascii("fs0:\\kslide.efi quiet");
	efi_options_to_ascii(options, size, out, sizeof(out));
	assert_string_equal(out, "fs0:\\kslide.efi quiet");
}

static void test_options_end_at_a_nul_or_a_newline(void **state)
{
	(void)state;
	char out[64];
	static const uint16_t nul[] = {'a', ' ', 'b', 0, 'c'};
	static const uint16_t newline[] = {'a', '\n', 'b'};
	assert_int_equal(efi_options_to_ascii(options, utf16(nul, 5), out, sizeof(out)), 3);
	assert_string_equal(out, "a b");
	assert_int_equal(efi_options_to_ascii(options, utf16(newline, 3), out, sizeof(out)), 1);
	assert_string_equal(out, "a");
}

static void test_characters_outside_ascii_become_one_question_mark_each(void **state)
{
	(void)state;
	char out[64];
	/* e-acute, a surrogate pair (U+1F600), a lone low surrogate, then ASCII */
	static const uint16_t units[] = {'x', 0x00e9, 0xd83d, 0xde00, 0xdc00, 'y'};
	assert_int_equal(efi_options_to_ascii(options, utf16(units, 6), out, sizeof(out)), 5);
	assert_string_equal(out, "x???y");
}

static void test_an_odd_size_ignores_the_half_unit(void **state)
{
	(void)state;
	char out[64];
	uint32_t size = ascii("ab");
	assert_int_equal(efi_options_to_ascii(options, size - 1, out, sizeof(out)), 1);
	assert_string_equal(out, "a");
}

static void test_a_long_line_is_cut_to_the_buffer(void **state)
{
	(void)state;
	char out[5];
	memset(out, 'z', sizeof(out));
	uint32_t size = ascii("abcdefgh");
	assert_int_equal(efi_options_to_ascii(options, size, out, sizeof(out)), 4);
	assert_string_equal(out, "abcd");
}

static void test_no_options_is_an_empty_line(void **state)
{
	(void)state;
	char out[8] = "junk";
	assert_int_equal(efi_options_to_ascii(NULL, 16, out, sizeof(out)), 0);
	assert_string_equal(out, "");
	assert_int_equal(efi_options_to_ascii(options, 0, out, sizeof(out)), 0);
	assert_string_equal(out, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ascii_options_are_the_command_line),
		cmocka_unit_test(test_the_shell_s_image_path_is_kept_as_linux_keeps_it),
		cmocka_unit_test(test_options_end_at_a_nul_or_a_newline),
		cmocka_unit_test(test_characters_outside_ascii_become_one_question_mark_each),
		cmocka_unit_test(test_an_odd_size_ignores_the_half_unit),
		cmocka_unit_test(test_a_long_line_is_cut_to_the_buffer),
		cmocka_unit_test(test_no_options_is_an_empty_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
