/*
 * kslide.phys=ADDR (and, on x86-64, kslide.virt=ADDR): a base chosen on the command line, to
 * boot again at the placement a boot's "kslide: base=... phys=..." line named. Honoured only
 * for an image packed with kslide-pack --debug-placement (KSLIDE_IMAGE_DEBUG_PLACEMENT, in the
 * checksummed header); on any other image the words are named and ignored, so they are never
 * a way around the randomness.
 */
#ifndef KSLIDE_BOOT_PLACEMENT_H
#define KSLIDE_BOOT_PLACEMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/slots.h"

#define PLACEMENT_PHYS_OPTION "kslide.phys"
#define PLACEMENT_VIRT_OPTION "kslide.virt"

struct placement {
	bool phys_given, virt_given; /* the word is there, and the image honours it */
	uint64_t phys, virt;
};

/*
 * Read the words from the command line. On an image without the flag, a word that is there
 * is named as ignored; on one with it, the stub says that the image takes a chosen base, and
 * a value that is no number refuses (KS_EINVAL, message printed). virt_allowed: the image has
 * a virtual window of its own (x86-64); otherwise kslide.virt= is named as ignored.
 */
int placement_read(const char *cmdline, size_t len, uint32_t image_flags, bool virt_allowed,
		   struct placement *out);

/*
 * The chosen address as a slot of map: KS_OK and a line saying the base is not random when
 * it is one, KS_ENOENT and a message naming the slots when it is not. what: "phys" or "virt".
 */
int placement_take(const char *what, uint64_t address, const struct slot_map *map,
		   uint64_t *base);

#endif
