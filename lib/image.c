/* Packed image validation: every size and offset is checked before it is used. */
#include <stddef.h>

#include "lib/image.h"
#include "lib/crc32.h"
#include "lib/errors.h"
#include "lib/shuffle.h"
#include "lib/word_sums.h"

_Static_assert(offsetof(struct kslide_image_header, stub_sum) == KSLIDE_HEADER_STUB_SUM,
	       "boot/x86/self_check.h reads stub_sum at this offset");
_Static_assert(offsetof(struct kslide_image_header, stub_sum_of_sums) ==
		       KSLIDE_HEADER_STUB_SUM_OF_SUMS,
	       "boot/x86/self_check.h reads stub_sum_of_sums at this offset");

static int fail(const char **why, const char *reason)
{
	*why = reason;
	return KS_EFORMAT;
}

static int is_pow2(uint64_t v)
{
	return v != 0 && (v & (v - 1)) == 0;
}

/* [offset, offset + size) inside [0, limit), without overflow. */
static int inside(uint64_t offset, uint64_t size, uint64_t limit)
{
	return offset <= limit && size <= limit - offset;
}

void image_stub_sums(const uint8_t *from, size_t size, uint32_t *sum, uint32_t *sum_of_sums)
{
	struct word_sums s = { 0, 0 };
	word_sums_add(&s, from, size);
	*sum = s.sum;
	*sum_of_sums = s.sum_of_sums;
}

uint32_t image_checksum(const uint8_t *image, const struct kslide_image_header *header)
{
	return image_checksum_with(image, header, crc32_update);
}

uint32_t image_checksum_with(const uint8_t *image, const struct kslide_image_header *header,
			     crc32_fn *crc32)
{
	struct kslide_image_header copy = *header;
	copy.checksum = 0;
	uint32_t crc = crc32(0, &copy, sizeof(copy));
	crc = crc32(crc, image + header->relocs_offset, header->relocs_stored_size);
	crc = crc32(crc, image + header->handoff_data_offset, header->handoff_data_size);
	uint64_t tail = image_shuffle_offset(header);
	return crc32(crc, image + tail, header->image_file_size - tail);
}

uint64_t image_shuffle_offset(const struct kslide_image_header *header)
{
	if (!(header->flags & KSLIDE_IMAGE_SHUFFLE))
		return header->image_file_size;
	return header->handoff_data_offset + header->handoff_data_size;
}

int image_shuffle_table(const uint8_t *image, const struct kslide_image_header *h,
			struct shuffle_table *t, const char **why)
{
	/* kslide-pack proves the table's 32-bit fields against its window of physical bases,
	 * which bounds the virtual ones only when the virtual base follows the physical one (one
	 * slide: an i386 image, or an x86-64 one with no virtual window), and writes no other. */
	if (h->arch != KSLIDE_ARCH_I386 && h->virt_align)
		return fail(why, "shuffle table on an x86-64 image with a virtual window of its own");
	uint64_t at = image_shuffle_offset(h);
	return shuffle_parse(image + at, (size_t)(h->image_file_size - at), h->payload_mem_size,
			     h->entry_offset, t, why);
}

void image_payload_sums(const uint8_t *image, const struct kslide_image_header *header,
			struct word_sums *sums)
{
	*sums = (struct word_sums){ 0, 0 };
	word_sums_add(sums, image + header->payload_offset, header->payload_stored_size);
}

int image_payload_sums_match(const struct kslide_image_header *header,
			     const struct word_sums *sums)
{
	return sums->sum == header->payload_sum && sums->sum_of_sums == header->payload_sum_of_sums;
}

