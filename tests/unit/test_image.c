/*
 * Unit tests for lib/image.c: a small valid image verifies, its checksum is the CRC-32 of
 * header (checksum as 0), relocs and handoff data, its payload sums are the word sums of the
 * stored payload, and each broken field is rejected by name.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/crc32.h"
#include "lib/errors.h"
#include "lib/image.h"

/*
 * The test image, 368 bytes:
 *
 *   0        16                  16+224   256         304        320            344       368
 *   | stub   | header            | stub   | payload   | relocs   | handoff data | padding |
 */
#define IMAGE_BYTES	  368u
#define HEADER_OFFSET	  16u
#define PAYLOAD_OFFSET	  256u
#define PAYLOAD_FILE_SIZE 48u
#define PAYLOAD_MEM_SIZE  0x3000u /* bss follows the file bytes */
#define MEMORY_SIZE	  0x5000u /* the kernel uses memory past its bss too */
#define RELOCS_OFFSET	  304u
#define RELOCS_SIZE	  16u
#define DATA_OFFSET	  320u
#define DATA_SIZE	  24u
#define LINK_BASE	  0x100000u
#define PAGE		  0x1000u

struct image {
	_Alignas(8) uint8_t bytes[IMAGE_BYTES];
};

static struct kslide_image_header *header_of(struct image *img)
{
	return (struct kslide_image_header *)(img->bytes + HEADER_OFFSET);
}

/* An independent checksum: one CRC over header (checksum 0) || relocs || data. */
static uint32_t reference_checksum(const struct image *img)
{
	uint8_t joined[sizeof(struct kslide_image_header) + RELOCS_SIZE + DATA_SIZE];
	struct kslide_image_header h;
	memcpy(&h, img->bytes + HEADER_OFFSET, sizeof(h));
	h.checksum = 0;
	uint8_t *p = joined;
	memcpy(p, &h, sizeof(h));
	memcpy(p += sizeof(h), img->bytes + RELOCS_OFFSET, RELOCS_SIZE);
	memcpy(p += RELOCS_SIZE, img->bytes + DATA_OFFSET, DATA_SIZE);
	return crc32_update(0, joined, sizeof(joined));
}

/* The payload sums by their definition: the words, and each word times the number of running
 * sums it is part of (itself and every later one). */
static void reference_payload_sums(const struct image *img, uint32_t *sum, uint32_t *sum_of_sums)
{
	const uint8_t *p = img->bytes + PAYLOAD_OFFSET;
	size_t words = (PAYLOAD_FILE_SIZE + 3) / 4;
	*sum = *sum_of_sums = 0;
	for (size_t i = 0; i < words; i++) {
		uint32_t w = 0;
		for (size_t b = 0; b < 4 && 4 * i + b < PAYLOAD_FILE_SIZE; b++)
			w |= (uint32_t)p[4 * i + b] << (8 * b);
		*sum += w;
		*sum_of_sums += w * (uint32_t)(words - i);
	}
}

static void seal(struct image *img)
{
	struct kslide_image_header *h = header_of(img);
	h->checksum = image_checksum(img->bytes, h);
}

static int payload_sums_match(const struct image *img)
{
	struct word_sums sums;
	const struct kslide_image_header *h = (const void *)(img->bytes + HEADER_OFFSET);
	image_payload_sums(img->bytes, h, &sums);
	return image_payload_sums_match(h, &sums);
}

static void build_valid(struct image *img)
{
	_Static_assert(HEADER_OFFSET + sizeof(struct kslide_image_header) <= PAYLOAD_OFFSET,
		       "header overlaps the payload");
	for (unsigned i = 0; i < IMAGE_BYTES; i++)
		img->bytes[i] = (uint8_t)(i * 37u + 11u);
	struct kslide_image_header *h = header_of(img);
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, KSLIDE_IMAGE_MAGIC, KSLIDE_IMAGE_MAGIC_BYTES);
	h->version = KSLIDE_IMAGE_VERSION;
	h->header_size = sizeof(*h);
	h->arch = KSLIDE_ARCH_I386;
	h->image_file_size = IMAGE_BYTES;
	h->payload_offset = PAYLOAD_OFFSET;
	h->payload_file_size = PAYLOAD_FILE_SIZE;
	h->payload_stored_size = PAYLOAD_FILE_SIZE;
	h->payload_mem_size = PAYLOAD_MEM_SIZE;
	h->relocs_offset = RELOCS_OFFSET;
	h->relocs_size = RELOCS_SIZE;
	h->relocs_stored_size = RELOCS_SIZE;
	h->memory_size = MEMORY_SIZE;
	h->handoff_data_offset = DATA_OFFSET;
	h->handoff_data_size = DATA_SIZE;
	h->handoff = KSLIDE_HANDOFF_KSLIDE;
	h->link_phys_base = LINK_BASE;
	h->link_virt_base = 0xc0100000u;
	h->entry_offset = 0x10;
	h->align = 0x200000;
	h->phys_min = 0x1000000;
	h->phys_max = 0xbfffffff;
	reference_payload_sums(img, &h->payload_sum, &h->payload_sum_of_sums);
	seal(img);
}

