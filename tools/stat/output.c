/* The table and the JSON (see output.h). Every figure is printed by exactly one of them. */
#include <math.h>
#include <string.h>

#include "tools/stat/output.h"

#define LABEL_WIDTH  34
#define COLUMN_WIDTH 27

static void row(FILE *f, const char *label, const char *phys, const char *virt)
{
	fprintf(f, "  %-*s %-*s %s\n", LABEL_WIDTH, label, COLUMN_WIDTH, phys, virt);
}

typedef void (*cell_fn)(char *out, size_t cap, const struct base_report *b);

static void both(FILE *f, const char *label, cell_fn fn, const struct report *r)
{
	char p[64], v[64];
	fn(p, sizeof(p), &r->phys);
	fn(v, sizeof(v), &r->virt);
	row(f, label, p, v);
}

static void c_samples(char *o, size_t n, const struct base_report *b)
{
	snprintf(o, n, "%zu", b->u.samples);
}
static void c_distinct(char *o, size_t n, const struct base_report *b)
{
	snprintf(o, n, "%zu", b->u.distinct);
}
static void c_slots(char *o, size_t n, const struct base_report *b)
{
	snprintf(o, n, "%llu", (unsigned long long)b->slots_stub);
}
static void c_recount(char *o, size_t n, const struct base_report *b)
{
	if (!b->slots_recount)
		snprintf(o, n, "-");
	else
		snprintf(o, n, "%llu%s", (unsigned long long)b->slots_recount,
			 b->slots_recount == b->slots_stub ? " (agrees)" : " (DIFFERS)");
}
static void c_log2(char *o, size_t n, const struct base_report *b)
{
	snprintf(o, n, "%.2f", log2((double)b->slots_stub));
}
static void c_expected(char *o, size_t n, const struct base_report *b)
{
	snprintf(o, n, "%.1f +- %.1f, p=%.3g", b->u.distinct_mean, b->u.distinct_sd,
		 b->u.distinct_p);
}
static void c_pairs(char *o, size_t n, const struct base_report *b)
{
	double m = b->u.collision_pairs_mean;
	snprintf(o, n, m >= 1 ? "%llu (uniform %.1f)" : "%llu (uniform %.3f)",
		 (unsigned long long)b->u.collision_pairs, m);
}
static void c_h2(char *o, size_t n, const struct base_report *b)
{
	if (isnan(b->u.collision_entropy))
		snprintf(o, n, "- (no collision)");
	else
		snprintf(o, n, "%.2f", b->u.collision_entropy);
}
static void c_top(char *o, size_t n, const struct base_report *b)
{
	snprintf(o, n, "%llu (%.2f%%)", (unsigned long long)b->u.max_count,
		 100.0 * (double)b->u.max_count / (double)b->u.samples);
}
static void c_hmin(char *o, size_t n, const struct base_report *b)
{
	snprintf(o, n, "%.2f", b->u.min_entropy);
}
static void c_hmin_uniform(char *o, size_t n, const struct base_report *b)
{
	snprintf(o, n, "%.2f (%.2f..%.2f)", b->u.min_entropy_uniform, b->u.min_entropy_uniform_lo,
		 b->u.min_entropy_uniform_hi);
}
static void c_chi2(char *o, size_t n, const struct base_report *b)
{
	snprintf(o, n, "%.1f, %llu bins", b->u.chi2, (unsigned long long)b->u.bins);
}
static void c_p(char *o, size_t n, const struct base_report *b)
{
	snprintf(o, n, "%.4f", b->u.p);
}
static void c_ad(char *o, size_t n, const struct base_report *b)
{
	snprintf(o, n, "%.3f, p=%.4g", b->u.ad, b->u.ad_p);
}
static void c_window(char *o, size_t n, const struct base_report *b)
{
	snprintf(o, n, "%.2f sd, p=%.4g", b->u.window_z, b->u.window_p);
}
static void c_verdict(char *o, size_t n, const struct base_report *b)
{
	snprintf(o, n, "%s", b->verdict);
}

static void comparison(FILE *f, const char *label, const char *positions, double shannon,
		       double min_entropy)
{
	fprintf(f, "  %-*s %12s %9.2f %12.2f\n", LABEL_WIDTH + 4, label, positions, shannon,
		min_entropy);
}

