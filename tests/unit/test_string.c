/* Unit tests for lib/string.c, compiled in under ks_ names so they do not replace the host libc. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

/* lib/string.c is built only for the boot targets (see Makefile); test it under other names. */
#define memcpy ks_memcpy
#define memmove ks_memmove
#define memset ks_memset
#define memcmp ks_memcmp
#define strlen ks_strlen
#define strcmp ks_strcmp
#include "lib/string.c"
#undef memcpy
#undef memmove
#undef memset
#undef memcmp
#undef strlen

#define BUF 96

static uint64_t next_random(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1Dull;
}

static void fill_random(unsigned char *p, size_t n, uint64_t *seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)next_random(seed);
}

static int sign(int v)
{
	return (v > 0) - (v < 0);
}

/* Every (dst, src, n) inside one buffer, overlapping both ways, aligned and not. */
static void test_memmove_matches_libc_for_all_overlaps(void **state)
{
	(void)state;
	uint64_t seed = 1;
	_Alignas(8) unsigned char ours[BUF], want[BUF];
	for (size_t dst = 0; dst < 24; dst++)
		for (size_t src = 0; src < 24; src++)
			for (size_t n = 0; n <= BUF - 24; n += 7) {
				fill_random(want, BUF, &seed);
				memcpy(ours, want, BUF);
				memmove(want + dst, want + src, n);
				assert_ptr_equal(ks_memmove(ours + dst, ours + src, n), ours + dst);
				assert_memory_equal(ours, want, BUF);
			}
}

static void test_memcpy_copies_exactly_n_bytes(void **state)
{
	(void)state;
	uint64_t seed = 2;
	_Alignas(8) unsigned char src[BUF], dst[BUF], want[BUF];
	for (size_t s = 0; s < 8; s++)
		for (size_t d = 0; d < 8; d++)
			for (size_t n = 0; n <= BUF - 8; n++) {
				fill_random(src, BUF, &seed);
				fill_random(dst, BUF, &seed);
				memcpy(want, dst, BUF);
				memcpy(want + d, src + s, n);
				assert_ptr_equal(ks_memcpy(dst + d, src + s, n), dst + d);
				assert_memory_equal(dst, want, BUF);
			}
}

static void test_memset_fills_exactly_n_bytes(void **state)
{
	(void)state;
	_Alignas(8) unsigned char buf[BUF], want[BUF];
	for (size_t off = 0; off < 8; off++)
		for (size_t n = 0; n <= BUF - 8; n++) {
			memset(buf, 0x11, BUF);
			memset(want, 0x11, BUF);
			memset(want + off, 0xab, n);
			/* Only the low byte of c counts. */
			assert_ptr_equal(ks_memset(buf + off, 0x7ab, n), buf + off);
			assert_memory_equal(buf, want, BUF);
		}
}

static void test_memcmp_sign_matches_libc(void **state)
{
	(void)state;
	uint64_t seed = 3;
	unsigned char a[32], b[32];
	for (int round = 0; round < 5000; round++) {
		fill_random(a, sizeof(a), &seed);
		memcpy(b, a, sizeof(b));
		size_t n = next_random(&seed) % sizeof(a);
		if (n > 0 && next_random(&seed) % 2)
			b[next_random(&seed) % n] ^= (unsigned char)(1 + next_random(&seed) % 255);
		assert_int_equal(sign(ks_memcmp(a, b, n)), sign(memcmp(a, b, n)));
	}
	/* Bytes compare as unsigned: 0x80 > 0x7f. */
	assert_true(ks_memcmp("\x80", "\x7f", 1) > 0);
	assert_int_equal(ks_memcmp("abc", "abd", 0), 0);
}

static void test_strlen_counts_to_the_nul(void **state)
{
	(void)state;
	assert_int_equal(ks_strlen(""), 0);
	assert_int_equal(ks_strlen("kslide"), 6);
	assert_int_equal(ks_strlen("ab\0cd"), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memmove_matches_libc_for_all_overlaps),
		cmocka_unit_test(test_memcpy_copies_exactly_n_bytes),
		cmocka_unit_test(test_memset_fills_exactly_n_bytes),
		cmocka_unit_test(test_memcmp_sign_matches_libc),
		cmocka_unit_test(test_strlen_counts_to_the_nul),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