/* An uncompressed payload's size: in the file and as stored, which must agree. */
static void set_payload_size(struct image *img, uint64_t size)
{
	header_of(img)->payload_file_size = size;
	header_of(img)->payload_stored_size = size;
}

/* The same for an uncompressed relocation table. */
static void set_relocs_size(struct image *img, uint64_t size)
{
	header_of(img)->relocs_size = size;
	header_of(img)->relocs_stored_size = size;
}

static void expect_ok(struct image *img, uint64_t available)
{
	const char *why = NULL;
	int rc = image_verify(img->bytes, available, header_of(img), &why);
	if (rc != KS_OK)
		fail_msg("rejected: %s", why ? why : "(no reason)");
}

static void expect_rejected(struct image *img, uint64_t available, const char *reason)
{
	const char *why = NULL;
	assert_int_equal(image_verify(img->bytes, available, header_of(img), &why), KS_EFORMAT);
	assert_non_null(why);
	assert_string_equal(why, reason);
}

/* ---- the valid image ---- */

static void test_valid_image_verifies(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	expect_ok(&img, IMAGE_BYTES);
	expect_ok(&img, IMAGE_BYTES + 4096); /* the loader may have loaded more */
}

static void test_checksum_is_crc32_of_header_relocs_and_data(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	struct kslide_image_header *h = header_of(&img);
	uint32_t expected = reference_checksum(&img);
	assert_int_equal(h->checksum, expected);
	/* The checksum field itself does not count. */
	h->checksum = 0x12345678u;
	assert_int_equal(image_checksum(img.bytes, h), expected);
}

static void test_payload_sums_are_the_word_sums_of_the_stored_payload(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	assert_true(payload_sums_match(&img));
	uint32_t sum, sum_of_sums;
	reference_payload_sums(&img, &sum, &sum_of_sums);
	struct word_sums got;
	image_payload_sums(img.bytes, header_of(&img), &got);
	assert_int_equal(got.sum, sum);
	assert_int_equal(got.sum_of_sums, sum_of_sums);
	/* A payload of 47 bytes: the last word is padded with a zero byte. */
	set_payload_size(&img, PAYLOAD_FILE_SIZE - 1);
	image_payload_sums(img.bytes, header_of(&img), &got);
	assert_int_equal(got.sum, sum - ((uint32_t)img.bytes[PAYLOAD_OFFSET + 47] << 24));
}

static void test_bytes_outside_the_checked_pieces_do_not_matter(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	img.bytes[0] ^= 0xff;				/* stub before the header */
	img.bytes[PAYLOAD_OFFSET - 1] ^= 0xff;		/* stub between header and payload */
	img.bytes[DATA_OFFSET + DATA_SIZE] ^= 0xff;	/* padding after the handoff data */
	expect_ok(&img, IMAGE_BYTES);
}

static void test_boundary_values_are_accepted(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	struct kslide_image_header *h = header_of(&img);
	h->entry_offset = PAYLOAD_MEM_SIZE - 1; /* last byte of the kernel */
	h->align = IMAGE_MIN_ALIGN;
	h->phys_min = h->phys_max = 0x1000000; /* one allowed base is still a range */
	seal(&img);
	expect_ok(&img, IMAGE_BYTES);

	h->payload_mem_size = h->memory_size = PAYLOAD_FILE_SIZE; /* no bss, nothing past it */
	h->entry_offset = 0;
	h->handoff_data_size = 0; /* a handoff that needs no data */
	seal(&img);
	expect_ok(&img, IMAGE_BYTES);

	/* A kernel whose last byte is the last byte of the address space. */
	h->link_phys_base = UINT64_MAX - (PAGE - 1);
	h->payload_mem_size = h->memory_size = PAGE;
	seal(&img);
	expect_ok(&img, IMAGE_BYTES);
}