static void entropy_text(FILE *f, const struct report *r)
{
	const struct samples *s = r->samples;
	fprintf(f, "\nentropy sources (from the stub's kslide: line)\n");
	for (size_t i = 0; i < s->set_count; i++)
		fprintf(f, "  %-*s %zu boot%s, credited %u..%u bits\n", LABEL_WIDTH,
			s->sets[i].names, s->sets[i].boots, s->sets[i].boots == 1 ? "" : "s",
			s->sets[i].credited_min, s->sets[i].credited_max);
	if (r->zero_boots)
		fprintf(f,
			"  PREDICTABLE: %zu of %zu boots credited 0 bits; their bases carry no "
			"entropy the stub can vouch for\n",
			r->zero_boots, s->n);
	if (r->low_boots)
		fprintf(f,
			"  LOW ENTROPY: %zu of %zu boots credited fewer bits than the layout's "
			"%.2f "
			"(lowest: %u)\n",
			r->low_boots, s->n, r->layout_bits, r->credited_min);
	if (s->random_lines)
		fprintf(f, "  random= diagnostic: %llu bytes from %zu boots\n",
			(unsigned long long)s->random_bytes, s->random_lines);
}

void output_text(FILE *f, const struct report *r)
{
	fprintf(f, "kslide-stat: %s\n  %s\n", r->image, r->source);
	if (r->boots_failed)
		fprintf(f, "  FAILED BOOTS: %zu (their bases are not counted)\n", r->boots_failed);
	fprintf(f, "\n");
	row(f, "", "physical base",
	    r->virt.follows_physical ? "virtual (follows phys)" : "virtual base");
	both(f, "samples", c_samples, r);
	both(f, "distinct values", c_distinct, r);
	if (r->linux_own) {
		both(f, "slots (Linux's KASLR, see below)", c_slots, r);
	} else {
		both(f, "slots (stub)", c_slots, r);
		char lp[64], lv[64];
		c_recount(lp, sizeof(lp), &r->phys);
		c_recount(lv, sizeof(lv), &r->virt);
		row(f, "slots (recount, see below)", lp, lv);
	}
	both(f, "log2(slots), bits", c_log2, r);
	both(f, "distinct if uniform", c_expected, r);
	both(f, "collision pairs", c_pairs, r);
	both(f, "collision entropy, bits", c_h2, r);
	both(f, "most frequent value", c_top, r);
	both(f, "min-entropy (plug-in), bits", c_hmin, r);
	both(f, "  the same, uniform draws (90%)", c_hmin_uniform, r);
	both(f, "chi-square", c_chi2, r);
	both(f, "p-value", c_p, r);
	both(f, "Anderson-Darling A^2", c_ad, r);
	both(f, "farthest quarter window", c_window, r);
	both(f, "verdict", c_verdict, r);
	if (r->linux_own)
		fprintf(f, "  (slots from %s)\n", r->phys.recount_from);
	else
		fprintf(f, "  (recount from the %s%s)\n", r->phys.recount_from,
			r->virt.follows_physical ? "" : "; virtual from the header");
	if (!r->linux_own)
		entropy_text(f, r);

	fprintf(f, "\ncomparison%*s %12s %9s %12s\n", LABEL_WIDTH - 6, "", "positions", "Shannon",
		"min-entropy");
	char pos[32];
	snprintf(pos, sizeof(pos), "%llu", (unsigned long long)r->seed.positions);
	comparison(f, "2011 seed patch (exact, its algorithm)", pos, r->seed.shannon,
		   r->seed.min_entropy);
	snprintf(pos, sizeof(pos), "%llu", (unsigned long long)r->linux64.positions);
	comparison(f, "Linux x86-64, virtual (~1 GiB / 2 MiB)", pos, r->linux64.shannon,
		   r->linux64.min_entropy);
	snprintf(pos, sizeof(pos), "%llu", (unsigned long long)r->phys.slots_stub);
	comparison(f,
		   r->linux_own ? "this kernel's own KASLR, physical"
				: "this layout's limit, physical",
		   pos, log2((double)r->phys.slots_stub), log2((double)r->phys.slots_stub));
	if (!r->virt.follows_physical) {
		snprintf(pos, sizeof(pos), "%llu", (unsigned long long)r->virt.slots_stub);
		comparison(f,
			   r->linux_own ? "this kernel's own KASLR, virtual"
					: "this layout's limit, virtual",
			   pos, log2((double)r->virt.slots_stub), log2((double)r->virt.slots_stub));
	}
	fprintf(f, "  %-*s %12zu %9s %12.2f   (plug-in, %zu samples; at most log2(n) = %.2f)\n",
		LABEL_WIDTH + 4, "this run, physical, measured", r->phys.u.distinct, "-",
		r->phys.u.min_entropy, r->phys.u.samples, log2((double)r->phys.u.samples));
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void json_number(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fprintf(f, "null");
	else
		fprintf(f, "%.6g", v);
}

static void json_base(FILE *f, const struct base_report *b)
{
	const struct uniformity *u = &b->u;
	fprintf(f, "{\"follows_physical\": %s, \"samples\": %zu, \"distinct\": %zu, ",
		b->follows_physical ? "true" : "false", u->samples, u->distinct);
	fprintf(f, "\"slots\": %llu, \"slots_recount\": ", (unsigned long long)b->slots_stub);
	if (b->slots_recount)
		fprintf(f, "%llu", (unsigned long long)b->slots_recount);
	else
		fprintf(f, "null");
	fprintf(f, ", \"log2_slots\": ");
	json_number(f, log2((double)b->slots_stub));
	fprintf(f, ", \"distinct_expected\": ");
	json_number(f, u->distinct_mean);
	fprintf(f, ", \"distinct_sd\": ");
	json_number(f, u->distinct_sd);
	fprintf(f, ", \"distinct_p\": ");
	json_number(f, u->distinct_p);
	fprintf(f, ", \"collision_pairs\": %llu, \"collision_pairs_expected\": ",
		(unsigned long long)u->collision_pairs);
	json_number(f, u->collision_pairs_mean);
	fprintf(f, ", \"collision_entropy\": ");
	json_number(f, u->collision_entropy);
	fprintf(f, ", \"max_count\": %llu, \"min_entropy\": ", (unsigned long long)u->max_count);
	json_number(f, u->min_entropy);
	fprintf(f, ", \"min_entropy_uniform\": ");
	json_number(f, u->min_entropy_uniform);
	fprintf(f, ", \"min_entropy_uniform_5\": ");
	json_number(f, u->min_entropy_uniform_lo);
	fprintf(f, ", \"min_entropy_uniform_95\": ");
	json_number(f, u->min_entropy_uniform_hi);
	fprintf(f, ", \"chi2\": ");
	json_number(f, u->chi2);
	fprintf(f, ", \"bins\": %llu, \"p\": ", (unsigned long long)u->bins);
	json_number(f, u->p);
	fprintf(f, ", \"anderson_darling\": ");
	json_number(f, u->ad);
	fprintf(f, ", \"anderson_darling_p\": ");
	json_number(f, u->ad_p);
	fprintf(f, ", \"window_z\": ");
	json_number(f, u->window_z);
	fprintf(f, ", \"window_p\": ");
	json_number(f, u->window_p);
	fprintf(f, ", \"verdict\": ");
	json_string(f, b->verdict);
	fprintf(f, "}");
}

static void json_distribution(FILE *f, const struct distribution_summary *d)
{
	fprintf(f, "{\"positions\": %llu, \"shannon\": ", (unsigned long long)d->positions);
	json_number(f, d->shannon);
	fprintf(f, ", \"min_entropy\": ");
	json_number(f, d->min_entropy);
	fprintf(f, "}");
}

void output_json(FILE *f, const struct report *r)
{
	const struct samples *s = r->samples;
	fprintf(f, "{\n  \"image\": ");
	json_string(f, r->image);
	fprintf(f, ",\n  \"source\": ");
	json_string(f, r->source);
	fprintf(f, ",\n  \"kaslr\": \"%s\"", r->linux_own ? "linux" : "kslide");
	fprintf(f, ",\n  \"boots_failed\": %zu,\n  \"physical\": ", r->boots_failed);
	json_base(f, &r->phys);
	fprintf(f, ",\n  \"virtual\": ");
	json_base(f, &r->virt);
	fprintf(f, ",\n  \"entropy\": {\"sources\": [");
	for (size_t i = 0; i < s->set_count; i++) {
		fprintf(f, "%s{\"names\": ", i ? ", " : "");
		json_string(f, s->sets[i].names);
		fprintf(f, ", \"boots\": %zu, \"credited_min\": %u, \"credited_max\": %u}",
			s->sets[i].boots, s->sets[i].credited_min, s->sets[i].credited_max);
	}
	fprintf(f, "], \"credited_min\": %u, \"layout_bits\": ", r->credited_min);
	json_number(f, r->layout_bits);
	fprintf(f, ", \"low_boots\": %zu, \"predictable_boots\": %zu, \"random_bytes\": %llu},\n",
		r->low_boots, r->zero_boots, (unsigned long long)s->random_bytes);
	fprintf(f, "  \"comparison\": {\"seed_patch\": ");
	json_distribution(f, &r->seed);
	fprintf(f, ", \"linux_x86_64_virtual\": ");
	json_distribution(f, &r->linux64);
	fprintf(f, "}\n}\n");
}
