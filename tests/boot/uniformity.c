/*
 * Judges whether observed bases look uniform over the slots they could have taken. Reads the
 * serial lines of many boots on stdin ("kslide: base=..." and the kernel's "kernel: usable=...")
 * and recounts the slots itself, from the memory map and the image header (tools/stat/layout.c),
 * instead of believing the stub's slots=: a stub that under-reports fails here. Then every base
 * must be a slot, and the spread must pass the tests of tools/stat/stats.c (few distinct,
 * chi-square, Anderson-Darling, quarter windows), which kslide-stat uses too. With a virtual
 * window (x86-64) the virtual bases are judged over their own slots; with --entry-lo the
 * kernel's entry area (an idt= word uniformity.sh adds to each base line) over its page slots;
 * with --dmap-lo the x86-64 direct map's base (a dmap= word) over its 1 GiB slots; and the
 * draws of each boot must be independent of one another, pair by pair (a chi-square
 * test of a BINS x BINS contingency table).
 *
 * usage: uniformity --image IMAGE [ENTRY] [--false-alarm F] <LINES
 *        uniformity --slots N --lo ADDR --align A [--vslots N --vlo ADDR --valign A]
 *                   [ENTRY] [--false-alarm F] <LINES       (slots given, for synthetic lines)
 *   ENTRY: --entry-lo ADDR --entry-slots N, the entry area's N page slots from ADDR, and
 *          --dmap-lo ADDR --dmap-slots N, the direct map's N 1 GiB slots from ADDR
 *        uniformity --simulate MODEL --samples N --slots S --runs R [--false-alarm F]
 *        uniformity --ad-tail X
 * F is the chance that a uniform, independent source fails the run (default 0.001), shared
 * equally among the verdicts. --simulate judges R runs of N draws over S slots from MODEL
 * (see models[]) with the same verdict and prints how many it rejects: the false-alarm rate
 * for "uniform", the power for the others. --ad-tail prints P(A^2 >= X) in the limit.
 * Exit 0 when uniform (and independent), 1 when not, 2 on bad input or usage.
 */
#include <errno.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/stat/layout.h"
#include "tools/stat/samples.h"
#include "tools/stat/stats.h"

#define BINS 4 /* per axis of the independence table: 16 cells, >= 5 expected each at n >= 80 */
#define ENTRY_ALIGN 0x1000 /* the entry area is placed at a page (kernel/secrecy/entry_area.h) */
#define LINE_BYTES  65536  /* a memory map line of 64 spans fits many times over */
#define DMAP_ALIGN 0x40000000 /* the direct map's base, at a GiB (kernel/x86_64/layout.h) */
#define DRAWS_MAX   4      /* physical, virtual, entry area, direct map */
#define SIM_SEED 18 /* fixed, so that the simulated rates are reproducible */
#define QUARTER_BIAS 1.5 /* the simulated quarter's slots are this much likelier */

static int usage(void)
{
	fprintf(stderr,
		"usage: uniformity --image IMAGE [ENTRY] [--false-alarm F] <LINES\n"
		"       uniformity --slots N --lo ADDR --align A [--vslots N --vlo ADDR --valign A]"
		" [ENTRY] [--false-alarm F] <LINES\n"
		"       uniformity --simulate MODEL --samples N --slots S --runs R [--false-alarm F]\n"
		"       uniformity --ad-tail X\n"
		"  ENTRY: --entry-lo ADDR --entry-slots N (the entry area's N page slots from ADDR)\n"
		"         --dmap-lo ADDR --dmap-slots N (the direct map's N 1 GiB slots from ADDR)\n");
	return 2;
}

static int bad_input(const char *fmt, const char *what)
{
	fprintf(stderr, "uniformity: ");
	fprintf(stderr, fmt, what);
	fputc('\n', stderr);
	return 2;
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		return -1;
	*out = v;
	return 0;
}

static int parse_double(const char *s, double *out)
{
	char *end;
	errno = 0;
	*out = strtod(s, &end);
	return errno || end == s || *end ? -1 : 0;
}

struct options {
	const char *image, *model;
	uint64_t slots, lo, align, vslots, vlo, valign, samples, runs, entry_lo, entry_slots;
	uint64_t dmap_lo, dmap_slots;
	double false_alarm, ad_tail;
	int has_slots, has_vslots, has_ad_tail;
};

