/* Checks a packed image (include/kslide/image.h) before the stub trusts any of its fields. */
#ifndef KSLIDE_LIB_IMAGE_H
#define KSLIDE_LIB_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "include/kslide/image.h"
#include "lib/crc32.h"
#include "lib/shuffle.h"
#include "lib/word_sums.h"

#define IMAGE_MIN_ALIGN 0x1000u /* kernels rely on page-aligned sections */
/* image_verify's reason for a checksum that does not match, and the stub's for payload sums. */
#define IMAGE_CORRUPT "checksum mismatch: the image is corrupt"

/*
 * 'image' points at the image's first byte and 'available' bytes of it are loaded; 'header'
 * is the copy of the header inside it. Checks magic, version, sizes and offsets against each
 * other and against 'available', alignment and bounds, then the checksum (the header, the
 * relocation table and the handoff data; not the payload, whose sums the stub takes while it
 * copies it: image_payload_sums). Returns KS_OK, or KS_EFORMAT with *why naming the first
 * problem found.
 */
int image_verify(const uint8_t *image, uint64_t available, const struct kslide_image_header *header,
		 const char **why);

/* image_verify with another routine in crc32_update's place (the stub's PCLMULQDQ one). */
int image_verify_with(const uint8_t *image, uint64_t available,
		      const struct kslide_image_header *header, const char **why, crc32_fn *crc);

/*
 * The sums of the stub's self-check (include/kslide/image.h, stub_sum): over the 32-bit
 * little-endian words of size bytes (a multiple of 4) from 'from', the end of the header.
 */
void image_stub_sums(const uint8_t *from, size_t size, uint32_t *sum, uint32_t *sum_of_sums);

/* The checksum image_verify expects: CRC-32 of the header (checksum field as 0), the
 * relocation table as stored, the handoff data and the shuffle table (if any). */
uint32_t image_checksum(const uint8_t *image, const struct kslide_image_header *header);
uint32_t image_checksum_with(const uint8_t *image, const struct kslide_image_header *header,
			     crc32_fn *crc);

/* The word sums of the payload as stored (the header's payload_sum and payload_sum_of_sums),
 * for a header that passed image_verify. */
void image_payload_sums(const uint8_t *image, const struct kslide_image_header *header,
			struct word_sums *sums);

/* Whether sums are the header's payload_sum and payload_sum_of_sums. */
int image_payload_sums_match(const struct kslide_image_header *header,
			     const struct word_sums *sums);

/* Where the shuffle table starts: after the handoff data with KSLIDE_IMAGE_SHUFFLE, else
 * image_file_size (an empty tail). For a header whose layout image_verify checked. */
uint64_t image_shuffle_offset(const struct kslide_image_header *header);

/* The shuffle table of a verified image with KSLIDE_IMAGE_SHUFFLE, parsed (lib/shuffle.h):
 * KS_OK, or KS_EFORMAT with *why. image_verify has already done this once. Only an image whose
 * kernel moves by one slide may have one: i386, or x86-64 without a virtual window. */
int image_shuffle_table(const uint8_t *image, const struct kslide_image_header *header,
			struct shuffle_table *t, const char **why);

#endif
