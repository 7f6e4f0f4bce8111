/* Unit tests for lib/format.c: output must match the host's snprintf where the two overlap. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/format.h"

#define OUT_CAP 512

/* Formats with both format_buf and snprintf and requires identical text and return values. */
#define EXPECT_LIKE_SNPRINTF(...)                                                       \
	do {                                                                            \
		char ours[OUT_CAP], host[OUT_CAP];                                      \
		size_t n = format_buf(ours, sizeof(ours), __VA_ARGS__);                 \
		int m = snprintf(host, sizeof(host), __VA_ARGS__);                      \
		assert_string_equal(ours, host);                                        \
		assert_int_equal(n, (size_t)m);                                         \
	} while (0)

static void expect_text(const char *want, size_t n, const char *got)
{
	assert_string_equal(got, want);
	assert_int_equal(n, strlen(want));
}

static void test_plain_text_and_percent(void **state)
{
	(void)state;
	EXPECT_LIKE_SNPRINTF("hello, world");
	EXPECT_LIKE_SNPRINTF("100%% sure");
	EXPECT_LIKE_SNPRINTF("%s", "");
	EXPECT_LIKE_SNPRINTF("%%%d%%", 5);
}

static void test_signed_decimal(void **state)
{
	(void)state;
	EXPECT_LIKE_SNPRINTF("%d", 0);
	EXPECT_LIKE_SNPRINTF("%d", -1);
	EXPECT_LIKE_SNPRINTF("%d", 42);
	EXPECT_LIKE_SNPRINTF("%d|%d", INT_MAX, INT_MIN);
	EXPECT_LIKE_SNPRINTF("%i", -12345);
	EXPECT_LIKE_SNPRINTF("%ld|%ld", LONG_MAX, LONG_MIN);
	EXPECT_LIKE_SNPRINTF("%lld", (long long)INT64_MIN);
	EXPECT_LIKE_SNPRINTF("%lld", (long long)INT64_MAX);
	EXPECT_LIKE_SNPRINTF("%lld", -1000000000000ll);
}

static void test_unsigned_decimal_and_hex(void **state)
{
	(void)state;
	EXPECT_LIKE_SNPRINTF("%u|%x", 0u, 0u);
	EXPECT_LIKE_SNPRINTF("%u|%x", UINT_MAX, UINT_MAX);
	EXPECT_LIKE_SNPRINTF("%x", 0xdeadbeefu);
	EXPECT_LIKE_SNPRINTF("%lx|%lu", ULONG_MAX, ULONG_MAX);
	EXPECT_LIKE_SNPRINTF("%llu", (unsigned long long)UINT64_MAX);
	EXPECT_LIKE_SNPRINTF("%llx", (unsigned long long)UINT64_MAX);
	EXPECT_LIKE_SNPRINTF("%llu", 10000000000000000000ull);
	EXPECT_LIKE_SNPRINTF("%llu", 9999999999999999999ull);
	EXPECT_LIKE_SNPRINTF("%zu|%zx", (size_t)SIZE_MAX, (size_t)0x1000);
	EXPECT_LIKE_SNPRINTF("%u", -1); /* an int read as unsigned, as in C */
}

static void test_width_and_zero_padding(void **state)
{
	(void)state;
	EXPECT_LIKE_SNPRINTF("[%5d]", 42);
	EXPECT_LIKE_SNPRINTF("[%05d]", 42);
	EXPECT_LIKE_SNPRINTF("[%05d]", -42); /* sign goes before the zeros */
	EXPECT_LIKE_SNPRINTF("[%5d]", -42);
	EXPECT_LIKE_SNPRINTF("[%-5d]", -42);
	EXPECT_LIKE_SNPRINTF("[%08x]", 0xbeefu);
	EXPECT_LIKE_SNPRINTF("[%016llx]", 0xffffffff80000000ull);
	EXPECT_LIKE_SNPRINTF("[%2d]", 12345); /* width smaller than the number */
	EXPECT_LIKE_SNPRINTF("[%0d]", 7);
	EXPECT_LIKE_SNPRINTF("[%020llu]", (unsigned long long)UINT64_MAX);
	EXPECT_LIKE_SNPRINTF("[%025lld]", (long long)INT64_MIN);
	EXPECT_LIKE_SNPRINTF("[%8s][%-8s]", "ab", "cd");
	EXPECT_LIKE_SNPRINTF("[%3c][%-3c]", 'x', 'y');
	EXPECT_LIKE_SNPRINTF("[%2s]", "longer");

	/* C leaves '0' with %s and %c undefined; kslide pads those with spaces. */
	char buf[OUT_CAP];
	const char *zero_string = "[%05s]", *zero_char = "[%03c]";
	expect_text("[   ab]", format_buf(buf, sizeof(buf), zero_string, "ab"), buf);
	expect_text("[  z]", format_buf(buf, sizeof(buf), zero_char, 'z'), buf);
}

