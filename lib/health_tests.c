/* SP 800-90B's repetition count and adaptive proportion tests (see health_tests.h). */
#include "lib/health_tests.h"

void health_tests_init(struct health_tests *t)
{
	t->rct_value = 0;
	t->rct_count = 0;
	t->apt_value = 0;
	t->apt_count = 0;
	t->apt_seen = 0;
	t->started = false;
}

/* 4.4.1: A is the last value, B how many times in a row it came; fail when B reaches C. */
static bool rct_fails(struct health_tests *t, uint8_t sample)
{
	if (t->started && sample == t->rct_value) {
		t->rct_count++;
	} else {
		t->rct_value = sample;
		t->rct_count = 1;
	}
	return t->rct_count >= HEALTH_RCT_CUTOFF;
}

/*
 * 4.4.2: the first sample of each window of W is A; B counts A's occurrences in the window,
 * A itself included; fail when B reaches C.
 */
static bool apt_fails(struct health_tests *t, uint8_t sample)
{
	if (t->apt_seen == 0 || t->apt_seen == HEALTH_APT_WINDOW) {
		t->apt_value = sample;
		t->apt_count = 1;
		t->apt_seen = 1;
		return false;
	}
	t->apt_seen++;
	if (sample == t->apt_value)
		t->apt_count++;
	return t->apt_count >= HEALTH_APT_CUTOFF;
}

enum health_failure health_tests_feed(struct health_tests *t, uint8_t sample)
{
	bool rct = rct_fails(t, sample);
	bool apt = apt_fails(t, sample);

	t->started = true;
	if (rct)
		return HEALTH_RCT_FAILED;
	return apt ? HEALTH_APT_FAILED : HEALTH_OK;
}
