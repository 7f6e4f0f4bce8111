/*
 * Judges whether observed bases look uniform over the slots the stub reported.
 * Reads "kslide: ..." lines on stdin; checks every base is a slot, that the number of
 * distinct bases is not far below what uniform sampling predicts, and a chi-square test
 * (GSL) over equal-size groups of slots. Those figures come from tools/stat/stats.c, which
 * kslide-stat uses too.
 *
 * usage: uniformity --field phys|base|idt --lo ADDR --align N [--slots slots|vslots|idtslots]
 *                   [--min-p P]
 *        uniformity --independence [--field F --slots S] --lo ADDR --align N
 *                   [--vfield F --vslots S] --vlo ADDR --valign N [--min-p P]
 * --slots names the line's field holding the slot count (vslots for an x86-64 virtual base,
 * idtslots for the kernel's entry area, which tests/boot/uniformity.sh -E adds to the line).
 * --independence tests whether the slot indexes of two fields of the same boots (by default
 * phys with slots and base with vslots) are independent: a chi-square test of a BINS x BINS
 * contingency table.
 * Exit 0 when uniform (independent) enough, 1 when not, 2 on bad input.
 */
#include <gsl/gsl_cdf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/stat/stats.h"

#define MAX_SAMPLES 100000

#define BINS 4 /* per axis of the independence table: 16 cells, >= 5 expected each at n >= 80 */

static uint64_t samples[MAX_SAMPLES];
static uint64_t vsamples[MAX_SAMPLES];

static int field_value(const char *line, const char *field, uint64_t *out)
{
	char key[32];
	snprintf(key, sizeof(key), " %s=", field);
	const char *p = strstr(line, key);
	if (!p)
		return -1;
	*out = strtoull(p + strlen(key), NULL, 0);
	return 0;
}

/* Slot index of the value in field, checked against the slot count in slots_field. */
static int slot_index(const char *line, const char *field, const char *slots_field, uint64_t lo,
		      uint64_t align, uint64_t *slots, uint64_t *index)
{
	uint64_t v, s;
	if (field_value(line, field, &v) || field_value(line, slots_field, &s))
		return -1;
	if (*slots && s != *slots) {
		fprintf(stderr, "uniformity: %s changed between boots (%llu, %llu)\n", slots_field,
			(unsigned long long)*slots, (unsigned long long)s);
		return 1;
	}
	*slots = s;
	if (v < lo || (v - lo) % align || (v - lo) / align >= s) {
		fprintf(stderr, "uniformity: %s=0x%llx is not one of the %llu slots\n", field,
			(unsigned long long)v, (unsigned long long)s);
		return 1;
	}
	*index = (v - lo) / align;
	return 0;
}

static unsigned bin_of(uint64_t index, uint64_t slots)
{
	return (unsigned)((unsigned __int128)index * BINS / slots);
}

/* Pearson's test of independence: expected counts from the observed marginals. */
static int independence(size_t n, uint64_t slots, uint64_t vslots, double min_p,
			const char *field, const char *vfield)
{
	double cell[BINS][BINS] = {{0}}, row[BINS] = {0}, col[BINS] = {0};
	for (size_t i = 0; i < n; i++) {
		unsigned r = bin_of(samples[i], slots), c = bin_of(vsamples[i], vslots);
		cell[r][c]++, row[r]++, col[c]++;
	}
	double chi2 = 0;
	for (unsigned r = 0; r < BINS; r++)
		for (unsigned c = 0; c < BINS; c++) {
			double expected = row[r] * col[c] / (double)n;
			if (expected > 0)
				chi2 += (cell[r][c] - expected) * (cell[r][c] - expected) /
					expected;
		}
	double p = gsl_cdf_chisq_Q(chi2, (BINS - 1) * (BINS - 1));
	printf("independence(%s, %s): samples=%zu table=%dx%d chi2=%.1f p=%.4f: %s\n", field, vfield,
	       n, BINS, BINS, chi2, p, p < min_p ? "FAIL (the draws are related)" : "ok");
	return p < min_p;
}

int main(int argc, char **argv)
{
	const char *field = "phys", *slots_field = "slots", *vfield = "base", *vslots_field = "vslots";
	uint64_t lo = 0, align = 0, slots = 0, vlo = 0, valign = 0, vslots = 0;
	double min_p = 0.001;
	int pairs = 0;
	for (int i = 1; i < argc; i++) {
		const char *arg = i + 1 < argc ? argv[i + 1] : "";
		if (!strcmp(argv[i], "--independence")) {
			pairs = 1;
			continue;
		}
		if (!strcmp(argv[i], "--field"))
			field = arg;
		else if (!strcmp(argv[i], "--slots"))
			slots_field = arg;
		else if (!strcmp(argv[i], "--lo"))
			lo = strtoull(arg, NULL, 0);
		else if (!strcmp(argv[i], "--align"))
			align = strtoull(arg, NULL, 0);
		else if (!strcmp(argv[i], "--vfield"))
			vfield = arg;
		else if (!strcmp(argv[i], "--vslots"))
			vslots_field = arg;
		else if (!strcmp(argv[i], "--vlo"))
			vlo = strtoull(arg, NULL, 0);
		else if (!strcmp(argv[i], "--valign"))
			valign = strtoull(arg, NULL, 0);
		else if (!strcmp(argv[i], "--min-p"))
			min_p = strtod(arg, NULL);
		i++;
	}
	if (!align || (pairs && !valign)) {
		fprintf(stderr, "usage: uniformity --field phys|base|idt --lo ADDR --align N "
				"[--slots slots|vslots|idtslots]\n"
				"       uniformity --independence [--field F --slots S] --lo ADDR "
				"--align N [--vfield F --vslots S] --vlo ADDR --valign N\n");
		return 2;
	}
	char line[1024];
	size_t n = 0;
	while (fgets(line, sizeof(line), stdin) && n < MAX_SAMPLES) {
		int rc = slot_index(line, field, slots_field, lo, align, &slots, &samples[n]);
		if (rc == 0 && pairs)
			rc = slot_index(line, vfield, vslots_field, vlo, valign, &vslots,
					&vsamples[n]);
		if (rc > 0)
			return 1;
		n += rc == 0;
	}
	if (n < 2 || slots < 2 || (pairs && vslots < 2)) {
		fprintf(stderr, "uniformity: need at least 2 samples over at least 2 slots\n");
		return 2;
	}
	if (pairs)
		return independence(n, slots, vslots, min_p, field, vfield);

	struct uniformity u;
	if (uniformity_measure(samples, n, slots, &u)) {
		fprintf(stderr, "uniformity: cannot measure these samples\n");
		return 2;
	}
	int few = u.distinct_p < STATS_FEW_DISTINCT_P;
	int skewed = u.p < min_p;
	printf("uniformity(%s): samples=%zu slots=%llu distinct=%zu (uniform: %.1f +- %.1f) "
	       "chi2=%.1f bins=%llu p=%.4f: %s\n",
	       field, n, (unsigned long long)slots, u.distinct, u.distinct_mean, u.distinct_sd,
	       u.chi2, (unsigned long long)u.bins, u.p,
	       few	? "FAIL (too few distinct bases)"
	       : skewed ? "FAIL (not uniform)"
			: "ok");
	return few || skewed;
}
