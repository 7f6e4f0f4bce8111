/*
 * When each relocation of a compressed payload is patched (image format 6, docs/format.md).
 * The table's frame decodes to the relocation table, then its runs (lib/reloc.h,
 * reloc_stream_runs): which fields are early and which late.
 *
 * An early field is one no later zstd block reads (kslide-pack proves it at pack time:
 * tools/pack/early_relocs.h). It is patched as soon as the decoder has written it, after the
 * block that holds its last byte, while that block is still in cache. A late field waits
 * until the decoder reports it final (lib/decompress.h): for zstd, whose window is the whole
 * kernel, the frame's end. Two reloc_streams walk the one table, each patching its half and
 * walking over the other, so every field is checked (bounds, order, overflow) as it is
 * patched, and a failure stops the decoder. With no runs (LZ4 images) every field is late:
 * one stream fed by 'final', as before format 6.
 */
#ifndef KSLIDE_LIB_RELOC_SCHEDULE_H
#define KSLIDE_LIB_RELOC_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/decompress.h"
#include "lib/reloc.h"

struct reloc_schedule {
	struct reloc_stream early, late;
};

/* As reloc_stream_init, with the runs of reloc_stream_runs (runs_size 0: none). */
void reloc_schedule_init(struct reloc_schedule *s, uint8_t *image, uint64_t image_size,
			 const uint8_t *table, size_t table_size, const uint8_t *runs,
			 size_t runs_size, int64_t delta);

/* The hooks to hand the decoder: they patch what each report allows. */
struct decode_progress reloc_schedule_progress(struct reloc_schedule *s);

/* After the decoder succeeded and the bss is cleared: patch every field left, up to the
 * image's end. Returns reloc_schedule_status. */
int reloc_schedule_finish(struct reloc_schedule *s);

/* The first failure of either half so far (the early one's if both failed), or KS_OK. */
int reloc_schedule_status(const struct reloc_schedule *s);

#endif
