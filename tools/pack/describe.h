/* What kslide-pack says of the kernel and the image it wrote (--stats, --verbose). */
#ifndef KSLIDE_TOOLS_PACK_DESCRIBE_H
#define KSLIDE_TOOLS_PACK_DESCRIBE_H

#include <stdio.h>

#include "tools/pack/image_writer.h"
#include "tools/pack/kernel_elf.h"
#include "tools/pack/linux_image.h"
#include "tools/pack/multiboot_header.h"

/* --stats: the relocation table's size and form, the payload as stored. */
void describe_stats(const struct packed_image *img, FILE *to);

/* --verbose for a bzImage: its setup header and payload. */
void describe_linux(const struct linux_image *li, FILE *to);

/* --verbose: the kernel as read and its relocations, before any check of the options against
 * it, so that a refusal follows what was found. */
void describe_kernel(const struct kernel_elf *k, FILE *to);

/* --verbose, after describe_kernel: the image's windows and the handoff (why chosen). */
void describe_image(const struct kernel_elf *k, const struct packed_image *img,
		    const struct pack_options *opt, const char *handoff_why,
		    const struct multiboot_requests *mb, FILE *to);

#endif
