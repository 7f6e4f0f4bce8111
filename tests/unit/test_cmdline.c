/* Unit tests for lib/cmdline.c: whole-word flags, last key=value wins, comma lists. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/cmdline.h"
#include "lib/errors.h"

#define VALUE_CAP 32

/* Most command lines in these tests are C strings; len covers exactly the text. */
static bool has_flag(const char *cmdline, const char *flag)
{
	return cmdline_has_flag(cmdline, strlen(cmdline), flag);
}

static int get(const char *cmdline, const char *key, char *out, size_t cap)
{
	return cmdline_get(cmdline, strlen(cmdline), key, out, cap);
}

static void test_flag_found_at_start_middle_and_end(void **state)
{
	(void)state;
	assert_true(has_flag("nokaslr", "nokaslr"));
	assert_true(has_flag("nokaslr console=ttyS0", "nokaslr"));
	assert_true(has_flag("console=ttyS0 nokaslr quiet", "nokaslr"));
	assert_true(has_flag("console=ttyS0 quiet nokaslr", "nokaslr"));
	assert_true(has_flag("  nokaslr  ", "nokaslr"));
	assert_false(has_flag("console=ttyS0 quiet", "nokaslr"));
}

static void test_tabs_separate_words(void **state)
{
	(void)state;
	assert_true(has_flag("quiet\tnokaslr\tdebug", "nokaslr"));
	assert_true(has_flag("\t nokaslr", "nokaslr"));
	assert_true(has_flag("nokaslr\t", "nokaslr"));
}

static void test_flag_must_be_a_whole_word(void **state)
{
	(void)state;
	assert_false(has_flag("xnokaslr", "nokaslr"));
	assert_false(has_flag("nokaslrx", "nokaslr"));
	assert_false(has_flag("nokaslr=1", "nokaslr"));
	assert_false(has_flag("quiet xnokaslr nokaslrx nokaslr=0", "nokaslr"));
	assert_false(has_flag("nokasl", "nokaslr"));
	assert_false(has_flag("nokaslr", ""));
	assert_false(has_flag("nokaslr", NULL));
}

static void test_len_and_nul_end_the_command_line(void **state)
{
	(void)state;
	/* "quiet nokaslr" but len stops in the middle of the flag. */
	assert_false(cmdline_has_flag("quiet nokaslr", 10, "nokaslr"));
	assert_true(cmdline_has_flag("quiet nokaslr", 13, "nokaslr"));
	/* The flag ends exactly at len; the bytes after it are not part of the command line. */
	assert_true(cmdline_has_flag("nokaslrx", 7, "nokaslr"));
	/* A NUL before len ends it too, even if more text follows. */
	static const char with_nul[] = "quiet\0nokaslr";
	assert_false(cmdline_has_flag(with_nul, sizeof(with_nul) - 1, "nokaslr"));
	assert_true(cmdline_has_flag(with_nul, sizeof(with_nul) - 1, "quiet"));

	char out[VALUE_CAP];
	assert_int_equal(cmdline_get("a=1 a=2", 3, "a", out, sizeof(out)), KS_OK);
	assert_string_equal(out, "1");
	static const char value_nul[] = "a=12\0" "34";
	assert_int_equal(cmdline_get(value_nul, sizeof(value_nul) - 1, "a", out, sizeof(out)),
			 KS_OK);
	assert_string_equal(out, "12");
}

static void test_not_nul_terminated_buffer(void **state)
{
	(void)state;
	/* A command line copied from a boot loader without its terminator. */
	char raw[] = { 'n', 'o', 'k', 'a', 's', 'l', 'r', ' ', 'k', '=', 'v' };
	assert_true(cmdline_has_flag(raw, sizeof(raw), "nokaslr"));
	char out[VALUE_CAP];
	assert_int_equal(cmdline_get(raw, sizeof(raw), "k", out, sizeof(out)), KS_OK);
	assert_string_equal(out, "v");
}

static void test_null_or_empty_command_line_is_absent(void **state)
{
	(void)state;
	char out[VALUE_CAP] = "junk";
	assert_false(cmdline_has_flag(NULL, 100, "nokaslr"));
	assert_false(cmdline_has_flag("nokaslr", 0, "nokaslr"));
	assert_false(cmdline_has_flag("", 0, "nokaslr"));
	assert_false(cmdline_has_flag("   \t ", 5, "nokaslr"));
	assert_int_equal(cmdline_get(NULL, 100, "a", out, sizeof(out)), KS_ENOENT);
	assert_string_equal(out, "");
	assert_int_equal(cmdline_get("a=1", 0, "a", out, sizeof(out)), KS_ENOENT);
	assert_false(cmdline_list_has(NULL, "pit"));
}