/* ---- identity ---- */

static void test_bad_magic_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	header_of(&img)->magic[KSLIDE_IMAGE_MAGIC_BYTES - 1] ^= 0x20; /* "KSLIDEIm" */
	seal(&img);
	expect_rejected(&img, IMAGE_BYTES, "bad magic: not a kslide image");
}

static void test_other_version_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	header_of(&img)->version = KSLIDE_IMAGE_VERSION + 1;
	seal(&img);
	expect_rejected(&img, IMAGE_BYTES, "image format version is not the one this reader knows");
}

static void test_other_header_size_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	header_of(&img)->header_size = sizeof(struct kslide_image_header) - 8;
	seal(&img);
	expect_rejected(&img, IMAGE_BYTES, "header size does not match this stub");
}

/* ---- layout ---- */

static void test_truncated_image_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	expect_rejected(&img, IMAGE_BYTES - 1,
			"image is larger than what the boot loader loaded (truncated?)");
}

static void test_payload_past_the_image_end_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	set_payload_size(&img, IMAGE_BYTES - PAYLOAD_OFFSET + 1);
	expect_rejected(&img, IMAGE_BYTES, "payload lies outside the image");
}

static void test_payload_offset_past_the_image_end_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	header_of(&img)->payload_offset = IMAGE_BYTES + 1;
	set_payload_size(&img, 0);
	expect_rejected(&img, IMAGE_BYTES, "payload lies outside the image");
}

static void test_relocs_past_the_image_end_are_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	header_of(&img)->relocs_offset = IMAGE_BYTES - RELOCS_SIZE + 1;
	expect_rejected(&img, IMAGE_BYTES, "relocation table lies outside the image");
}

/* offset + size wraps to a small number: a naive end check would accept these. */
static void test_payload_size_that_wraps_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	set_payload_size(&img, UINT64_MAX - PAYLOAD_OFFSET + 2); /* end wraps to 1 */
	header_of(&img)->payload_mem_size = UINT64_MAX;
	expect_rejected(&img, IMAGE_BYTES, "payload lies outside the image");
}

static void test_relocs_size_that_wraps_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	set_relocs_size(&img, UINT64_MAX - RELOCS_OFFSET + 2); /* end wraps to 1 */
	expect_rejected(&img, IMAGE_BYTES, "relocation table lies outside the image");
}

static void test_huge_offset_that_wraps_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	header_of(&img)->relocs_offset = UINT64_MAX - 7; /* + 16 wraps to 8 */
	expect_rejected(&img, IMAGE_BYTES, "relocation table lies outside the image");
}

static void test_handoff_data_past_the_image_end_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	header_of(&img)->handoff_data_size = IMAGE_BYTES - DATA_OFFSET + 1;
	expect_rejected(&img, IMAGE_BYTES, "handoff data lies outside the image");
	header_of(&img)->handoff_data_size = UINT64_MAX - DATA_OFFSET + 2; /* end wraps to 1 */
	expect_rejected(&img, IMAGE_BYTES, "handoff data lies outside the image");
}

static void test_memory_size_below_the_payloads_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	header_of(&img)->memory_size = PAYLOAD_MEM_SIZE - 1;
	expect_rejected(&img, IMAGE_BYTES, "memory size is smaller than the payload's");
}

static void test_memory_size_below_file_size_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	header_of(&img)->payload_mem_size = PAYLOAD_FILE_SIZE - 1;
	expect_rejected(&img, IMAGE_BYTES, "payload memory size is smaller than its file size");
}

static void test_empty_kernel_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	set_payload_size(&img, 0);
	header_of(&img)->payload_mem_size = 0;
	expect_rejected(&img, IMAGE_BYTES, "payload memory size is smaller than its file size");
}

/* A compressed payload's stored size is its own; an unknown codec and an uncompressed one whose
 * two sizes differ are refused, and the payload sums cover the stored bytes, not
 * payload_file_size of them. */
