/*
 * Every base the image allows must work: the packer proves, before it writes anything, that
 * each relocated field stays representable for every base the stub may draw.
 */
#ifndef KSLIDE_TOOLS_PACK_BASE_WINDOW_H
#define KSLIDE_TOOLS_PACK_BASE_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tools/pack/image_writer.h"
#include "tools/pack/kernel_elf.h"

/*
 * The bases the stub may draw for k under opt, and the slides they give. The fixups move by
 * the physical slide on i386 (every aligned base b with min <= b and b + memory size <= max)
 * and by the virtual one on x86-64 (every aligned virtual base whose kernel lies in
 * [virt_min, virt_last]). The link base, slide 0, is always possible too (nokaslr, or no
 * slot free), and every field holds at slide 0 what it was linked with.
 */
struct base_window {
	bool virtual_bases; /* the slide is virtual - link_virt, else physical - link_phys */
	bool empty;	    /* no aligned base fits: only the link base remains */
	uint64_t link;	    /* the link base the slide is measured from */
	uint64_t first, last; /* lowest and highest base */
	uint64_t align;
	uint64_t size; /* bytes from the base that must fit below the window's end */
};

void base_window_of(const struct kernel_elf *k, const struct pack_options *opt,
		    struct base_window *w);

/*
 * 0 when every fixup of k (all four kinds: lib/reloc.h) stays representable for every base
 * of the window; otherwise -1 with a message naming the first field that fails, its value,
 * the bases it fails for and the bound that would keep it whole.
 */
int base_window_check(const struct kernel_elf *k, const struct pack_options *opt, char *err,
		      size_t err_cap);

/*
 * Whether a field of kind stays representable at the link base and at every base of the
 * window when it holds value (as its kind reads it: unsigned for RELOC_ADD32, signed for the
 * others) rather than what the payload holds: kslide-pack --shuffle asks it of the values a
 * function section's move can give a field (tools/pack/shuffle_units.c).
 */
bool base_window_holds(const struct kernel_elf *k, const struct pack_options *opt,
		       enum reloc_kind kind, int64_t value);

#endif
