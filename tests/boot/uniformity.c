/*
 * Judges whether observed bases look uniform over the slots the stub reported.
 * Reads "kslide: ..." lines on stdin; checks every base is a slot, that the number of
 * distinct bases is not far below what uniform sampling predicts, and a chi-square test
 * (GSL) over equal-size groups of slots.
 *
 * usage: uniformity --field phys|base --lo ADDR --align N [--min-p P]
 * Exit 0 when uniform enough, 1 when not, 2 on bad input.
 */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SAMPLES 100000
#define MIN_EXPECTED_PER_BIN 5.0 /* the usual validity rule for the chi-square approximation */
#define DISTINCT_SIGMAS 4.0      /* one-sided; a false alarm about once in 30,000 runs */

static uint64_t samples[MAX_SAMPLES];

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

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Expected number of distinct values, and its standard deviation, for n uniform draws
 * from s values (occupancy problem). */
static void distinct_expectation(double s, double n, double *mean, double *sd)
{
	double q1 = pow(1 - 1 / s, n), q2 = pow(1 - 2 / s, n);
	*mean = s * (1 - q1);
	double var = s * (s - 1) * q2 + s * q1 - s * s * q1 * q1;
	*sd = sqrt(var > 0 ? var : 0);
}

/* Number of slot indexes in [0, s) that fall in bin j of k when bin(i) = floor(i * k / s). */
static double bin_size(uint64_t j, uint64_t k, uint64_t s)
{
	/* first index of bin j is ceil(j * s / k) */
	unsigned __int128 a = ((unsigned __int128)j * s + k - 1) / k;
	unsigned __int128 b = ((unsigned __int128)(j + 1) * s + k - 1) / k;
	return (double)(b - a);
}

int main(int argc, char **argv)
{
	const char *field = "phys";
	uint64_t lo = 0, align = 0, slots = 0;
	double min_p = 0.001;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--field"))
			field = argv[i + 1];
		else if (!strcmp(argv[i], "--lo"))
			lo = strtoull(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--align"))
			align = strtoull(argv[i + 1], NULL, 0);
		else if (!strcmp(argv[i], "--min-p"))
			min_p = strtod(argv[i + 1], NULL);
	}
	if (!align) {
		fprintf(stderr, "usage: uniformity --field phys|base --lo ADDR --align N\n");
		return 2;
	}
	char line[1024];
	size_t n = 0;
	while (fgets(line, sizeof(line), stdin) && n < MAX_SAMPLES) {
		uint64_t v, s;
		if (field_value(line, field, &v) || field_value(line, "slots", &s))
			continue;
		if (slots && s != slots) {
			fprintf(stderr, "uniformity: slot count changed between boots (%llu, %llu)\n",
				(unsigned long long)slots, (unsigned long long)s);
			return 1;
		}
		slots = s;
		if (v < lo || (v - lo) % align || (v - lo) / align >= slots) {
			fprintf(stderr, "uniformity: 0x%llx is not one of the %llu slots\n",
				(unsigned long long)v, (unsigned long long)slots);
			return 1;
		}
		samples[n++] = (v - lo) / align;
	}
	if (n < 2 || slots < 2) {
		fprintf(stderr, "uniformity: need at least 2 samples over at least 2 slots\n");
		return 2;
	}

	qsort(samples, n, sizeof(samples[0]), cmp_u64);
	size_t distinct = 1;
	for (size_t i = 1; i < n; i++)
		distinct += samples[i] != samples[i - 1];
	double mean, sd;
	distinct_expectation((double)slots, (double)n, &mean, &sd);

	uint64_t k = (uint64_t)((double)n / MIN_EXPECTED_PER_BIN);
	k = k > slots ? slots : k < 2 ? 2 : k;
	double chi2 = 0;
	size_t i = 0;
	for (uint64_t j = 0; j < k; j++) {
		double observed = 0;
		while (i < n && (unsigned __int128)samples[i] * k / slots == j)
			observed++, i++;
		double expected = (double)n * bin_size(j, k, slots) / (double)slots;
		chi2 += (observed - expected) * (observed - expected) / expected;
	}
	double p = gsl_cdf_chisq_Q(chi2, (double)(k - 1));

	int few = (double)distinct < mean - DISTINCT_SIGMAS * sd;
	int skewed = p < min_p;
	printf("uniformity(%s): samples=%zu slots=%llu distinct=%zu (uniform: %.1f +- %.1f) "
	       "chi2=%.1f bins=%llu p=%.4f: %s\n",
	       field, n, (unsigned long long)slots, distinct, mean, sd, chi2, (unsigned long long)k,
	       p, few ? "FAIL (too few distinct bases)" : skewed ? "FAIL (not uniform)" : "ok");
	return few || skewed;
}
