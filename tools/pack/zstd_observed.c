/*
 * lib/zstd_sequences.c and lib/zstd_frame.c compiled again under other names, with
 * ZSTD_OBSERVE_MATCH calling the observer (tools/pack/zstd_observed.h). The other parts of the
 * decoder (literals, Huffman, FSE) are the packer's ordinary lib/ objects.
 */
#include "tools/pack/zstd_observed.h"

static const struct zstd_match_observer *watching;

#define ZSTD_OBSERVE_MATCH(from, len) watching->match(watching->ctx, (from), (len))
#define zstd_decompress zstd_decompress_unobserved
#define zstd_execute_sequences zstd_execute_sequences_observed
#include "lib/zstd_frame.c"
#include "lib/zstd_sequences.c"
#undef zstd_decompress

int zstd_decompress_observed(void *workspace, size_t workspace_size, void *dst,
			     size_t dst_capacity, const void *src, size_t src_len, size_t *out_len,
			     const struct decode_progress *progress, const char **why,
			     const struct zstd_match_observer *observer)
{
	watching = observer;
	int rc = zstd_decompress_unobserved(workspace, workspace_size, dst, dst_capacity, src,
					    src_len, out_len, progress, why);
	watching = NULL;
	return rc;
}
