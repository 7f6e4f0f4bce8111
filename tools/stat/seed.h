/*
 * The yardsticks printed beside a measurement: the 2011 RFC patch ("Randomize kernel base
 * address on boot"), computed exactly from its algorithm, and Linux x86-64 KASLR's virtual
 * window.
 */
#ifndef KSLIDE_TOOLS_STAT_SEED_H
#define KSLIDE_TOOLS_STAT_SEED_H

#include <stdint.h>

struct distribution_summary {
	uint64_t positions; /* values with nonzero probability */
	double shannon;	    /* bits */
	double min_entropy; /* bits: -log2 of the most likely value's probability */
	double top_share;   /* that probability */
};

/* Every one of the 2^26 random values the seed patch can draw, pushed through its algorithm. */
void seed_patch_distribution(struct distribution_summary *out);

/* Linux x86-64: the kernel image's virtual base among 1 GiB / 2 MiB positions, uniformly. */
#define LINUX_X86_64_WINDOW (1ull << 30)
#define LINUX_X86_64_ALIGN  (2ull << 20)
void linux_x86_64_distribution(struct distribution_summary *out);

/* A uniform choice among 'slots' values. */
void uniform_distribution(uint64_t slots, struct distribution_summary *out);

#endif
