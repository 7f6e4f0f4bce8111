/*
 * The limits a kernel declares in its kslide note (include/kslide/kernel.h): they bound
 * kslide-pack's defaults, and no option may go beyond them.
 */
#ifndef KSLIDE_TOOLS_PACK_KERNEL_LIMITS_H
#define KSLIDE_TOOLS_PACK_KERNEL_LIMITS_H

#include <stdbool.h>
#include <stddef.h>

#include "tools/pack/image_writer.h"
#include "tools/pack/kernel_elf.h"
#include "tools/pack/kernel_note.h"

/* Which options the command line gave; the others take defaults. */
struct given_options {
	bool align, min, max, virt_align, range;
};

/* The declared limits narrow the defaults of the options not given. */
void kernel_limits_defaults(const struct kernel_note *note, const struct kernel_elf *k,
			    const struct given_options *given, struct pack_options *opt);

/*
 * 0 when opt stays inside what the note declares (and the kernel's own link layout does
 * too); otherwise -1 with a message naming the option and the limit.
 */
int kernel_limits_check(const struct kernel_note *note, const struct kernel_elf *k,
			const struct pack_options *opt, char *err, size_t err_cap);

#endif