static void test_compressed_payload_sizes_are_checked(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	header_of(&img)->payload_codec = KSLIDE_CODEC_ZSTD;
	header_of(&img)->payload_file_size = PAYLOAD_FILE_SIZE * 4; /* decodes to more */
	header_of(&img)->relocs_size = RELOCS_SIZE * 3; /* so does the table */
	seal(&img);
	expect_ok(&img, IMAGE_BYTES);
	assert_true(payload_sums_match(&img));
	img.bytes[PAYLOAD_OFFSET + PAYLOAD_FILE_SIZE - 1] ^= 1; /* last stored byte */
	assert_false(payload_sums_match(&img));
	build_valid(&img);
	header_of(&img)->payload_codec = KSLIDE_CODEC_LZ4 + 1;
	expect_rejected(&img, IMAGE_BYTES, "payload codec unknown to this reader");
	build_valid(&img);
	header_of(&img)->payload_file_size = PAYLOAD_FILE_SIZE - 1;
	expect_rejected(&img, IMAGE_BYTES,
			"uncompressed payload's stored size differs from its file size");
}

/* Format 5: the table is stored as it is without a codec or when empty, else as a frame. */
static void test_relocation_table_stored_sizes_are_checked(void **state)
{
	(void)state;
	static const char why[] = "relocation table's stored size does not fit its size and codec";
	struct image img;
	build_valid(&img);
	header_of(&img)->relocs_size = RELOCS_SIZE + 1; /* uncompressed: must equal the stored */
	seal(&img);
	expect_rejected(&img, IMAGE_BYTES, why);
	header_of(&img)->payload_codec = KSLIDE_CODEC_LZ4;
	seal(&img);
	expect_ok(&img, IMAGE_BYTES);
	header_of(&img)->relocs_stored_size = 0; /* a table of 17 bytes in no frame at all */
	seal(&img);
	expect_rejected(&img, IMAGE_BYTES, why);
	header_of(&img)->relocs_size = 0; /* no table: nothing stored, whatever the codec */
	seal(&img);
	expect_ok(&img, IMAGE_BYTES);
	header_of(&img)->relocs_stored_size = 1;
	seal(&img);
	expect_rejected(&img, IMAGE_BYTES, why);
}

static void test_entry_past_the_kernel_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	header_of(&img)->entry_offset = PAYLOAD_MEM_SIZE; /* one past the last byte */
	expect_rejected(&img, IMAGE_BYTES, "entry point outside the kernel");
}

/* ---- placement ---- */

static void test_alignment_not_a_power_of_two_is_rejected(void **state)
{
	(void)state;
	static const uint64_t bad[] = {0, 0x3000, 0x201000, UINT64_MAX};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct image img;
		build_valid(&img);
		header_of(&img)->align = bad[i];
		expect_rejected(&img, IMAGE_BYTES,
				"alignment is not a power of two of at least 4 KiB");
	}
}

static void test_alignment_below_4k_is_rejected(void **state)
{
	(void)state;
	static const uint64_t bad[] = {1, 0x800, IMAGE_MIN_ALIGN / 2};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct image img;
		build_valid(&img);
		header_of(&img)->align = bad[i];
		expect_rejected(&img, IMAGE_BYTES,
				"alignment is not a power of two of at least 4 KiB");
	}
}

static void test_link_base_off_a_page_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	header_of(&img)->link_phys_base = LINK_BASE + 0x800;
	expect_rejected(&img, IMAGE_BYTES, "link base is not page aligned");
}

static void test_inverted_physical_bounds_are_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	header_of(&img)->phys_min = 0x2000000;
	header_of(&img)->phys_max = 0x1ffffff;
	expect_rejected(&img, IMAGE_BYTES, "physical bounds are inverted");
}

/* An x86-64 image: the virtual base has a window of its own. */
static void make_x86_64(struct image *img)
{
	struct kslide_image_header *h = header_of(img);
	h->arch = KSLIDE_ARCH_X86_64;
	h->link_virt_base = 0xffffffff81000000ull;
	h->virt_align = 0x200000;
	h->virt_min = 0xffffffff80000000ull;
	h->virt_max = 0xfffffffffeffffffull;
	seal(img);
}

static void test_x86_64_window_verifies(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	make_x86_64(&img);
	expect_ok(&img, IMAGE_BYTES);
	header_of(&img)->virt_min = header_of(&img)->virt_max; /* a one-byte window is legal */
	seal(&img);
	expect_ok(&img, IMAGE_BYTES);
}

/* A shuffle table only where the kernel moves by one slide: an x86-64 image with a virtual
 * window of its own is refused before its table is read; i386 and x86-64 without a window
 * get to the table itself (here the padding's bytes, which have no table magic). */