static void test_get_returns_value(void **state)
{
	(void)state;
	char out[VALUE_CAP];
	assert_int_equal(get("nokaslr selftest=reloc quiet", "selftest", out, sizeof(out)), KS_OK);
	assert_string_equal(out, "reloc");
	assert_int_equal(get("kslide.entropy=rdtsc,pit", "kslide.entropy", out, sizeof(out)),
			 KS_OK);
	assert_string_equal(out, "rdtsc,pit");
	/* Only the first '=' separates key and value. */
	assert_int_equal(get("opt=a=b", "opt", out, sizeof(out)), KS_OK);
	assert_string_equal(out, "a=b");
}

static void test_get_last_occurrence_wins(void **state)
{
	(void)state;
	char out[VALUE_CAP];
	assert_int_equal(get("seed=1 quiet seed=22 x=3 seed=333", "seed", out, sizeof(out)), KS_OK);
	assert_string_equal(out, "333");
	assert_int_equal(get("seed=1 seed= ", "seed", out, sizeof(out)), KS_OK);
	assert_string_equal(out, "");
}

static void test_get_empty_value(void **state)
{
	(void)state;
	char out[VALUE_CAP] = "junk";
	assert_int_equal(get("quiet selftest= nokaslr", "selftest", out, sizeof(out)), KS_OK);
	assert_string_equal(out, "");
	/* An empty value needs one byte, for the NUL. */
	assert_int_equal(get("selftest=", "selftest", out, 1), KS_OK);
	assert_string_equal(out, "");
}

static void test_get_key_must_match_whole_key(void **state)
{
	(void)state;
	char out[VALUE_CAP] = "junk";
	assert_int_equal(get("xseed=1 seedx=2 seed", "seed", out, sizeof(out)), KS_ENOENT);
	assert_string_equal(out, "");
	assert_int_equal(get("seed=1", "see", out, sizeof(out)), KS_ENOENT);
	assert_int_equal(get("seed=1", "", out, sizeof(out)), KS_EINVAL);
}

static void test_get_value_too_long_is_enospc(void **state)
{
	(void)state;
	char out[8];
	memset(out, 'X', sizeof(out));
	/* 8 characters need 9 bytes. */
	assert_int_equal(get("entropy=rdtscpit", "entropy", out, sizeof(out)), KS_ENOSPC);
	assert_string_equal(out, "");
	assert_int_equal(get("entropy=rdtscpi", "entropy", out, sizeof(out)), KS_OK);
	assert_string_equal(out, "rdtscpi");
	/* The last occurrence is too long: no falling back to an earlier one that fits. */
	assert_int_equal(get("entropy=pit entropy=rdtsc,rdrand", "entropy", out, sizeof(out)),
			 KS_ENOSPC);
	assert_string_equal(out, "");
	assert_int_equal(get("entropy=pit", "entropy", NULL, 0), KS_ENOSPC);
}

static void test_list_membership(void **state)
{
	(void)state;
	assert_true(cmdline_list_has("pit,rdtsc", "rdtsc"));
	assert_true(cmdline_list_has("pit,rdtsc", "pit"));
	assert_true(cmdline_list_has("rdtsc", "rdtsc"));
	assert_true(cmdline_list_has("a,,rdrand,", "rdrand"));
	assert_false(cmdline_list_has("pit,rdtsc", "rdt"));
	assert_false(cmdline_list_has("pit,rdtscp", "rdtsc"));
	assert_false(cmdline_list_has("pit,xrdtsc", "rdtsc"));
	assert_false(cmdline_list_has("", "pit"));
	assert_false(cmdline_list_has("pit,,", ""));
	assert_false(cmdline_list_has("pit", NULL));
}

/* Numbers: "0x" hex or decimal, the whole value, up to 2^64 - 1. */
static void test_numbers_are_hex_or_decimal_and_whole(void **state)
{
	(void)state;
	uint64_t v = 7;
	assert_int_equal(cmdline_parse_u64("0xc4be000", &v), KS_OK);
	assert_int_equal(v, 0xc4be000);
	assert_int_equal(cmdline_parse_u64("0XC4BE000", &v), KS_OK);
	assert_int_equal(v, 0xc4be000);
	assert_int_equal(cmdline_parse_u64("16777216", &v), KS_OK);
	assert_int_equal(v, 16777216);
	assert_int_equal(cmdline_parse_u64("0xffffffffffffffff", &v), KS_OK);
	assert_true(v == UINT64_MAX);
	assert_int_equal(cmdline_parse_u64("18446744073709551615", &v), KS_OK);
	assert_true(v == UINT64_MAX);
	v = 7;
	assert_int_equal(cmdline_parse_u64("0x10000000000000000", &v), KS_EOVERFLOW);
	assert_int_equal(cmdline_parse_u64("18446744073709551616", &v), KS_EOVERFLOW);
	assert_int_equal(cmdline_parse_u64("", &v), KS_EINVAL);
	assert_int_equal(cmdline_parse_u64("0x", &v), KS_EINVAL);
	assert_int_equal(cmdline_parse_u64("0x12g", &v), KS_EINVAL);
	assert_int_equal(cmdline_parse_u64("12a", &v), KS_EINVAL);
	assert_int_equal(cmdline_parse_u64("-1", &v), KS_EINVAL);
	assert_int_equal(cmdline_parse_u64("16M", &v), KS_EINVAL);
	assert_int_equal(v, 7);
}

