/*
 * Unit tests for tools/pack/early_relocs.c: which fields of a zstd payload a later block
 * reads, found by watching lib/'s decoder on a frame that libzstd (the oracle) made, and the
 * pack-time proof that refuses a field listed early that a later block reads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zstd.h>

#include "lib/reloc.h"
#include "tools/pack/early_relocs.h"
#include "tools/pack/image_writer.h"

#define BLOCK	     (128 * 1024) /* zstd's largest block: libzstd cuts the input so */
#define PAYLOAD_SIZE (5 * BLOCK)
#define MEM_SIZE     (PAYLOAD_SIZE + 4096)
#define REPEATED     1000 /* REPEATED_LEN bytes at this offset, in the first block ... */
#define REPEATED_LEN 8192 /* libzstd stores a block raw unless it gains 2 KiB */
#define COPY	     (4 * BLOCK + 500) /* ... repeated here, in the last */
#define SLIDE	     0x200000

static uint8_t *payload;
static uint8_t *frame;
static size_t frame_size;

/* Bytes no compressor shortens (xorshift), but for the one repeated run. */
static int make_frame(void **state)
{
	(void)state;
	payload = malloc(PAYLOAD_SIZE);
	frame = malloc(ZSTD_compressBound(PAYLOAD_SIZE));
	assert_non_null(payload);
	assert_non_null(frame);
	uint64_t x = 0x9E3779B97F4A7C15u;
	for (size_t i = 0; i < PAYLOAD_SIZE; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		payload[i] = (uint8_t)x;
	}
	memcpy(payload + COPY, payload + REPEATED, REPEATED_LEN);
	/* Long-distance matching finds the repeat 512 KiB back, which a fast level's hash
	 * table would have forgotten. */
	ZSTD_CCtx *cctx = ZSTD_createCCtx();
	assert_non_null(cctx);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 3);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_enableLongDistanceMatching, 1);
	frame_size = ZSTD_compress2(cctx, frame, ZSTD_compressBound(PAYLOAD_SIZE), payload,
				    PAYLOAD_SIZE);
	ZSTD_freeCCtx(cctx);
	assert_false(ZSTD_isError(frame_size));
	return 0;
}

static int free_frame(void **state)
{
	(void)state;
	free(payload);
	free(frame);
	return 0;
}

static void test_a_field_a_later_block_copies_is_late(void **state)
{
	(void)state;
	const struct fixup fixups[] = {
		{ 100, RELOC_ADD32 },		       /* first block, never copied */
		{ REPEATED - 2, RELOC_ADD32 },	       /* its second half copied */
		{ REPEATED + 16, RELOC_ADD32 },	       /* copied by the last block */
		{ REPEATED + REPEATED_LEN - 2, RELOC_ADD32 }, /* its first half copied */
		{ 2 * BLOCK + 40, RELOC_ADD64 },       /* a middle block, never copied */
		{ COPY + 16, RELOC_ADD32 },	       /* the copy itself: nothing reads it */
		{ PAYLOAD_SIZE + 8, RELOC_ADD32 },     /* bss */
	};
	const bool want[] = { true, false, false, false, true, true, true };
	enum { N = sizeof(want) / sizeof(want[0]) };
	bool early[N];
	char err[256];
	assert_int_equal(early_relocs_classify(frame, frame_size, PAYLOAD_SIZE, fixups, N, early,
					       err, sizeof(err)),
			 0);
	for (size_t i = 0; i < N; i++)
		assert_int_equal(early[i], want[i]);
}

/* n fixups: a run of early ones in the first block, one that the last block copies, a run
 * of early ones in the third block. */
static struct kernel_elf two_runs_around_a_late_one(struct fixup *fixups, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fixups[i] = (struct fixup){ i < n / 2	? 8 * i
					    : i == n / 2 ? REPEATED + 16
							 : 2 * BLOCK + 8 * i,
					    RELOC_ADD32 };
	return (struct kernel_elf){ .payload = payload, .file_size = PAYLOAD_SIZE,
				    .mem_size = MEM_SIZE, .fixups = fixups, .fixup_count = n };
}

/* The runs early_relocs_runs writes for k, and how many fields they make early. */
static size_t runs_of(const struct kernel_elf *k, uint8_t *out, size_t cap, size_t *early_count)
{
	uint8_t *table, *runs;
	size_t table_size, runs_size;
	char err[256];
	assert_int_equal(pack_encode_fixups(k->fixups, k->fixup_count, &table, &table_size, err,
					    sizeof(err)),
			 0);
	assert_int_equal(early_relocs_runs(k, frame, frame_size, table, table_size, 0x1000, &runs,
					   &runs_size, early_count, err, sizeof(err)),
			 0);
	assert_true(runs_size <= cap);
	memcpy(out, runs, runs_size);
	free(table);
	free(runs);
	return runs_size;
}

static void test_runs_list_the_late_field_between_early_runs(void **state)
{
	(void)state;
	enum { N = 2 * EARLY_RUN_MIN + 1 };
	struct fixup fixups[N];
	struct kernel_elf k = two_runs_around_a_late_one(fixups, N);
	uint8_t runs[16];
	size_t early_count;
	const uint8_t want[] = { 0, N / 2, 1, N / 2 };
	assert_int_equal(runs_of(&k, runs, sizeof(runs), &early_count), sizeof(want));
	assert_memory_equal(runs, want, sizeof(want));
	assert_int_equal(early_count, N - 1);
}

static void test_short_early_runs_join_the_late_ones(void **state)
{
	(void)state;
	enum { N = 2 * (EARLY_RUN_MIN - 1) + 1 };
	struct fixup fixups[N];
	struct kernel_elf k = two_runs_around_a_late_one(fixups, N);
	uint8_t runs[16];
	size_t early_count;
	assert_int_equal(runs_of(&k, runs, sizeof(runs), &early_count), 0);
	assert_int_equal(early_count, 0);
}

/* The proof: a copied field listed early changes the kernel, and the packer says where. */
static void test_the_proof_refuses_a_copied_field_listed_early(void **state)
{
	(void)state;
	const struct fixup fixups[] = { { 100, RELOC_ADD32 }, { REPEATED + 16, RELOC_ADD32 } };
	uint8_t *table;
	size_t table_size;
	char err[512];
	assert_int_equal(pack_encode_fixups(fixups, 2, &table, &table_size, err, sizeof(err)), 0);
	bool compared;
	const uint8_t right[] = { 0, 1 }, wrong[] = { 0, 2 };
	assert_int_equal(early_relocs_compare(frame, frame_size, PAYLOAD_SIZE, MEM_SIZE, table,
					      table_size, right, sizeof(right), SLIDE, &compared,
					      err, sizeof(err)),
			 0);
	assert_true(compared);
	assert_int_equal(early_relocs_compare(frame, frame_size, PAYLOAD_SIZE, MEM_SIZE, table,
					      table_size, wrong, sizeof(wrong), SLIDE, &compared,
					      err, sizeof(err)),
			 -1);
	char where[64]; /* the copy's third byte: the slide changes its third byte */
	snprintf(where, sizeof(where), "first at payload offset 0x%x", COPY + 16 + 2);
	assert_non_null(strstr(err, where));
	assert_non_null(strstr(err, "not writing the image"));
	free(table);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_field_a_later_block_copies_is_late),
		cmocka_unit_test(test_runs_list_the_late_field_between_early_runs),
		cmocka_unit_test(test_short_early_runs_join_the_late_ones),
		cmocka_unit_test(test_the_proof_refuses_a_copied_field_listed_early),
	};
	return cmocka_run_group_tests(tests, make_frame, free_frame);
}