static void test_a_shuffle_table_needs_a_kernel_that_moves_by_one_slide(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	header_of(&img)->flags |= KSLIDE_IMAGE_SHUFFLE;
	seal(&img);
	expect_rejected(&img, IMAGE_BYTES, "shuffle table: no table magic");
	make_x86_64(&img);
	expect_rejected(&img, IMAGE_BYTES,
			"shuffle table on an x86-64 image with a virtual window of its own");
	struct kslide_image_header *h = header_of(&img);
	h->virt_align = h->virt_min = h->virt_max = 0;
	seal(&img);
	expect_rejected(&img, IMAGE_BYTES, "shuffle table: no table magic");
}

static void test_virtual_alignment_not_a_power_of_two_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	make_x86_64(&img);
	header_of(&img)->virt_align = 0x3000;
	seal(&img);
	expect_rejected(&img, IMAGE_BYTES,
			"virtual alignment is not a power of two of at least 4 KiB");
	header_of(&img)->virt_align = 0x800;
	seal(&img);
	expect_rejected(&img, IMAGE_BYTES,
			"virtual alignment is not a power of two of at least 4 KiB");
}

static void test_virtual_link_base_off_a_page_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	make_x86_64(&img);
	header_of(&img)->link_virt_base += 0x10;
	seal(&img);
	expect_rejected(&img, IMAGE_BYTES, "virtual link base is not page aligned");
}

static void test_inverted_virtual_bounds_are_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	make_x86_64(&img);
	header_of(&img)->virt_min = 0xffffffffc0000000ull;
	header_of(&img)->virt_max = 0xffffffffbfffffffull;
	seal(&img);
	expect_rejected(&img, IMAGE_BYTES, "virtual bounds are inverted");
}

static void test_kernel_past_two_to_the_64_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	/* Last byte would be at 2^64: one byte too many for the address space. */
	header_of(&img)->link_phys_base = UINT64_MAX - (PAGE - 1);
	header_of(&img)->payload_mem_size = PAGE;
	header_of(&img)->memory_size = PAGE + 1;
	expect_rejected(&img, IMAGE_BYTES, "kernel extends past the end of the address space");
}

/* ---- checksum ---- */

/* The payload is not the CRC's: image_verify passes it, its sums (taken by the stub while it
 * copies the payload) do not. */
static void test_flipped_payload_byte_fails_the_payload_sums(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	img.bytes[PAYLOAD_OFFSET + PAYLOAD_FILE_SIZE / 2] ^= 0x01;
	expect_ok(&img, IMAGE_BYTES);
	assert_false(payload_sums_match(&img));
}

static void test_flipped_last_payload_byte_fails_the_payload_sums(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	img.bytes[PAYLOAD_OFFSET + PAYLOAD_FILE_SIZE - 1] ^= 0x80;
	assert_false(payload_sums_match(&img));
}

static void test_flipped_payload_sum_in_the_header_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	img.bytes[HEADER_OFFSET + offsetof(struct kslide_image_header, payload_sum_of_sums)] ^= 4;
	expect_rejected(&img, IMAGE_BYTES, "checksum mismatch: the image is corrupt");
}

static void test_flipped_reloc_byte_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	img.bytes[RELOCS_OFFSET + RELOCS_SIZE - 1] ^= 0x01;
	expect_rejected(&img, IMAGE_BYTES, "checksum mismatch: the image is corrupt");
}

static void test_flipped_handoff_data_byte_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	img.bytes[DATA_OFFSET] ^= 0x40;
	expect_rejected(&img, IMAGE_BYTES, "checksum mismatch: the image is corrupt");
}

static void test_flipped_header_byte_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	/* link_virt_base is not otherwise checked, so only the checksum can notice. */
	img.bytes[HEADER_OFFSET + offsetof(struct kslide_image_header, link_virt_base)] ^= 0x01;
	expect_rejected(&img, IMAGE_BYTES, "checksum mismatch: the image is corrupt");
}

static void test_flipped_checksum_byte_is_rejected(void **state)
{
	(void)state;
	struct image img;
	build_valid(&img);
	img.bytes[HEADER_OFFSET + offsetof(struct kslide_image_header, checksum)] ^= 0x01;
	expect_rejected(&img, IMAGE_BYTES, "checksum mismatch: the image is corrupt");
}

