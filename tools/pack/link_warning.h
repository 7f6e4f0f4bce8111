/*
 * kslide-pack's warning, on standard error, for a kernel linked inside the load range of its
 * own packed image: nokaslr, and the fallback when no slot is free, cannot boot it there.
 */
#ifndef KSLIDE_TOOLS_PACK_LINK_WARNING_H
#define KSLIDE_TOOLS_PACK_LINK_WARNING_H

#include <stdbool.h>
#include <stdint.h>

#include "tools/pack/image_writer.h"
#include "tools/pack/kernel_elf.h"

/* Warn (as "PROGNAME: warning: IN: ...") when k's link address lies inside img's load range,
 * naming the ways out this kernel has. */
void link_warning(const char *progname, const char *in, const struct kernel_elf *k,
		  const struct packed_image *img, uint32_t codec, bool is_linux);

#endif
