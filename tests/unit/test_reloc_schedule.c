/* Unit tests for lib/reloc_schedule.c and the runs of lib/reloc.c (reloc_stream_runs): which
 * fields each report of the decoder lets the stub patch, and that the two halves together
 * patch every field once, as reloc_apply does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/errors.h"
#include "lib/reloc.h"
#include "lib/reloc_schedule.h"

#define IMAGE_SIZE 64
#define SLIDE	   0x1000

/* One ADD32 group of fields at 0, 8, 16, 24, 32 (each 4 bytes, holding 0x10 * its index). */
static const uint8_t table[] = { RELOC_ADD32, 5, 0, 8, 8, 8, 8 };
#define FIELDS 5

static void fill(uint8_t *image)
{
	memset(image, 0, IMAGE_SIZE);
	for (unsigned i = 0; i < FIELDS; i++)
		image[8 * i] = (uint8_t)(0x10 * i);
}

/* Whether field i holds its patched value. */
static int patched(const uint8_t *image, unsigned i)
{
	uint32_t v = (uint32_t)image[8 * i] | (uint32_t)image[8 * i + 1] << 8;
	return v == 0x10 * i + SLIDE;
}

/* runs: late 1 (field 0), early 2 (fields 1, 2); field 3 and 4 lie past the runs: late. */
static const uint8_t runs[] = { 1, 2 };

/* A fresh image and a schedule over table with these runs; the decoder's hooks. */
static struct decode_progress start(struct reloc_schedule *s, uint8_t *image,
				    const uint8_t *with, size_t with_size)
{
	fill(image);
	reloc_schedule_init(s, image, IMAGE_SIZE, table, sizeof(table), with, with_size, SLIDE);
	return reloc_schedule_progress(s);
}

static void test_written_patches_only_early_fields_below_it(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE];
	struct reloc_schedule s;
	struct decode_progress p = start(&s, image, runs, sizeof(runs));
	assert_int_equal(p.written(p.ctx, 12), KS_OK); /* field 1 ends at 12, field 2 at 20 */
	assert_false(patched(image, 0));
	assert_true(patched(image, 1));
	assert_false(patched(image, 2));
	assert_int_equal(p.written(p.ctx, IMAGE_SIZE), KS_OK);
	assert_true(patched(image, 2));
	assert_false(patched(image, 0)); /* late: only 'final' reaches it */
	assert_false(patched(image, 3));
	assert_false(patched(image, 4));
}

static void test_final_patches_late_fields_below_it(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE];
	struct reloc_schedule s;
	struct decode_progress p = start(&s, image, runs, sizeof(runs));
	assert_int_equal(p.final(p.ctx, 28), KS_OK);
	for (unsigned i = 0; i < 4; i++)
		assert_true(patched(image, i));
	assert_false(patched(image, 4));
	assert_int_equal(reloc_schedule_finish(&s), KS_OK);
	assert_true(patched(image, 4));
}

/* Whatever the reports, the result is reloc_apply's: each field patched exactly once. */
static void test_every_order_of_reports_gives_reloc_apply(void **state)
{
	(void)state;
	static const uint8_t all_early[] = { 0, 5 }, none[] = { 0 }, odd[] = { 0, 1, 1, 1, 1, 1 };
	const uint8_t *masks[] = { runs, all_early, none, odd };
	size_t sizes[] = { sizeof(runs), sizeof(all_early), sizeof(none), sizeof(odd) };
	uint8_t want[IMAGE_SIZE];
	fill(want);
	assert_int_equal(reloc_apply(want, IMAGE_SIZE, table, sizeof(table), SLIDE), KS_OK);
	for (size_t m = 0; m < sizeof(masks) / sizeof(masks[0]); m++)
		for (size_t step = 1; step <= 9; step += 4) {
			uint8_t image[IMAGE_SIZE];
			struct reloc_schedule s;
			struct decode_progress p = start(&s, image, masks[m], sizes[m]);
			for (size_t at = 0; at <= IMAGE_SIZE; at += step) {
				assert_int_equal(p.written(p.ctx, at), KS_OK);
				assert_int_equal(p.final(p.ctx, at / 2), KS_OK);
			}
			assert_int_equal(reloc_schedule_finish(&s), KS_OK);
			assert_memory_equal(image, want, IMAGE_SIZE);
		}
}

static void test_no_runs_means_every_field_waits_for_final(void **state)
{
	(void)state;
	uint8_t image[IMAGE_SIZE];
	struct reloc_schedule s;
	struct decode_progress p = start(&s, image, NULL, 0);
	assert_int_equal(p.written(p.ctx, IMAGE_SIZE), KS_OK);
	for (unsigned i = 0; i < FIELDS; i++)
		assert_false(patched(image, i));
	assert_int_equal(reloc_schedule_finish(&s), KS_OK);
	for (unsigned i = 0; i < FIELDS; i++)
		assert_true(patched(image, i));
}

static void test_a_truncated_run_is_refused(void **state)
{
	(void)state;
	static const uint8_t truncated[] = { 1, 0x80 };
	uint8_t image[IMAGE_SIZE];
	struct reloc_schedule s;
	start(&s, image, truncated, sizeof(truncated));
	assert_int_equal(reloc_schedule_finish(&s), KS_EFORMAT);
	assert_int_equal(reloc_schedule_status(&s), KS_EFORMAT);
}

/* A skipped field is still checked: out of bounds is out of bounds in either half. */
static void test_a_skipped_field_out_of_bounds_is_refused(void **state)
{
	(void)state;
	static const uint8_t far[] = { RELOC_ADD32, 2, 0, IMAGE_SIZE };
	static const uint8_t first_early[] = { 0, 1 };
	uint8_t image[IMAGE_SIZE];
	fill(image);
	struct reloc_schedule s;
	reloc_schedule_init(&s, image, IMAGE_SIZE, far, sizeof(far), first_early,
			    sizeof(first_early), SLIDE);
	struct decode_progress p = reloc_schedule_progress(&s);
	assert_int_equal(p.written(p.ctx, IMAGE_SIZE), KS_ERANGE);
}

/* A field over its neighbour is refused by the half that patches it, whichever that is. */
static void test_an_overlapping_field_is_refused_by_its_own_half(void **state)
{
	(void)state;
	static const uint8_t overlapping[] = { RELOC_ADD32, 3, 0, 8, 2 };
	static const uint8_t early_then_late[] = { 0, 2 }, late_then_early[] = { 2, 1 };
	const uint8_t *masks[] = { early_then_late, late_then_early };
	for (size_t m = 0; m < 2; m++) {
		uint8_t image[IMAGE_SIZE];
		fill(image);
		struct reloc_schedule s;
		reloc_schedule_init(&s, image, IMAGE_SIZE, overlapping, sizeof(overlapping),
				    masks[m], 2, SLIDE);
		assert_int_equal(reloc_schedule_finish(&s), KS_EFORMAT);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_written_patches_only_early_fields_below_it),
		cmocka_unit_test(test_final_patches_late_fields_below_it),
		cmocka_unit_test(test_every_order_of_reports_gives_reloc_apply),
		cmocka_unit_test(test_no_runs_means_every_field_waits_for_final),
		cmocka_unit_test(test_a_truncated_run_is_refused),
		cmocka_unit_test(test_a_skipped_field_out_of_bounds_is_refused),
		cmocka_unit_test(test_an_overlapping_field_is_refused_by_its_own_half),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
