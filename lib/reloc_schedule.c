/*
 * The early and late fields of a compressed payload, patched as the decoder reports its
 * progress (lib/reloc_schedule.h).
 */
#include "lib/reloc_schedule.h"
#include "lib/errors.h"

void reloc_schedule_init(struct reloc_schedule *s, uint8_t *image, uint64_t image_size,
			 const uint8_t *table, size_t table_size, const uint8_t *runs,
			 size_t runs_size, int64_t delta)
{
	reloc_stream_init(&s->late, image, image_size, table, table_size, delta);
	if (runs_size == 0) { /* every field late: the early stream has nothing to do */
		reloc_stream_init(&s->early, image, image_size, NULL, 0, delta);
		return;
	}
	reloc_stream_init(&s->early, image, image_size, table, table_size, delta);
	reloc_stream_runs(&s->early, runs, runs_size, 0);
	reloc_stream_runs(&s->late, runs, runs_size, 1);
}

int reloc_schedule_status(const struct reloc_schedule *s)
{
	return s->early.status != KS_OK ? s->early.status : s->late.status;
}

/* After each zstd block: the early fields it completed. */
static int patch_written(void *ctx, size_t written)
{
	struct reloc_schedule *s = ctx;
	return reloc_stream_patch(&s->early, written);
}

/* Final bytes are written too: both halves' fields there. */
static int patch_final(void *ctx, size_t final)
{
	struct reloc_schedule *s = ctx;
	int rc = reloc_stream_patch(&s->early, final);
	return rc != KS_OK ? rc : reloc_stream_patch(&s->late, final);
}

struct decode_progress reloc_schedule_progress(struct reloc_schedule *s)
{
	return (struct decode_progress){ .final = patch_final, .ctx = s, .written = patch_written };
}

int reloc_schedule_finish(struct reloc_schedule *s)
{
	reloc_stream_patch(&s->early, s->early.image_size);
	reloc_stream_patch(&s->late, s->late.image_size);
	return reloc_schedule_status(s);
}
