/* kslide-stat's report: a table for people, or JSON for programs. */
#ifndef KSLIDE_TOOLS_STAT_OUTPUT_H
#define KSLIDE_TOOLS_STAT_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "tools/stat/layout.h"
#include "tools/stat/samples.h"
#include "tools/stat/seed.h"
#include "tools/stat/stats.h"

/* One base (physical or virtual) measured against its slots. */
struct base_report {
	const char *name;
	bool follows_physical;	/* i386: virtual = physical + a constant */
	uint64_t slots_stub;	/* slots= or vslots=; for linux_own, Linux's model's count */
	uint64_t slots_recount; /* from the header (and memory map); 0 if unknown */
	const char *recount_from;
	struct uniformity u;
	const char *verdict;
};

struct report {
	const char *image;
	const char *source; /* "500 boots: qemu-system-i386 -cpu max -m 1G" or "file F" */
	bool linux_own;	    /* a bzImage's own KASLR: slots from Linux's model, no credit */
	size_t boots_failed;
	const struct samples *samples;
	struct base_report phys, virt;
	double layout_bits; /* log2 of the slots a base is drawn from (both, when independent) */
	unsigned credited_min;
	size_t low_boots;  /* boots crediting fewer bits than layout_bits */
	size_t zero_boots; /* boots crediting nothing: the stub warned PREDICTABLE */
	struct distribution_summary seed, linux64;
};

void output_text(FILE *f, const struct report *r);
void output_json(FILE *f, const struct report *r);

#endif