static int check_layout(uint64_t available, const struct kslide_image_header *h, const char **why)
{
	if (h->image_file_size > available)
		return fail(why, "image is larger than what the boot loader loaded (truncated?)");
	if (!inside(h->payload_offset, h->payload_stored_size, h->image_file_size))
		return fail(why, "payload lies outside the image");
	if (h->payload_codec > KSLIDE_CODEC_LZ4)
		return fail(why, "payload codec unknown to this reader");
	if (h->payload_codec == KSLIDE_CODEC_NONE && h->payload_stored_size != h->payload_file_size)
		return fail(why, "uncompressed payload's stored size differs from its file size");
	if (!inside(h->relocs_offset, h->relocs_stored_size, h->image_file_size))
		return fail(why, "relocation table lies outside the image");
	if ((h->payload_codec == KSLIDE_CODEC_NONE || h->relocs_size == 0)
		    ? h->relocs_stored_size != h->relocs_size
		    : h->relocs_stored_size == 0)
		return fail(why, "relocation table's stored size does not fit its size and codec");
	/* Each run after the first covers a field, which takes a table byte at least. */
	if (h->relocs_runs_size > h->relocs_size ||
	    ((h->payload_codec == KSLIDE_CODEC_NONE || h->relocs_size == 0) &&
	     h->relocs_runs_size != 0))
		return fail(why, "relocation runs do not fit the table and its codec");
	if (!inside(h->handoff_data_offset, h->handoff_data_size, h->image_file_size))
		return fail(why, "handoff data lies outside the image");
	/* The shuffle table is the image's tail, after the handoff data and after every other
	 * part (kslide-pack writes them in that order). */
	if ((h->flags & KSLIDE_IMAGE_SHUFFLE) &&
	    (h->payload_offset + h->payload_stored_size > h->handoff_data_offset ||
	     h->relocs_offset + h->relocs_stored_size > h->handoff_data_offset ||
	     h->handoff_data_offset + h->handoff_data_size >= h->image_file_size))
		return fail(why, "shuffle table does not follow the image's other parts");
	if (h->payload_mem_size < h->payload_file_size || h->payload_mem_size == 0)
		return fail(why, "payload memory size is smaller than its file size");
	if (h->memory_size < h->payload_mem_size)
		return fail(why, "memory size is smaller than the payload's");
	if (h->entry_offset >= h->payload_mem_size)
		return fail(why, "entry point outside the kernel");
	return KS_OK;
}

static int check_placement(const struct kslide_image_header *h, const char **why)
{
	if (!is_pow2(h->align) || h->align < IMAGE_MIN_ALIGN)
		return fail(why, "alignment is not a power of two of at least 4 KiB");
	if (h->link_phys_base & (IMAGE_MIN_ALIGN - 1))
		return fail(why, "link base is not page aligned");
	if (h->phys_min > h->phys_max)
		return fail(why, "physical bounds are inverted");
	if (h->memory_size - 1 > UINT64_MAX - h->link_phys_base)
		return fail(why, "kernel extends past the end of the address space");
	if (h->virt_align == 0)
		return KS_OK;
	if (!is_pow2(h->virt_align) || h->virt_align < IMAGE_MIN_ALIGN)
		return fail(why, "virtual alignment is not a power of two of at least 4 KiB");
	if (h->link_virt_base & (IMAGE_MIN_ALIGN - 1))
		return fail(why, "virtual link base is not page aligned");
	if (h->virt_min > h->virt_max)
		return fail(why, "virtual bounds are inverted");
	return KS_OK;
}

int image_verify(const uint8_t *image, uint64_t available, const struct kslide_image_header *h,
		 const char **why)
{
	return image_verify_with(image, available, h, why, crc32_update);
}

int image_verify_with(const uint8_t *image, uint64_t available,
		      const struct kslide_image_header *h, const char **why, crc32_fn *crc)
{
	static const char magic[KSLIDE_IMAGE_MAGIC_BYTES] = KSLIDE_IMAGE_MAGIC;
	for (int i = 0; i < KSLIDE_IMAGE_MAGIC_BYTES; i++)
		if (h->magic[i] != (uint8_t)magic[i])
			return fail(why, "bad magic: not a kslide image");
	if (h->version != KSLIDE_IMAGE_VERSION)
		return fail(why, "image format version is not the one this reader knows");
	if (h->header_size != sizeof(*h))
		return fail(why, "header size does not match this stub");
	int rc = check_layout(available, h, why);
	if (rc == KS_OK)
		rc = check_placement(h, why);
	if (rc == KS_OK && image_checksum_with(image, h, crc) != h->checksum)
		return fail(why, IMAGE_CORRUPT);
	struct shuffle_table table;
	if (rc == KS_OK && (h->flags & KSLIDE_IMAGE_SHUFFLE))
		rc = image_shuffle_table(image, h, &table, why);
	return rc;
}
