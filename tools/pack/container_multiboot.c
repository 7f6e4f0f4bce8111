/*
 * The Multiboot container: a flat image that Multiboot 1 and Multiboot 2 loaders load by the
 * address fields of the stub's own headers (boot/x86/multiboot1_header.S, the a.out kludge;
 * multiboot2_header.S, the address tag) and enter at the stub's entry. The stub's headers
 * cover the stub; here they are stretched over the payload appended to it, and a Multiboot
 * kernel's own requests are asked again (multiboot_header.h).
 *
 *   load_addr                                                    load_end_addr = bss_end_addr
 *   | headers | stub ... | payload | relocation table | handoff data |
 */
#include <string.h>

#include "include/protocol/multiboot1.h"
#include "include/protocol/multiboot2.h"
#include "lib/unaligned.h"
#include "tools/pack/compress.h"
#include "tools/pack/container.h"
#include "tools/pack/fail.h"
#include "tools/pack/image_writer.h"
#include "tools/pack/multiboot_header.h"

/* The Multiboot 1 header with the a.out-kludge address fields, or -1. */
static long find_mb1_addresses(const uint8_t *image, size_t size)
{
	long mb1 = multiboot1_header_find(image, size);
	if (mb1 < 0 || (size_t)mb1 + MB1_HEADER_ENTRY + 4 > size ||
	    !(load_le32(image + mb1 + MB1_HEADER_FLAGS) & MB1_AOUT_KLUDGE))
		return -1;
	return mb1;
}

/* The Multiboot 2 header's address tag, or -1 if there is none (the tags are the stub's own,
 * so a header without one is not an error here). */
static long find_mb2_address_tag(const uint8_t *image, size_t size)
{
	long mb2 = multiboot2_header_find(image, size);
	if (mb2 < 0)
		return -1;
	size_t off = (size_t)mb2, length = load_le32(image + off + MB2_HEADER_LENGTH);
	for (size_t t = off + MB2_HEADER_FIXED;
	     t + MB2_TAG_HEADER <= off + length && t + MB2_TAG_HEADER <= size;) {
		uint16_t type = (uint16_t)(image[t] | image[t + 1] << 8);
		uint32_t tag_size = load_le32(image + t + 4);
		if (type == MB2_HEADER_TAG_ADDRESS && tag_size >= MB2_ADDRESS_SIZE &&
		    t + MB2_ADDRESS_SIZE <= size)
			return (long)t;
		if (type == MB2_HEADER_TAG_END || tag_size < MB2_TAG_HEADER)
			break;
		t += (tag_size + MB2_TAG_ALIGN - 1) & ~(size_t)(MB2_TAG_ALIGN - 1);
	}
	return -1;
}

static int check_stub(const uint8_t *stub, size_t stub_size, uint64_t *load_address, char *err,
		      size_t err_cap)
{
	long mb1 = find_mb1_addresses(stub, stub_size);
	if (mb1 < 0)
		return pack_fail(err, err_cap,
				 "internal error: the embedded stub has no Multiboot header");
	/* The stub's bss is in its file; a stub shorter than its Multiboot header says would put
	 * the payload on top of the stub's own variables. */
	const uint8_t *h = stub + mb1;
	uint32_t declared = load_le32(h + MB1_HEADER_LOAD_END) - load_le32(h + MB1_HEADER_LOAD_ADDR);
	if (declared != stub_size)
		return pack_fail(err, err_cap,
				 "internal error: the embedded stub is %zu bytes but declares %u",
				 stub_size, declared);
	*load_address = load_le32(h + MB1_HEADER_LOAD_ADDR);
	return 0;
}

/* load_end_addr and bss_end_addr (at these offsets of h) over the whole image. */
static void stretch(uint8_t *h, size_t load_addr_at, size_t load_end_at, size_t bss_end_at,
		    size_t image_size)
{
	uint32_t load_addr = load_le32(h + load_addr_at);
	store_le32(h + load_end_at, load_addr + (uint32_t)image_size);
	store_le32(h + bss_end_at, load_addr + (uint32_t)image_size);
}

static int finish(uint8_t *image, size_t image_size, size_t stub_size,
		  const struct pack_options *opt, char *err, size_t err_cap)
{
	long mb1 = find_mb1_addresses(image, stub_size);
	if (mb1 < 0)
		return pack_fail(err, err_cap,
				 "internal error: the embedded stub has no Multiboot header");
	stretch(image + mb1, MB1_HEADER_LOAD_ADDR, MB1_HEADER_LOAD_END, MB1_HEADER_BSS_END,
		image_size);
	long tag = find_mb2_address_tag(image, stub_size);
	if (tag >= 0)
		stretch(image + tag, MB2_ADDRESS_LOAD_ADDR, MB2_ADDRESS_LOAD_END,
			MB2_ADDRESS_BSS_END, image_size);
	if (opt->multiboot)
		return multiboot_requests_apply(image, stub_size, opt->multiboot, err, err_cap);
	return 0;
}

/* By the Multiboot 1 header, which every image keeps, or else the Multiboot 2 address tag. */
static int64_t load_address(const uint8_t *image, size_t size, size_t *image_at)
{
	*image_at = 0; /* the image is the file */
	long mb1 = find_mb1_addresses(image, size);
	if (mb1 >= 0)
		return (int64_t)load_le32(image + mb1 + MB1_HEADER_LOAD_ADDR);
	long tag = find_mb2_address_tag(image, size);
	return tag < 0 ? -1 : (int64_t)load_le32(image + tag + MB2_ADDRESS_LOAD_ADDR);
}

const struct container container_multiboot = {
	.name = "multiboot",
	.what = "flat, for Multiboot 1 and 2 loaders (QEMU -kernel, GRUB)",
	.prefix = 0,
	.codec_default = PACK_CODEC_AUTO,
	.check_stub = check_stub,
	.finish = finish,
	.load_address = load_address,
};
