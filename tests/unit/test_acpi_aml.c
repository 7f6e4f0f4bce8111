/* Unit tests for kernel/acpi/acpi_aml.c: SLP_TYP values of \_Sn from AML bytes, as firmware writes
 * them, and everything else left alone. The byte strings are AML as ACPI 6.5, chapter 20,
 * encodes it: NameOp 0x08, NameString, PackageOp 0x12, PkgLength, NumElements, elements. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "kernel/acpi/acpi_aml.h"

#define S3 3

struct found {
	bool ok;
	uint8_t a, b;
};

static struct found scan(const uint8_t *aml, size_t len, unsigned state)
{
	struct found f = { false, 0xee, 0xee };
	f.ok = acpi_aml_sleep_type(aml, len, state, &f.a, &f.b);
	return f;
}

#define SCAN(bytes, state) scan(bytes, sizeof(bytes), state)

/* QEMU's: Name (\_S3, Package (0x04) {One, One, Zero, Zero}) */
static const uint8_t qemu_s3[] = { 0x08, '\\', '_', 'S', '3', '_', 0x12, 0x06, 0x04,
				   0x01, 0x01, 0x00, 0x00 };

static void test_qemus_rooted_name_with_one_ops(void **state)
{
	(void)state;
	struct found f = SCAN(qemu_s3, S3);
	assert_true(f.ok);
	assert_int_equal(f.a, 1);
	assert_int_equal(f.b, 1);
}

static void test_name_without_root_prefix_and_byte_prefixed_values(void **state)
{
	(void)state;
	/* Scope (\) { Name (_S3, Package () {0x05, 0x05, 0, 0}) }, as many PCs write it */
	static const uint8_t aml[] = { 0x10, 0x0d, '\\', 0x08, '_', 'S', '3', '_', 0x12, 0x08,
				       0x04, 0x0a, 0x05, 0x0a, 0x05, 0x00, 0x00 };
	struct found f = SCAN(aml, S3);
	assert_true(f.ok);
	assert_int_equal(f.a, 5);
	assert_int_equal(f.b, 5);
}

static void test_word_and_dword_prefixes_and_a_two_byte_pkg_length(void **state)
{
	(void)state;
	/* PkgLength 0x4b 0x00: one byte follows, length 0xb | 0x00 << 4 = 11, counted from the
	 * PkgLength's first byte to the end of the dword */
	static const uint8_t aml[] = { 0x08, '_', 'S', '3', '_', 0x12, 0x4b, 0x00, 0x02,
				       0x0b, 0x03, 0x00, 0x0c, 0x06, 0x00, 0x00, 0x00 };
	struct found f = SCAN(aml, S3);
	assert_true(f.ok);
	assert_int_equal(f.a, 3);
	assert_int_equal(f.b, 6);
}

static void test_other_states_are_told_apart(void **state)
{
	(void)state;
	/* _S5_ first, then _S3_: each scan finds its own */
	static const uint8_t aml[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x06, 0x04, 0x00, 0x00, 0x00,
				       0x00, 0x08, '_', 'S', '3', '_', 0x12, 0x06, 0x04, 0x01, 0x01,
				       0x00, 0x00 };
	struct found s5 = SCAN(aml, 5), s3 = SCAN(aml, S3), s4 = SCAN(aml, 4);
	assert_true(s5.ok);
	assert_int_equal(s5.a, 0);
	assert_true(s3.ok);
	assert_int_equal(s3.a, 1);
	assert_false(s4.ok);
}

static void test_the_name_alone_is_not_a_definition(void **state)
{
	(void)state;
	/* _S3_ as an argument (a method referring to it, say): no NameOp before it */
	static const uint8_t reference[] = { 0x70, '_', 'S', '3', '_', 0x12, 0x06, 0x04, 0x01,
					     0x01, 0x00, 0x00 };
	assert_false(SCAN(reference, S3).ok);
	/* A method called _S3_ (MethodOp 0x14), not a package */
	static const uint8_t method[] = { 0x14, 0x08, '_', 'S', '3', '_', 0x00, 0xa4, 0x01 };
	assert_false(SCAN(method, S3).ok);
}

static void test_values_past_three_bits_and_short_packages_refused(void **state)
{
	(void)state;
	static const uint8_t too_big[] = { 0x08, '_', 'S', '3', '_', 0x12, 0x07, 0x02,
					   0x0a, 0x08, 0x01, 0x00, 0x00 };
	assert_false(SCAN(too_big, S3).ok);
	static const uint8_t one_element[] = { 0x08, '_', 'S', '3', '_', 0x12, 0x03, 0x01, 0x01 };
	assert_false(SCAN(one_element, S3).ok);
	static const uint8_t not_integers[] = { 0x08, '_', 'S', '3', '_', 0x12, 0x05, 0x02,
						0x0d, 'x', 0x00, 0x01 };
	assert_false(SCAN(not_integers, S3).ok);
}

static void test_truncated_aml_is_refused_at_every_length(void **state)
{
	(void)state;
	for (size_t len = 0; len < sizeof(qemu_s3); len++) /* the package must fit whole */
		assert_false(scan(qemu_s3, len, S3).ok);
	assert_true(scan(qemu_s3, sizeof(qemu_s3), S3).ok);
	/* A PkgLength that claims more than the AML holds */
	static const uint8_t long_claim[] = { 0x08, '_', 'S', '3', '_', 0x12, 0x3f, 0x04,
					      0x01, 0x01, 0x00, 0x00 };
	assert_false(SCAN(long_claim, S3).ok);
}

static void test_a_bad_candidate_does_not_hide_a_good_one(void **state)
{
	(void)state;
	static const uint8_t aml[] = { 0x08, '_', 'S', '3', '_', 0x0a, 0x01, /* Name (_S3, 1) */
				       0x08, '\\', '_', 'S', '3', '_', 0x12, 0x06, 0x04, 0x0a, 0x02,
				       0x00, 0x00, 0x00 };
	struct found f = SCAN(aml, S3);
	assert_true(f.ok);
	assert_int_equal(f.a, 2);
	assert_int_equal(f.b, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemus_rooted_name_with_one_ops),
		cmocka_unit_test(test_name_without_root_prefix_and_byte_prefixed_values),
		cmocka_unit_test(test_word_and_dword_prefixes_and_a_two_byte_pkg_length),
		cmocka_unit_test(test_other_states_are_told_apart),
		cmocka_unit_test(test_the_name_alone_is_not_a_definition),
		cmocka_unit_test(test_values_past_three_bits_and_short_packages_refused),
		cmocka_unit_test(test_truncated_aml_is_refused_at_every_length),
		cmocka_unit_test(test_a_bad_candidate_does_not_hide_a_good_one),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