static int parse_options(int argc, char **argv, struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->false_alarm = STATS_FALSE_ALARM;
	static const struct {
		const char *name;
		size_t offset;
	} numbers[] = {
		{ "--slots", offsetof(struct options, slots) },
		{ "--lo", offsetof(struct options, lo) },
		{ "--align", offsetof(struct options, align) },
		{ "--vslots", offsetof(struct options, vslots) },
		{ "--vlo", offsetof(struct options, vlo) },
		{ "--valign", offsetof(struct options, valign) },
		{ "--samples", offsetof(struct options, samples) },
		{ "--runs", offsetof(struct options, runs) },
		{ "--entry-lo", offsetof(struct options, entry_lo) },
		{ "--entry-slots", offsetof(struct options, entry_slots) },
		{ "--dmap-lo", offsetof(struct options, dmap_lo) },
		{ "--dmap-slots", offsetof(struct options, dmap_slots) },
	};
	for (int i = 1; i < argc; i += 2) {
		const char *opt = argv[i], *arg = i + 1 < argc ? argv[i + 1] : NULL;
		if (!arg)
			return bad_input("%s needs a value", opt);
		size_t k = 0;
		while (k < sizeof(numbers) / sizeof(numbers[0]) && strcmp(opt, numbers[k].name))
			k++;
		if (k < sizeof(numbers) / sizeof(numbers[0])) {
			if (parse_u64(arg, (uint64_t *)((char *)o + numbers[k].offset)))
				return bad_input("%s: not a number", opt);
			o->has_slots |= !strcmp(opt, "--slots");
			o->has_vslots |= !strcmp(opt, "--vslots");
		} else if (!strcmp(opt, "--image")) {
			o->image = arg;
		} else if (!strcmp(opt, "--simulate")) {
			o->model = arg;
		} else if (!strcmp(opt, "--false-alarm")) {
			if (parse_double(arg, &o->false_alarm) || !(o->false_alarm > 0) ||
			    o->false_alarm >= 1)
				return bad_input("%s: not a probability", opt);
		} else if (!strcmp(opt, "--ad-tail")) {
			if (parse_double(arg, &o->ad_tail))
				return bad_input("%s: not a number", opt);
			o->has_ad_tail = 1;
		} else {
			return bad_input("unknown option %s", opt);
		}
	}
	int modes = !!o->image + o->has_slots * !o->model + !!o->model + o->has_ad_tail;
	if (modes != 1 || (o->has_slots && !o->model && !o->align) ||
	    (o->has_vslots && !o->valign) || (o->entry_lo && o->entry_slots < 2) ||
	    (o->dmap_lo && o->dmap_slots < 2) ||
	    (o->model && (o->samples < 2 || o->slots < 2 || o->runs < 1)))
		return usage();
	return 0;
}

