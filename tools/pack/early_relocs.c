/*
 * Splitting a zstd payload's relocations into early and late ones, and proving the split
 * (tools/pack/early_relocs.h; the stub's side: lib/reloc_schedule.h).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/errors.h"
#include "lib/reloc.h"
#include "lib/reloc_schedule.h"
#include "lib/zstd.h"
#include "tools/pack/early_relocs.h"
#include "tools/pack/fail.h"
#include "tools/pack/zstd_observed.h"

/* Slides the proof tries, in steps of the image's alignment (early_relocs.h). */
static const int64_t proof_steps[] = { 0x10101, 1, -1 };

static _Alignas(ZSTD_WORKSPACE_ALIGN) uint8_t workspace[ZSTD_WORKSPACE_SIZE];

/* What the watched decode learns: which output bytes a later block reads. */
struct reads {
	const uint8_t *dst;
	size_t block_start; /* output written before the block being decoded */
	uint8_t *read_later; /* one flag per output byte */
};

/* A match reads [from, from + len): the part written by earlier blocks is read later. */
static void note_match(void *ctx, const uint8_t *from, size_t len)
{
	struct reads *r = ctx;
	size_t at = (size_t)(from - r->dst), end = at + len;
	if (end > r->block_start)
		end = r->block_start;
	if (at < end)
		memset(r->read_later + at, 1, end - at);
}

static int note_block(void *ctx, size_t written)
{
	struct reads *r = ctx;
	r->block_start = written;
	return KS_OK;
}

static unsigned width_of(enum reloc_kind kind)
{
	return kind == RELOC_ADD64 ? 8 : 4;
}

int early_relocs_classify(const uint8_t *frame, size_t frame_size, size_t file_size,
			  const struct fixup *fixups, size_t n, bool *early, char *err,
			  size_t err_cap)
{
	uint8_t *out = malloc(file_size + 1);
	struct reads r = { out, 0, calloc(file_size + 1, 1) };
	if (!out || !r.read_later) {
		free(out);
		free(r.read_later);
		return pack_fail(err, err_cap, "out of memory");
	}
	struct zstd_match_observer observer = { note_match, &r };
	struct decode_progress progress = { .written = note_block, .ctx = &r };
	size_t got;
	const char *why = "";
	int rc = zstd_decompress_observed(workspace, sizeof(workspace), out, file_size, frame,
					  frame_size, &got, &progress, &why, &observer);
	if (rc == KS_OK && got != file_size) {
		rc = KS_EFORMAT;
		why = "it decodes to another size";
	}
	for (size_t i = 0; rc == KS_OK && i < n; i++) {
		uint64_t start = fixups[i].offset, end = start + width_of(fixups[i].kind);
		early[i] = true;
		for (uint64_t b = start; b < end && b < file_size; b++)
			early[i] &= !r.read_later[b];
	}
	free(out);
	free(r.read_later);
	if (rc != KS_OK)
		return pack_fail(err, err_cap, "internal error: the payload's frame: %s", why);
	return 0;
}

/* frame decoded into out, mem_size bytes with the bss cleared, progress told as it goes. */
static int decode_into(uint8_t *out, const uint8_t *frame, size_t frame_size, size_t file_size,
		       size_t mem_size, const struct decode_progress *progress)
{
	size_t got = 0;
	int rc = zstd_decompress(workspace, sizeof(workspace), out, file_size, frame, frame_size,
				 &got, progress, NULL);
	if (rc == KS_OK && got != file_size)
		rc = KS_EFORMAT;
	if (rc == KS_OK)
		memset(out + file_size, 0, mem_size - file_size);
	return rc;
}