static void test_strings_and_chars(void **state)
{
	(void)state;
	EXPECT_LIKE_SNPRINTF("%s=%s", "key", "value");
	EXPECT_LIKE_SNPRINTF("%c%c%c", 'a', 'b', 'c');
	char buf[OUT_CAP];
	const char *volatile null_string = NULL; /* volatile: hide the NULL from -Wformat */
	/* glibc also prints "(null)", but that is not a promise of C, so compare to text. */
	expect_text("(null)", format_buf(buf, sizeof(buf), "%s", null_string), buf);
}

static void test_pointers(void **state)
{
	(void)state;
	char buf[OUT_CAP], host[OUT_CAP];
	/* glibc prints "(nil)"; kslide wants a number. */
	expect_text("0x0", format_buf(buf, sizeof(buf), "%p", NULL), buf);
	int x;
	format_buf(buf, sizeof(buf), "%p", (void *)&x);
	snprintf(host, sizeof(host), "0x%lx", (unsigned long)(uintptr_t)&x);
	assert_string_equal(buf, host);
	expect_text("0xffffffffffffffff",
		    format_buf(buf, sizeof(buf), "%p", (void *)(uintptr_t)UINTPTR_MAX), buf);
	/* C leaves "%0p" undefined (hence not a literal here); kslide pads after the 0x. */
	const char *zero_padded = "%010p";
	expect_text("0x00001000",
		    format_buf(buf, sizeof(buf), zero_padded, (void *)(uintptr_t)0x1000), buf);
	expect_text("    0x1000",
		    format_buf(buf, sizeof(buf), "%10p", (void *)(uintptr_t)0x1000), buf);
}

/* A pointer hook that shows which kind it was asked about. */
static uintptr_t tag_pointer(void *ctx, char kind, uintptr_t p)
{
	(void)ctx;
	return kind == 'K' ? 0 : kind == 'x' ? p : p ^ 0xf00;
}

static void append_char(void *ctx, char c)
{
	char **p = ctx;
	*(*p)++ = c;
	**p = '\0';
}

static size_t format_hooked(char *buf, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *end = buf;
	*end = '\0';
	size_t n = format_vp(append_char, tag_pointer, &end, fmt, ap);
	va_end(ap);
	return n;
}

static void test_pointer_kinds_reach_the_hook(void **state)
{
	(void)state;
	char buf[OUT_CAP];
	void *p = (void *)(uintptr_t)0x1234;
	expect_text("0x1d34 0x0 0x1234 K", format_hooked(buf, "%p %pK %px K", p, p, p), buf);
	/* Without a hook the suffix is still consumed and the pointer printed as it is. */
	expect_text("0x1234|0x1234|0x1234", format_buf(buf, sizeof(buf), "%p|%pK|%px", p, p, p),
		    buf);
	expect_text("0x00001234", format_hooked(buf, "%010px", p), buf);
}

/* The format string is not a literal here so the compiler's printf checks do not object. */
static size_t format_unchecked(char *buf, size_t cap, const char *fmt, int arg)
{
	return format_buf(buf, cap, fmt, arg);
}

static void test_unknown_conversions_print_verbatim(void **state)
{
	(void)state;
	char buf[OUT_CAP];
	expect_text("a%qb", format_unchecked(buf, sizeof(buf), "a%qb", 1), buf);
	expect_text("%08q|1", format_unchecked(buf, sizeof(buf), "%08q|%d", 1), buf);
	expect_text("%lc", format_unchecked(buf, sizeof(buf), "%lc", 'a'), buf);
	expect_text("end%", format_unchecked(buf, sizeof(buf), "end%", 1), buf);
	expect_text("end%5l", format_unchecked(buf, sizeof(buf), "end%5l", 1), buf);
}

static void test_format_buf_truncates_and_terminates(void **state)
{
	(void)state;
	char buf[8];
	memset(buf, 'X', sizeof(buf));
	/* Returns the length it wanted, keeps cap - 1 characters, always terminates. */
	assert_int_equal(format_buf(buf, 5, "%d", 1234567), 7);
	assert_string_equal(buf, "1234");
	assert_int_equal(buf[5], 'X'); /* nothing past cap is touched */

	memset(buf, 'X', sizeof(buf));
	assert_int_equal(format_buf(buf, 1, "abc"), 3);
	assert_int_equal(buf[0], '\0');
	assert_int_equal(buf[1], 'X');

	memset(buf, 'X', sizeof(buf));
	assert_int_equal(format_buf(buf, 0, "abc"), 3);
	assert_int_equal(buf[0], 'X');
	assert_int_equal(format_buf(NULL, 0, "%s", "abc"), 3);

	/* Exactly fitting: 7 characters plus the NUL in 8 bytes. */
	assert_int_equal(format_buf(buf, sizeof(buf), "%s", "1234567"), 7);
	assert_string_equal(buf, "1234567");
	assert_int_equal(format_buf(buf, sizeof(buf), "%s", "12345678"), 8);
	assert_string_equal(buf, "1234567");
}

struct collect {
	char text[OUT_CAP];
	size_t len;
};

static void collect_putc(void *ctx, char c)
{
	struct collect *col = ctx;
	assert_true(col->len + 1 < sizeof(col->text));
	col->text[col->len++] = c;
	col->text[col->len] = '\0';
}

