/* kslide-pack --shuffle: the kernel's movable function sections and every reference the shuffle
 * must follow, proven safe to move or refused, as a table (lib/shuffle.h). */
#ifndef KSLIDE_TOOLS_PACK_SHUFFLE_UNITS_H
#define KSLIDE_TOOLS_PACK_SHUFFLE_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include "tools/pack/kernel_elf.h"

struct shuffle_units {
	uint8_t *table; /* lib/shuffle.h format, malloc'd */
	size_t size;
	size_t unit_count;
	size_t reloc_count;
	size_t same_unit; /* PC-relative references within one unit: nothing to do */
	uint64_t region_size, worst_size; /* the region, and what the worst order needs of it */
};

/*
 * Read the ELF in buf (len bytes), already read into k, for --shuffle. 0, or -1 with the reason
 * shuffling cannot be proven safe in err.
 */
int shuffle_units_read(const uint8_t *buf, size_t len, const struct kernel_elf *k,
		       struct shuffle_units *out, char *err, size_t err_cap);

#endif
