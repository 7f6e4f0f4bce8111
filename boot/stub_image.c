/*
 * The packed image checked as its loader loaded it (stub_parts.h): format version, the
 * checksum and the stored payload's sums, the architecture, and the handoff it names.
 */
#include <stdint.h>

#include "boot/console.h"
#include "boot/stub_parts.h"
#include "boot/wide_copy.h"
#include "lib/errors.h"
#include "lib/image.h"
#include "lib/word_sums.h"

#ifdef __x86_64__
#define STUB_ARCH KSLIDE_ARCH_X86_64
#else
#define STUB_ARCH KSLIDE_ARCH_I386
#endif

const struct kernel_handoff *image_reject(const char *why)
{
	stub_error("image rejected", why);
	return NULL;
}

/* Check the image as this loader loaded it; returns the handoff it names. */
const struct kernel_handoff *image_check(const struct boot_loader *loader,
					 const struct boot_entry *entry)
{
	const char *why;
	if (image_header.version != KSLIDE_IMAGE_VERSION) {
		console_print(
			"kslide: error: image rejected: image format version %u, this stub reads "
			"version %u; not starting the kernel\n",
			(unsigned)image_header.version, (unsigned)KSLIDE_IMAGE_VERSION);
		return NULL;
	}
	struct wide_copy_saved saved;
	crc32_fn *crc = wide_crc32_begin(&saved);
	int rc = image_verify_with(stub_image, loader->loaded_size(entry), &image_header, &why, crc);
	wide_copy_end(&saved);
	if (rc != KS_OK)
		return image_reject(why);
	/* A compressed payload is summed now, before the decoder reads it; an uncompressed one
	 * while it is copied (relocate_kernel). */
	if (image_header.payload_codec != KSLIDE_CODEC_NONE) {
		struct word_sums sums;
		image_payload_sums(stub_image, &image_header, &sums);
		if (!image_payload_sums_match(&image_header, &sums))
			return image_reject(IMAGE_CORRUPT);
	}
	if (image_header.arch != STUB_ARCH)
		return image_reject("built for another architecture than this stub");
	const struct kernel_handoff *handoff = kernel_handoff_for(image_header.handoff);
	if (!handoff)
		return image_reject("it names a handoff this stub does not know");
	return handoff;
}