static void test_format_sends_every_character_to_sink(void **state)
{
	(void)state;
	struct collect col = { .len = 0 };
	size_t n = format(collect_putc, &col, "base=%016llx slot=%u/%u %s", 0x1000000ull, 3u, 17u,
			  "ok");
	assert_string_equal(col.text, "base=0000000001000000 slot=3/17 ok");
	assert_int_equal(n, col.len);
	col.len = 0;
	assert_int_equal(format(collect_putc, &col, "%s", ""), 0);
	assert_int_equal(col.len, 0);
}

static uint64_t next_random(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}

/* Edge values, powers of ten and their neighbours, or uniformly random bits. */
static uint64_t interesting_value(uint64_t *seed)
{
	static const uint64_t edges[] = { 0, 1, 9, 10, 11, 99, 100, INT32_MAX, 0x80000000u,
					  UINT32_MAX, 0x100000000ull, INT64_MAX,
					  (uint64_t)INT64_MIN, UINT64_MAX, UINT64_MAX - 1 };
	uint64_t pick = next_random(seed) % 4;
	if (pick == 0)
		return edges[next_random(seed) % (sizeof(edges) / sizeof(edges[0]))];
	if (pick == 1) {
		uint64_t v = 1;
		for (uint64_t k = next_random(seed) % 20; k > 0; k--)
			v *= 10;
		return v + next_random(seed) % 3 - 1;
	}
	if (pick == 2)
		return next_random(seed) >> (next_random(seed) % 64);
	return next_random(seed);
}

/* Random flag/width/length/conversion combinations against snprintf. */
static void test_random_combinations_match_snprintf(void **state)
{
	(void)state;
	static const char *const lengths[] = { "", "l", "ll", "z" };
	static const char convs[] = "diux";
	uint64_t seed = 0x5eed;
	for (int round = 0; round < 20000; round++) {
		char fmt[32];
		const char *flag = (const char *[]){ "", "0", "-" }[next_random(&seed) % 3];
		unsigned width = (unsigned)(next_random(&seed) % 26);
		const char *len = lengths[next_random(&seed) % 4];
		char conv = convs[next_random(&seed) % 4];
		if (width > 0)
			snprintf(fmt, sizeof(fmt), "<%%%s%u%s%c>", flag, width, len, conv);
		else
			snprintf(fmt, sizeof(fmt), "<%%%s%s%c>", flag, len, conv);
		uint64_t v = interesting_value(&seed);
		char ours[OUT_CAP], host[OUT_CAP];
		size_t n;
		int m;
		bool is_signed = conv == 'd' || conv == 'i';
		if (len[0] == '\0' && is_signed) {
			n = format_buf(ours, sizeof(ours), fmt, (int)v);
			m = snprintf(host, sizeof(host), fmt, (int)v);
		} else if (len[0] == '\0') {
			n = format_buf(ours, sizeof(ours), fmt, (unsigned)v);
			m = snprintf(host, sizeof(host), fmt, (unsigned)v);
		} else if (len[0] == 'z' && is_signed) {
			n = format_buf(ours, sizeof(ours), fmt, (ptrdiff_t)v);
			m = snprintf(host, sizeof(host), fmt, (ptrdiff_t)v);
		} else if (len[0] == 'z') {
			n = format_buf(ours, sizeof(ours), fmt, (size_t)v);
			m = snprintf(host, sizeof(host), fmt, (size_t)v);
		} else if (len[1] == 'l' && is_signed) {
			n = format_buf(ours, sizeof(ours), fmt, (long long)v);
			m = snprintf(host, sizeof(host), fmt, (long long)v);
		} else if (len[1] == 'l') {
			n = format_buf(ours, sizeof(ours), fmt, (unsigned long long)v);
			m = snprintf(host, sizeof(host), fmt, (unsigned long long)v);
		} else if (is_signed) {
			n = format_buf(ours, sizeof(ours), fmt, (long)v);
			m = snprintf(host, sizeof(host), fmt, (long)v);
		} else {
			n = format_buf(ours, sizeof(ours), fmt, (unsigned long)v);
			m = snprintf(host, sizeof(host), fmt, (unsigned long)v);
		}
		if (strcmp(ours, host) != 0)
			fail_msg("format \"%s\" value %llu: got \"%s\", want \"%s\"", fmt,
				 (unsigned long long)v, ours, host);
		assert_int_equal(n, (size_t)m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_text_and_percent),
		cmocka_unit_test(test_signed_decimal),
		cmocka_unit_test(test_unsigned_decimal_and_hex),
		cmocka_unit_test(test_width_and_zero_padding),
		cmocka_unit_test(test_strings_and_chars),
		cmocka_unit_test(test_pointers),
		cmocka_unit_test(test_unknown_conversions_print_verbatim),
		cmocka_unit_test(test_pointer_kinds_reach_the_hook),
		cmocka_unit_test(test_format_buf_truncates_and_terminates),
		cmocka_unit_test(test_format_sends_every_character_to_sink),
		cmocka_unit_test(test_random_combinations_match_snprintf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
