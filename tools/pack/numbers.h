/* kslide-pack's numbers and ranges on the command line: --align, --min, --virt-range... */
#ifndef KSLIDE_TOOLS_PACK_NUMBERS_H
#define KSLIDE_TOOLS_PACK_NUMBERS_H

#include <stdint.h>

/* A number, decimal or 0x hex, with an optional K, M, G or T suffix. 0, or -1. */
int pack_parse_size(const char *s, uint64_t *out);

/* "MIN:END", END exclusive, 0 for the top of the address space: *last is END - 1. 0, or -1
 * (not MIN:END, or MIN past the last byte). */
int pack_parse_range(const char *s, uint64_t *min, uint64_t *last);

#endif