/* The stub's self-check sums: every changed byte changes the plain sum, and moving two
 * different words changes the sum of sums. */
static void test_stub_sums_see_every_changed_byte_and_swapped_words(void **state)
{
	(void)state;
	uint8_t stub[256];
	for (unsigned i = 0; i < sizeof(stub); i++)
		stub[i] = (uint8_t)(i * 151u + 7u);
	uint32_t sum, sums, s2, ss2;
	image_stub_sums(stub, sizeof(stub), &sum, &sums);
	for (unsigned i = 0; i < sizeof(stub); i++) {
		for (unsigned flip = 1; flip < 256; flip <<= 1) {
			stub[i] ^= (uint8_t)flip;
			image_stub_sums(stub, sizeof(stub), &s2, &ss2);
			stub[i] ^= (uint8_t)flip;
			assert_int_not_equal(s2, sum);
		}
	}
	uint8_t word[4];
	memcpy(word, stub + 16, 4);
	memcpy(stub + 16, stub + 64, 4);
	memcpy(stub + 64, word, 4);
	image_stub_sums(stub, sizeof(stub), &s2, &ss2);
	assert_int_equal(s2, sum); /* the same words, so the same plain sum */
	assert_int_not_equal(ss2, sums);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid_image_verifies),
		cmocka_unit_test(test_checksum_is_crc32_of_header_relocs_and_data),
		cmocka_unit_test(test_payload_sums_are_the_word_sums_of_the_stored_payload),
		cmocka_unit_test(test_bytes_outside_the_checked_pieces_do_not_matter),
		cmocka_unit_test(test_boundary_values_are_accepted),
		cmocka_unit_test(test_bad_magic_is_rejected),
		cmocka_unit_test(test_other_version_is_rejected),
		cmocka_unit_test(test_other_header_size_is_rejected),
		cmocka_unit_test(test_truncated_image_is_rejected),
		cmocka_unit_test(test_payload_past_the_image_end_is_rejected),
		cmocka_unit_test(test_payload_offset_past_the_image_end_is_rejected),
		cmocka_unit_test(test_relocs_past_the_image_end_are_rejected),
		cmocka_unit_test(test_payload_size_that_wraps_is_rejected),
		cmocka_unit_test(test_relocs_size_that_wraps_is_rejected),
		cmocka_unit_test(test_huge_offset_that_wraps_is_rejected),
		cmocka_unit_test(test_handoff_data_past_the_image_end_is_rejected),
		cmocka_unit_test(test_memory_size_below_the_payloads_is_rejected),
		cmocka_unit_test(test_memory_size_below_file_size_is_rejected),
		cmocka_unit_test(test_empty_kernel_is_rejected),
		cmocka_unit_test(test_entry_past_the_kernel_is_rejected),
		cmocka_unit_test(test_alignment_not_a_power_of_two_is_rejected),
		cmocka_unit_test(test_alignment_below_4k_is_rejected),
		cmocka_unit_test(test_link_base_off_a_page_is_rejected),
		cmocka_unit_test(test_inverted_physical_bounds_are_rejected),
		cmocka_unit_test(test_kernel_past_two_to_the_64_is_rejected),
		cmocka_unit_test(test_x86_64_window_verifies),
		cmocka_unit_test(test_a_shuffle_table_needs_a_kernel_that_moves_by_one_slide),
		cmocka_unit_test(test_virtual_alignment_not_a_power_of_two_is_rejected),
		cmocka_unit_test(test_virtual_link_base_off_a_page_is_rejected),
		cmocka_unit_test(test_inverted_virtual_bounds_are_rejected),
		cmocka_unit_test(test_flipped_payload_byte_fails_the_payload_sums),
		cmocka_unit_test(test_flipped_last_payload_byte_fails_the_payload_sums),
		cmocka_unit_test(test_flipped_payload_sum_in_the_header_is_rejected),
		cmocka_unit_test(test_flipped_reloc_byte_is_rejected),
		cmocka_unit_test(test_flipped_handoff_data_byte_is_rejected),
		cmocka_unit_test(test_compressed_payload_sizes_are_checked),
		cmocka_unit_test(test_relocation_table_stored_sizes_are_checked),
		cmocka_unit_test(test_flipped_header_byte_is_rejected),
		cmocka_unit_test(test_flipped_checksum_byte_is_rejected),
		cmocka_unit_test(test_stub_sums_see_every_changed_byte_and_swapped_words),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
