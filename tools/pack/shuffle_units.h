/* kslide-pack --shuffle: the kernel's movable function sections and every reference the shuffle
 * must follow, proven safe to move or refused, as a table (lib/shuffle.h). */
#ifndef KSLIDE_TOOLS_PACK_SHUFFLE_UNITS_H
#define KSLIDE_TOOLS_PACK_SHUFFLE_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include "tools/pack/image_writer.h"
#include "tools/pack/kernel_elf.h"

/* An absolute 4-byte x86-64 field naming a unit: the lowest and highest value the unit's moves
 * can give it, as the base relocation reads it (lib/reloc.h). */
struct shuffle_bound {
	uint32_t site;
	enum reloc_kind kind; /* RELOC_ADD32 (R_X86_64_32) or RELOC_ADD32S (R_X86_64_32S) */
	int64_t low, high;
};

struct shuffle_units {
	uint8_t *table; /* lib/shuffle.h format, malloc'd */
	size_t size;
	size_t unit_count;
	size_t reloc_count;
	size_t same_unit; /* PC-relative references within one unit: nothing to do */
	uint64_t region_size, worst_size; /* the region, and what the worst order needs of it */
	struct shuffle_bound *bounds; /* malloc'd */
	size_t bound_count;
};

/*
 * Read the ELF in buf (len bytes), already read into k, for --shuffle. 0, or -1 with the reason
 * shuffling cannot be proven safe in err.
 */
int shuffle_units_read(const uint8_t *buf, size_t len, const struct kernel_elf *k,
		       struct shuffle_units *out, char *err, size_t err_cap);

/*
 * After the packing policy chose the bases (opt): 0 if the stub can shuffle k at every one of
 * them, that is k is i386 or a single-slide x86-64 kernel, and every absolute 4-byte x86-64
 * field keeps a value its type holds for every layout at every base; or -1 with the reason.
 */
int shuffle_units_check_bases(const struct shuffle_units *s, const struct kernel_elf *k,
			      const struct pack_options *opt, char *err, size_t err_cap);

void shuffle_units_free(struct shuffle_units *s);

#endif