static void expect_stripped(const char *in, const char *want)
{
	char s[256];
	strcpy(s, in);
	assert_int_equal(cmdline_remove_stub_words(s), strlen(want));
	assert_string_equal(s, want);
}

static void test_stub_words_are_removed_the_rest_kept_in_order(void **state)
{
	(void)state;
	expect_stripped("root=/dev/sda1 nokaslr quiet", "root=/dev/sda1 quiet");
	expect_stripped("kslide.entropy=rdtsc,pit console=ttyS0 kaslr", "console=ttyS0");
	expect_stripped("  a\tkslide.random=16   b  ", "a b");
	expect_stripped("nokaslr kaslr kslide.entropy=none", "");
	expect_stripped("", "");
	expect_stripped("hello=world", "hello=world");
}

static void test_only_whole_stub_words_are_removed(void **state)
{
	(void)state;
	/* Near misses stay: they are the kernel's. */
	const char *near = "nokaslr=1 xkaslr kslide kslide. kslideentropy=x";
	expect_stripped(near, near);
	assert_true(cmdline_is_stub_word("kslide.x", 8));
	assert_false(cmdline_is_stub_word("kslide.", 7));
	assert_true(cmdline_is_stub_word("nokaslr", 7));
	assert_false(cmdline_is_stub_word("nokaslr", 6));
}

/* The stub's words of cmdline, each followed by '|', as cmdline_next_stub_word walks them. */
static void expect_stub_words(const char *cmdline, size_t len, const char *want)
{
	char got[256] = "";
	size_t pos = 0, n, at = 0;
	const char *w;
	while (cmdline_next_stub_word(cmdline, len, &pos, &w, &n)) {
		assert_true(at + n + 1 < sizeof(got));
		memcpy(got + at, w, n);
		at += n;
		got[at++] = '|';
		got[at] = '\0';
	}
	assert_string_equal(got, want);
}

static void test_stub_words_are_walked_in_order(void **state)
{
	(void)state;
	const char *line = "root=/dev/sda nokaslr kslide.entopy=pit\tquiet kslide.x kaslr=1";
	expect_stub_words(line, strlen(line), "nokaslr|kslide.entopy=pit|kslide.x|");
	expect_stub_words(line, 21, "nokaslr|"); /* len ends the line */
	expect_stub_words("quiet", 5, "");
	expect_stub_words(NULL, 0, "");
}

/* The items of list, each followed by '|', as cmdline_list_next walks them. */
static void expect_items(const char *list, const char *want)
{
	char got[256] = "";
	size_t pos = 0, n, at = 0;
	const char *item;
	while (cmdline_list_next(list, &pos, &item, &n)) {
		assert_true(at + n + 1 < sizeof(got));
		memcpy(got + at, item, n);
		at += n;
		got[at++] = '|';
		got[at] = '\0';
	}
	assert_string_equal(got, want);
}

static void test_list_items_are_walked_empty_ones_skipped(void **state)
{
	(void)state;
	expect_items(",,bogus,,pit,", "bogus|pit|");
	expect_items("rdrand", "rdrand|");
	expect_items("", "");
	expect_items(",", "");
	expect_items(NULL, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flag_found_at_start_middle_and_end),
		cmocka_unit_test(test_tabs_separate_words),
		cmocka_unit_test(test_flag_must_be_a_whole_word),
		cmocka_unit_test(test_len_and_nul_end_the_command_line),
		cmocka_unit_test(test_not_nul_terminated_buffer),
		cmocka_unit_test(test_null_or_empty_command_line_is_absent),
		cmocka_unit_test(test_get_returns_value),
		cmocka_unit_test(test_get_last_occurrence_wins),
		cmocka_unit_test(test_get_empty_value),
		cmocka_unit_test(test_get_key_must_match_whole_key),
		cmocka_unit_test(test_get_value_too_long_is_enospc),
		cmocka_unit_test(test_list_membership),
		cmocka_unit_test(test_numbers_are_hex_or_decimal_and_whole),
		cmocka_unit_test(test_stub_words_are_removed_the_rest_kept_in_order),
		cmocka_unit_test(test_only_whole_stub_words_are_removed),
		cmocka_unit_test(test_stub_words_are_walked_in_order),
		cmocka_unit_test(test_list_items_are_walked_empty_ones_skipped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