/* Pearson's test of independence: expected counts from the observed marginals. */
static int independence(const char *a_name, const uint64_t *a, uint64_t a_slots,
			const char *b_name, const uint64_t *b, uint64_t b_slots, size_t n,
			double level)
{
	double cell[BINS][BINS] = { { 0 } }, row[BINS] = { 0 }, col[BINS] = { 0 };
	for (size_t i = 0; i < n; i++) {
		unsigned r = (unsigned)stats_bin_of(a[i], BINS, a_slots);
		unsigned c = (unsigned)stats_bin_of(b[i], BINS, b_slots);
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
	printf("independence(%s, %s): samples=%zu table=%dx%d chi2=%.1f p=%.4g (level %.3g): %s\n",
	       a_name, b_name, n, BINS, BINS, chi2, p, level,
	       p < level ? "FAIL (the draws are related)" : "ok");
	return p < level;
}

/* One base's verdict at 'false_alarm'; 1 when it fails, 2 when it cannot be measured. */
static int judge(const char *name, uint64_t *index, size_t n, uint64_t slots,
		 double false_alarm, const char *universe)
{
	struct uniformity u;
	if (uniformity_measure(index, n, slots, &u)) {
		fprintf(stderr, "uniformity: cannot measure %zu samples over %llu slots\n", n,
			(unsigned long long)slots);
		return 2;
	}
	const char *verdict = uniformity_verdict(&u, false_alarm);
	printf("uniformity(%s): samples=%zu slots=%llu (%s) distinct=%zu (uniform: %.1f +- %.1f, "
	       "p=%.3g) chi2=%.1f bins=%llu p=%.4g A2=%.4f p=%.4g window=%.2fsd p=%.4g "
	       "(level %.3g each): %s\n",
	       name, n, (unsigned long long)slots, universe, u.distinct, u.distinct_mean,
	       u.distinct_sd, u.distinct_p, u.chi2, (unsigned long long)u.bins, u.p, u.ad, u.ad_p,
	       u.window_z, u.window_p, uniformity_test_level(false_alarm),
	       strcmp(verdict, "uniform") ? verdict : "ok");
	return strcmp(verdict, "uniform") != 0;
}

/* Slot indexes of 'bases' in 'set'; 1 (with a message) if a base is not one of the slots. */
static int indexes(const char *field, const struct slot_set *set, const uint64_t *bases, size_t n,
		   uint64_t *out)
{
	for (size_t i = 0; i < n; i++) {
		int64_t k = layout_index(set, bases[i]);
		if (k < 0) {
			printf("uniformity: FAIL: %s=0x%llx is not one of the %llu slots\n", field,
			       (unsigned long long)bases[i], (unsigned long long)set->total);
			return 1;
		}
		out[i] = (uint64_t)k;
	}
	return 0;
}

/* The stub's claim against the recount: both the number of slots and their spacing. */
static int claim_matches(const char *field, uint64_t slots, uint64_t align,
			 const struct slot_set *set)
{
	if (slots == set->total && align == set->align)
		return 1;
	printf("uniformity: FAIL: the stub reports %s=%llu at 0x%llx, the recount gives %llu at "
	       "0x%llx\n",
	       field, (unsigned long long)slots, (unsigned long long)align,
	       (unsigned long long)set->total, (unsigned long long)set->align);
	return 0;
}

/* The words uniformity.sh appends to a base line, each a draw of the kernel's own: the entry
 * area (" idt=0x...") and the direct map's base (" dmap=0x..."). */
#define WORDS 2
static const char *const word_keys[WORDS] = { " idt=", " dmap=" };

struct words {
	uint64_t *values[WORDS];
	size_t count[WORDS], cap[WORDS];
};

/* The value of the word 'key' on a line: 0, or -1 if the line has none. */
static int word_of(const char *line, const char *key, uint64_t *out)
{
	const char *p = strstr(line, key);
	if (!p)
		return -1;
	char *end;
	errno = 0;
	*out = strtoull(p + strlen(key), &end, 16);
	return errno || end == p + strlen(key) ? -1 : 0;
}

static int add_word(struct words *w, unsigned k, uint64_t v)
{
	if (w->count[k] == w->cap[k]) {
		w->cap[k] = w->cap[k] ? 2 * w->cap[k] : 1024;
		uint64_t *grown = realloc(w->values[k], w->cap[k] * sizeof(uint64_t));
		if (!grown)
			return 2;
		w->values[k] = grown;
	}
	w->values[k][w->count[k]++] = v;
	return 0;
}

/* The lines on stdin into s, and the words of each base line into w. */
static int read_lines(struct samples *s, struct words *w)
{
	char *line = malloc(LINE_BYTES);
	int rc = line ? 0 : 2;
	memset(w, 0, sizeof(*w));
	while (rc == 0 && fgets(line, LINE_BYTES, stdin)) {
		size_t before = s->n;
		uint64_t v;
		if (samples_add_line(s, line)) {
			fprintf(stderr, "uniformity: %s\n", s->error);
			rc = 2;
		} else if (s->n > before) {
			for (unsigned k = 0; k < WORDS && rc == 0; k++)
				if (word_of(line, word_keys[k], &v) == 0)
					rc = add_word(w, k, v);
		}
	}
	free(line);
	return rc;
}

/* What is judged of one draw per boot: its name, its slots, each boot's value and index. */
struct draw {
	const char *name;
	struct slot_set set;
	const uint64_t *values;
	uint64_t *index;
};

static int judge_lines(const struct options *o)
{
	struct draw d[DRAWS_MAX] = { { .name = "phys" }, { .name = "base" }, { .name = "idt" },
				     { .name = "dmap" } };
	const char *universe = "as given";
	int has_virt = o->has_vslots, has_word[WORDS] = { o->entry_lo != 0, o->dmap_lo != 0 };
	struct samples s;
	struct words w;
	samples_init(&s);
	int rc = read_lines(&s, &w);
	if (rc == 0 && s.n < 2) {
		fprintf(stderr, "uniformity: need at least 2 base lines, got %zu\n", s.n);
		rc = 2;
	}
	for (unsigned k = 0; k < WORDS && rc == 0; k++)
		if (has_word[k] && w.count[k] != s.n) {
			fprintf(stderr, "uniformity: %zu of %zu base lines carry no%s\n",
				s.n - w.count[k], s.n, word_keys[k]);
			rc = 2;
		}
	if (rc == 0 && o->image) {
		struct kslide_image_header h;
		struct mem_span loaded;
		const char *why;
		if (layout_read_header(o->image, &h, &loaded, &why)) {
			rc = bad_input("%s", why);
		} else if (!s.has_usable) {
			fprintf(stderr, "uniformity: no 'kernel: usable=' (or 'kslide-linux: "
					"usable=') line: the slots cannot be recounted\n");
			rc = 2;
		} else {
			/* what the loader placed, which the stub avoids: the image (where the stub
			 * said it ran, as UEFI firmware chooses; else where the container asks) and
			 * the initrd */
			if (s.has_image_at) {
				loaded.end = s.image_at + (loaded.end - loaded.start);
				loaded.start = s.image_at;
			}
			struct mem_span avoid[] = {loaded, s.initrd};
			layout_phys_from_map(&h, s.usable, s.usable_count, avoid,
					     1 + s.initrd_count, &d[0].set);
			layout_virt_from_header(&h, &d[1].set);
			has_virt = h.virt_align != 0;
			universe = "recounted from the image header and the memory map";
		}
	} else if (rc == 0) {
		layout_contiguous(o->lo, o->align, o->slots, &d[0].set);
		layout_contiguous(o->vlo, o->valign, o->vslots, &d[1].set);
	}
	layout_contiguous(o->entry_lo, ENTRY_ALIGN, o->entry_slots, &d[2].set);
	layout_contiguous(o->dmap_lo, DMAP_ALIGN, o->dmap_slots, &d[3].set);
	d[0].values = s.phys, d[1].values = s.virt;
	d[2].values = w.values[0], d[3].values = w.values[1];
	if (rc == 0) {
		if (!claim_matches("slots", s.first.slots, s.first.align, &d[0].set))
			rc = 1;
		if (has_virt && (!s.first.has_vslots ||
				 !claim_matches("vslots", s.first.vslots, s.first.valign, &d[1].set)))
			rc = 1;
		if (!has_virt && s.first.has_vslots) {
			printf("uniformity: FAIL: the stub reports vslots=, the image has no virtual "
			       "window\n");
			rc = 1;
		}
	}
	/* The draws judged, in order: phys always, then base, idt and dmap when there are. */
	struct draw *judged[DRAWS_MAX];
	size_t m = 0;
	judged[m++] = &d[0];
	if (has_virt)
		judged[m++] = &d[1];
	for (unsigned k = 0; k < WORDS; k++)
		if (has_word[k])
			judged[m++] = &d[2 + k];
	for (size_t k = 0; k < m && rc == 0; k++) {
		judged[k]->index = malloc(s.n * sizeof(uint64_t));
		if (!judged[k]->index) {
			fprintf(stderr, "uniformity: out of memory\n");
			rc = 2;
		} else {
			rc = indexes(judged[k]->name, &judged[k]->set, judged[k]->values, s.n,
				     judged[k]->index);
		}
	}
	if (rc == 0) {
		/* Every draw, and every pair of them, shares the false-alarm budget. */
		double each = o->false_alarm / (double)(m + m * (m - 1) / 2);
		int bad = 0;
		for (size_t a = 0; a < m; a++) /* before judge() sorts the indexes */
			for (size_t b = a + 1; b < m; b++)
				bad |= independence(judged[a]->name, judged[a]->index,
						    judged[a]->set.total, judged[b]->name,
						    judged[b]->index, judged[b]->set.total, s.n, each);
		for (size_t k = 0; k < m; k++) {
			int one = judge(judged[k]->name, judged[k]->index, s.n, judged[k]->set.total,
					each, judged[k] >= &d[2] ? "as given" : universe);
			rc = rc == 2 || one == 2 ? 2 : rc || one;
		}
		rc = rc == 2 ? 2 : rc || bad;
	}
	for (size_t k = 0; k < DRAWS_MAX; k++)
		free(d[k].index);
	for (unsigned k = 0; k < WORDS; k++)
		free(w.values[k]);
	samples_free(&s);
	return rc;
}

/* An index below n from 64 random bits, by rejection (n may pass 2^32). */
static uint64_t below(gsl_rng *rng, uint64_t n)
{
	uint64_t mask = n - 1;
	for (int b = 1; b < 64; b *= 2)
		mask |= mask >> b;
	for (;;) {
		uint64_t x = ((uint64_t)gsl_rng_get(rng) << 32 | gsl_rng_get(rng)) & mask;
		if (x < n)
			return x;
	}
}

/* A draw in which the slots [start, start + n/4) are QUARTER_BIAS times likelier. */
static uint64_t quarter(gsl_rng *rng, uint64_t n, uint64_t start)
{
	for (;;) {
		uint64_t x = below(rng, n);
		if ((x >= start && x - start < n / 4) || gsl_rng_uniform(rng) < 1 / QUARTER_BIAS)
			return x;
	}
}

/* The models --simulate knows; 'start' is where a run's biased quarter begins. */
static uint64_t draw(const char *model, gsl_rng *rng, uint64_t n, uint64_t start)
{
	if (!strcmp(model, "fold")) { /* uniform_below folding its mask's excess onto the start */
		uint64_t mask = n - 1;
		for (int b = 1; b < 64; b *= 2)
			mask |= mask >> b;
		uint64_t x = below(rng, mask + 1);
		return x >= n ? x - n : x;
	}
	if (!strcmp(model, "lower-half"))
		return below(rng, n / 2);
	if (!strncmp(model, "quarter-", strlen("quarter-")))
		return quarter(rng, n, start);
	return below(rng, n);
}

static const char *const models[] = { "uniform", "fold", "lower-half", "quarter-low",
				      "quarter-middle", "quarter-high", "quarter-anywhere" };

static int simulate(const struct options *o)
{
	size_t known = 0;
	while (known < sizeof(models) / sizeof(models[0]) && strcmp(models[known], o->model))
		known++;
	if (known == sizeof(models) / sizeof(models[0]))
		return bad_input("--simulate: no model named %s", o->model);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	uint64_t *index = malloc(o->samples * sizeof(*index));
	if (!rng || !index)
		return bad_input("%s", "out of memory");
	gsl_rng_set(rng, SIM_SEED);
	uint64_t rejected = 0, n = o->slots;
	for (uint64_t r = 0; r < o->runs; r++) {
		uint64_t start = !strcmp(o->model, "quarter-middle") ? n * 3 / 8
				 : !strcmp(o->model, "quarter-high")  ? n - n / 4
				 : !strcmp(o->model, "quarter-anywhere") ? below(rng, n - n / 4 + 1)
									 : 0;
		for (uint64_t i = 0; i < o->samples; i++)
			index[i] = draw(o->model, rng, n, start);
		struct uniformity u;
		if (uniformity_measure(index, o->samples, n, &u))
			return bad_input("%s", "cannot measure the simulated samples");
		rejected += strcmp(uniformity_verdict(&u, o->false_alarm), "uniform") != 0;
	}
	printf("simulated %s: %llu samples over %llu slots, %llu runs: %llu rejected (%.4f)\n",
	       o->model, (unsigned long long)o->samples, (unsigned long long)n,
	       (unsigned long long)o->runs, (unsigned long long)rejected,
	       (double)rejected / (double)o->runs);
	free(index);
	gsl_rng_free(rng);
	return 0;
}

int main(int argc, char **argv)
{
	struct options o;
	int rc = parse_options(argc, argv, &o);
	if (rc)
		return rc;
	if (o.has_ad_tail) {
		printf("%.6g\n", stats_ad_upper_tail(o.ad_tail));
		return 0;
	}
	return o.model ? simulate(&o) : judge_lines(&o);
}