int early_relocs_compare(const uint8_t *frame, size_t frame_size, size_t file_size,
			 size_t mem_size, const uint8_t *table, size_t table_size,
			 const uint8_t *runs, size_t runs_size, int64_t slide, bool *compared,
			 char *err, size_t err_cap)
{
	*compared = false;
	uint8_t *want = malloc(mem_size + 1), *got = malloc(mem_size + 1);
	int rc = want && got ? decode_into(want, frame, frame_size, file_size, mem_size, NULL)
			     : KS_ENOSPC;
	if (rc == KS_OK && reloc_apply(want, mem_size, table, table_size, slide) != KS_OK) {
		free(want);
		free(got);
		return 0;
	}
	if (rc == KS_OK) {
		/* The schedule patches the buffer the decoder fills: it is made before either. */
		struct reloc_schedule schedule;
		reloc_schedule_init(&schedule, got, mem_size, table, table_size, runs, runs_size,
				    slide);
		struct decode_progress progress = reloc_schedule_progress(&schedule);
		rc = decode_into(got, frame, frame_size, file_size, mem_size, &progress);
		if (rc == KS_OK)
			rc = reloc_schedule_finish(&schedule);
	}
	int result = 0;
	if (rc != KS_OK) {
		result = pack_fail(err, err_cap,
				   "internal error: relocating the zstd payload block by block "
				   "fails at slide %+lld: %s; not writing the image",
				   (long long)slide, ks_strerror(rc));
	} else {
		size_t at = 0;
		while (at < mem_size && want[at] == got[at])
			at++;
		*compared = true;
		if (at < mem_size)
			result = pack_fail(err, err_cap,
					   "internal error: relocating the zstd payload block by "
					   "block gives another kernel than relocating it whole "
					   "(first at payload offset 0x%zx, slide %+lld): a field "
					   "listed as early is read by a later block; not writing "
					   "the image",
					   at, (long long)slide);
	}
	free(want);
	free(got);
	return result;
}

/* One run's count onto out; false when it does not fit. */
static bool put_run(uint8_t *out, size_t cap, size_t *used, size_t count)
{
	size_t w = reloc_put_uleb128(out + *used, cap - *used, count);
	*used += w;
	return w != 0;
}

/*
 * The runs of early[0, n): late first, alternating; early runs shorter than EARLY_RUN_MIN
 * join the late runs around them; the last late run is left implicit.
 */
static uint8_t *encode_runs(const bool *early, size_t n, size_t *size, size_t *early_count)
{
	size_t cap = 10 * (n + 2), used = 0;
	uint8_t *out = malloc(cap);
	size_t late = 0;
	*early_count = 0;
	for (size_t i = 0; out && i < n;) {
		size_t j = i;
		while (j < n && early[j] == early[i])
			j++;
		if (!early[i] || j - i < EARLY_RUN_MIN) {
			late += j - i;
		} else if (!put_run(out, cap, &used, late) || !put_run(out, cap, &used, j - i)) {
			free(out);
			return NULL;
		} else {
			late = 0;
			*early_count += j - i;
		}
		i = j;
	}
	*size = used;
	return out;
}

int early_relocs_runs(const struct kernel_elf *k, const uint8_t *frame, size_t frame_size,
		      const uint8_t *table, size_t table_size, uint64_t step, uint8_t **runs,
		      size_t *runs_size, size_t *early_count, char *err, size_t err_cap)
{
	bool *early = malloc((k->fixup_count + 1) * sizeof(*early));
	if (!early)
		return pack_fail(err, err_cap, "out of memory");
	if (early_relocs_classify(frame, frame_size, k->file_size, k->fixups, k->fixup_count,
				  early, err, err_cap)) {
		free(early);
		return -1;
	}
	*runs = encode_runs(early, k->fixup_count, runs_size, early_count);
	free(early);
	if (!*runs)
		return pack_fail(err, err_cap, "out of memory");
	for (size_t i = 0; i < sizeof(proof_steps) / sizeof(proof_steps[0]); i++) {
		bool compared;
		if (early_relocs_compare(frame, frame_size, k->file_size, k->mem_size, table,
					 table_size, *runs, *runs_size,
					 proof_steps[i] * (int64_t)step, &compared, err, err_cap)) {
			free(*runs);
			*runs = NULL;
			return -1;
		}
		if (compared)
			return 0;
	}
	/* No slide to prove them at: no runs, every field late. */
	*runs_size = 0;
	*early_count = 0;
	return 0;
}
