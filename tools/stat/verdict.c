/* The figures judged (verdict.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tools/stat/verdict.h"

enum verdict_measure_result verdict_measure(const char *name, const struct slot_set *set,
					    const uint64_t *bases, size_t n, double false_alarm,
					    uint64_t *index, struct base_report *b, char *err,
					    size_t err_cap)
{
	b->name = name;
	for (size_t i = 0; i < n; i++) {
		int64_t k = layout_index(set, bases[i]);
		if (k < 0) {
			snprintf(err, err_cap, "%s base 0x%llx is not one of the %llu slots", name,
				 (unsigned long long)bases[i], (unsigned long long)set->total);
			return VERDICT_NOT_A_SLOT;
		}
		index[i] = (uint64_t)k;
	}
	if (uniformity_measure(index, n, set->total, &b->u)) {
		snprintf(err, err_cap,
			 "need at least 2 bases over at least 2 slots (have %zu over %llu)", n,
			 (unsigned long long)set->total);
		return VERDICT_TOO_FEW;
	}
	uniformity_min_entropy_reference(n, set->total, &b->u);
	b->verdict = uniformity_verdict(&b->u, false_alarm);
	return VERDICT_MEASURED;
}

void verdict_entropy(const struct samples *s, struct report *r)
{
	if (r->linux_own) /* Linux does not say what it drew from */
		return;
	r->layout_bits = log2((double)r->phys.slots_stub);
	if (!r->virt.follows_physical)
		r->layout_bits += log2((double)r->virt.slots_stub);
	r->credited_min = samples_credited_min(s);
	for (size_t i = 0; i < s->n; i++) {
		r->zero_boots += s->credited[i] == 0;
		r->low_boots += (double)s->credited[i] < r->layout_bits;
	}
}

int verdict_findings(const struct report *r, FILE *to)
{
	int found = 0;
	const struct base_report *bases[] = { &r->phys, &r->virt };
	for (size_t i = 0; i < 2; i++) {
		const struct base_report *b = bases[i];
		if (i == 1 && b->follows_physical) /* its figures are the physical ones */
			continue;
		if (!r->linux_own && b->slots_recount && b->slots_recount != b->slots_stub) {
			fprintf(to, "kslide-stat: %s: the stub counted %llu %s slots, the recount "
				    "gives %llu\n",
				r->image, (unsigned long long)b->slots_stub, b->name,
				(unsigned long long)b->slots_recount);
			found++;
		}
		if (strcmp(b->verdict, "uniform")) {
			fprintf(to, "kslide-stat: %s: %s bases: %s\n", r->image, b->name, b->verdict);
			found++;
		}
	}
	if (!r->linux_own && (r->zero_boots || r->low_boots)) {
		fprintf(to,
			"kslide-stat: %s: %zu of %zu boots credited fewer bits than the layout's "
			"%.2f (lowest: %u)\n",
			r->image, r->low_boots, r->samples->n, r->layout_bits, r->credited_min);
		found++;
	}
	return found;
}
