/* kslide-stat's judgement of the figures: bases as slot indexes, uniformity, entropy credit. */
#ifndef KSLIDE_TOOLS_STAT_VERDICT_H
#define KSLIDE_TOOLS_STAT_VERDICT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tools/stat/layout.h"
#include "tools/stat/output.h"
#include "tools/stat/samples.h"

enum verdict_measure_result {
	VERDICT_MEASURED,
	VERDICT_NOT_A_SLOT, /* a base lies outside the slots: a finding in itself */
	VERDICT_TOO_FEW,    /* fewer than 2 bases, or fewer than 2 slots */
};

/*
 * The n bases as indexes of their slots in set (into index), and b's uniformity figures and
 * verdict; false_alarm is the chance that the verdict calls a uniform source NOT UNIFORM.
 * Anything but VERDICT_MEASURED comes with a message in err.
 */
enum verdict_measure_result verdict_measure(const char *name, const struct slot_set *set,
					    const uint64_t *bases, size_t n, double false_alarm,
					    uint64_t *index, struct base_report *b, char *err,
					    size_t err_cap);

/* The boots' credits against log2 of the layout's slots (r's layout_bits, credited_min,
 * low_boots and zero_boots); nothing for Linux's own KASLR, which says nothing of it. */
void verdict_entropy(const struct samples *s, struct report *r);

/* Why the image fails, one "kslide-stat: IMAGE: why" line each on 'to'; how many. */
int verdict_findings(const struct report *r, FILE *to);

#endif
