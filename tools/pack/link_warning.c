/* kslide-pack's warning for a kernel linked where its own packed image lies (link_warning.h). */
#include <stdio.h>

#include "include/kslide/image.h"
#include "tools/pack/link_warning.h"

#define LINK_ADVICE_ALIGN 0x200000ull /* a link address advised is rounded up to 2 MiB pages */

/*
 * A link address the packed image itself covers: nokaslr and the fallback need that place.
 * The way out depends on the kernel: any image may shrink below it by compression or do
 * without nokaslr; only a kernel of the user's own can be linked higher (a bzImage cannot).
 */
void link_warning(const char *progname, const char *in, const struct kernel_elf *k,
		  const struct packed_image *img, uint32_t codec, bool is_linux)
{
	uint64_t image_end = img->load_address + (img->size - img->image_at);
	if (k->link_phys >= image_end || k->link_phys + k->mem_size <= img->load_address)
		return;
	fprintf(stderr,
		"%s: warning: %s: linked at 0x%llx, inside the packed image's own load range "
		"[0x%llx, 0x%llx): nokaslr, and the fallback when no slot is free, cannot boot it "
		"(the stub refuses them); boot it without nokaslr%s",
		progname, in, (unsigned long long)k->link_phys,
		(unsigned long long)img->load_address, (unsigned long long)image_end,
		codec == KSLIDE_CODEC_NONE ? ", or pack it compressed (--compress zstd) so that "
					     "the image may end below that address" : "");
	if (!is_linux)
		fprintf(stderr, ", or link it at 0x%llx or above",
			(unsigned long long)((image_end + LINK_ADVICE_ALIGN - 1) &
					     ~(LINK_ADVICE_ALIGN - 1)));
	fprintf(stderr, "\n");
}
