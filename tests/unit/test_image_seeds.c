/*
 * The committed fuzz seeds for image_verify (tests/fuzz/corpus/image, made by
 * tests/fuzz/make_seeds.py) are what their names say: the valid ones verify under today's
 * format and each broken one fails for its own reason. Seeds left behind by a format change
 * would all be refused at the version check and the fuzzer would start from nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/errors.h"
#include "lib/image.h"

#define SEED_DIR       "tests/fuzz/corpus/image/" /* make unit runs from the repository root */
#define SEED_MAX_BYTES 4096u

struct seed {
	_Alignas(8) uint8_t bytes[SEED_MAX_BYTES];
	size_t size;
	struct kslide_image_header header;
};

static void load(struct seed *s, const char *name)
{
	char path[128];
	snprintf(path, sizeof(path), SEED_DIR "%s", name);
	FILE *in = fopen(path, "rb");
	if (!in)
		fail_msg("%s: cannot open (run from the repository root)", path);
	s->size = fread(s->bytes, 1, sizeof(s->bytes), in);
	fclose(in);
	assert_true(s->size >= sizeof(s->header) && s->size < sizeof(s->bytes));
	memcpy(&s->header, s->bytes, sizeof(s->header));
}

static const char *verify(const char *name, int expect)
{
	struct seed s;
	load(&s, name);
	const char *why = NULL;
	int rc = image_verify(s.bytes, s.size, &s.header, &why);
	if (rc != expect)
		fail_msg("%s: image_verify gave %d (%s), expected %d", name, rc, why ? why : "",
			 expect);
	return why;
}

/* A valid seed's payload sums are right too, so a fuzzer's mutation of a payload byte is a
 * change the stub would see. */
static void verify_with_sums(const char *name)
{
	verify(name, KS_OK);
	struct seed s;
	load(&s, name);
	struct word_sums sums;
	image_payload_sums(s.bytes, &s.header, &sums);
	if (!image_payload_sums_match(&s.header, &sums))
		fail_msg("%s: its payload sums do not match", name);
}

static void test_valid_seeds_verify(void **state)
{
	(void)state;
	verify_with_sums("valid");
	verify_with_sums("valid-4k-bss");
	verify_with_sums("valid-handoff-data");
}

static void test_compressed_seed_verifies_with_a_payload_larger_than_the_file(void **state)
{
	(void)state;
	verify_with_sums("valid-compressed");
	struct seed s;
	load(&s, "valid-compressed");
	assert_int_not_equal(s.header.payload_codec, KSLIDE_CODEC_NONE);
	assert_true(s.header.payload_file_size > s.size);
}

static void test_broken_seeds_fail_for_their_own_reason(void **state)
{
	(void)state;
	assert_non_null(strstr(verify("bad-checksum", KS_EFORMAT), "checksum mismatch"));
	assert_non_null(strstr(verify("bad-align", KS_EFORMAT), "alignment"));
	assert_non_null(strstr(verify("truncated", KS_EFORMAT), "truncated"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_seeds_verify),
		cmocka_unit_test(test_compressed_seed_verifies_with_a_payload_larger_than_the_file),
		cmocka_unit_test(test_broken_seeds_fail_for_their_own_reason),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
