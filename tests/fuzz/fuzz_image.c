/*
 * libFuzzer target: lib/image.c image_verify on arbitrary bytes, with the header copied from
 * offset 0 (the stub copies it out of the image the same way). The fuzzer cannot forge a
 * CRC-32, so when the checksum is the only complaint the harness fixes it and verifies again:
 * that pass must succeed, and whatever succeeds must satisfy the header's documented contract
 * and have payload sums that read only the payload (ASan sees a read past the input).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/errors.h"
#include "lib/image.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int is_pow2(uint64_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

/* [offset, offset + length) lies inside [0, limit). */
static int inside(uint64_t offset, uint64_t length, uint64_t limit)
{
	return offset <= limit && length <= limit - offset;
}

/*
 * What a header that passed image_verify promises (include/kslide/image.h). A compressed
 * payload decodes to payload_file_size bytes in the slot, its table to relocs_size bytes in
 * lent memory; only their stored bytes are in the file.
 */
static void check_contract(const struct kslide_image_header *h, size_t size)
{
	int raw_table = h->payload_codec == KSLIDE_CODEC_NONE || h->relocs_size == 0;
	if (h->image_file_size > size || !inside(h->payload_offset, h->payload_stored_size, size) ||
	    h->payload_codec > KSLIDE_CODEC_LZ4 ||
	    (h->payload_codec == KSLIDE_CODEC_NONE && h->payload_stored_size != h->payload_file_size) ||
	    !inside(h->relocs_offset, h->relocs_stored_size, size) ||
	    (raw_table ? h->relocs_stored_size != h->relocs_size : h->relocs_stored_size == 0) ||
	    h->relocs_runs_size > h->relocs_size || (raw_table && h->relocs_runs_size != 0) ||
	    h->payload_mem_size < h->payload_file_size || h->payload_mem_size == 0 ||
	    h->entry_offset >= h->payload_mem_size || !is_pow2(h->align) ||
	    h->align < IMAGE_MIN_ALIGN || h->link_phys_base % IMAGE_MIN_ALIGN ||
	    h->phys_min > h->phys_max ||
	    h->link_phys_base + (h->payload_mem_size - 1) < h->link_phys_base)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kslide_image_header h;
	if (size < sizeof(h))
		return 0;
	memcpy(&h, data, sizeof(h));
	const char *why = NULL;
	int rc = image_verify(data, size, &h, &why);
	if (rc != KS_OK) {
		if (rc != KS_EFORMAT || !why)
			abort();
		if (strncmp(why, "checksum", strlen("checksum")) != 0)
			return 0;
		h.checksum = image_checksum(data, &h);
		rc = image_verify(data, size, &h, &why);
		/* the checksum was the only problem, and it is fixed; or the shuffle table, read
		 * only behind a good checksum, is bad */
		if (rc != KS_OK && strncmp(why, "shuffle table", strlen("shuffle table")) == 0)
			return 0;
		if (rc != KS_OK)
			abort();
	}
	check_contract(&h, size);
	/* An exact-size copy, so ASan sees any read of the payload sums past the input. */
	uint8_t *copy = malloc(size);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	struct word_sums sums;
	image_payload_sums(copy, &h, &sums);
	free(copy);
	return 0;
}
