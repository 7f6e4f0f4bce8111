/*
 * lib/'s zstd decoder built once more, for kslide-pack alone, with a hook on every match: the
 * packer learns which output bytes each block reads (tools/pack/early_relocs.c). The stub and
 * the tests build lib/zstd_*.c without it (ZSTD_OBSERVE_MATCH in lib/zstd_sequences.c).
 */
#ifndef KSLIDE_TOOLS_PACK_ZSTD_OBSERVED_H
#define KSLIDE_TOOLS_PACK_ZSTD_OBSERVED_H

#include <stddef.h>
#include <stdint.h>

#include "lib/decompress.h"

/* Called for every match with the len output bytes it copies from, before it copies them. */
struct zstd_match_observer {
	void (*match)(void *ctx, const uint8_t *from, size_t len);
	void *ctx;
};

/* zstd_decompress (lib/zstd.h), telling observer of every match. Not reentrant: one decode at
 * a time in the process. */
int zstd_decompress_observed(void *workspace, size_t workspace_size, void *dst,
			     size_t dst_capacity, const void *src, size_t src_len, size_t *out_len,
			     const struct decode_progress *progress, const char **why,
			     const struct zstd_match_observer *observer);

#endif
