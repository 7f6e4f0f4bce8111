/* Timer jitter: TSC deltas across PIT edges, health-tested and credited (see jitter.h). */
#include "lib/jitter.h"

#include <stdbool.h>

#include "include/protocol/i8254.h"
#include "lib/wipe.h"

static uint16_t pit_count(const struct arch_ops *arch)
{
	uint8_t lo, hi;

	arch->outb(arch->ctx, PIT_PORT_CMD, PIT_LATCH_CH0);
	lo = arch->inb(arch->ctx, PIT_PORT_CH0);
	hi = arch->inb(arch->ctx, PIT_PORT_CH0);
	return (uint16_t)(lo | hi << 8);
}

/* Spins until the count changes: true with the new count, false when it never does. */
static bool next_edge(const struct arch_ops *arch, uint16_t *count)
{
	for (unsigned i = 0; i < JITTER_EDGE_READS; i++) {
		uint16_t now = pit_count(arch);

		if (now != *count) {
			*count = now;
			return true;
		}
	}
	return false;
}

/* The lag in [1, JITTER_LAG_MAX] whose guesses s[i] = s[i - lag] hit most often over s[0, n). */
static void best_lag(const uint8_t *s, uint32_t n, uint32_t *lag, uint32_t *hits)
{
	*lag = 0;
	*hits = 0;
	for (uint32_t d = 1; d <= JITTER_LAG_MAX && d < n; d++) {
		uint32_t h = 0;

		for (uint32_t i = d; i < n; i++)
			h += s[i] == s[i - d];
		if (h > *hits) {
			*lag = d;
			*hits = h;
		}
	}
}

static uint32_t credit_of(uint32_t passed)
{
	return passed < JITTER_STARTUP_SAMPLES ? 0 : passed / JITTER_SAMPLES_PER_BIT;
}

void jitter_collect(const struct arch_ops *arch, uint32_t target, struct mix_pool *pool,
		    struct jitter_report *report)
{
	struct health_tests tests;
	uint8_t startup[JITTER_STARTUP_SAMPLES];
	uint16_t count = pit_count(arch);
	uint64_t last = arch->rdtsc(arch->ctx);

	health_tests_init(&tests);
	*report = (struct jitter_report){ JITTER_TARGET_MET, HEALTH_OK, 0, 0, 0, 0, 0, 0 };
	while (report->credited < target) {
		uint16_t before = count;

		if (report->pit_steps >= JITTER_BOUND_PIT_STEPS) {
			report->stop = JITTER_BOUND_REACHED;
			break;
		}
		if (!next_edge(arch, &count)) {
			report->stop = JITTER_PIT_STOPPED;
			break;
		}
		uint64_t now = arch->rdtsc(arch->ctx);
		/* Channel 0 counts down and wraps: the step is before - now modulo 2^16. */
		report->pit_steps += (uint16_t)(before - count);
		/* The whole delta goes into the pool; its low byte is the raw sample judged. */
		pool_mix_u64(pool, now - last);
		report->samples++;
		uint8_t sample = (uint8_t)(now - last);
		report->health = health_tests_feed(&tests, sample);
		last = now;
		if (report->health != HEALTH_OK) {
			report->stop = JITTER_HEALTH_FAILED;
			break;
		}
		if (report->passed < JITTER_STARTUP_SAMPLES)
			startup[report->passed] = sample;
		report->passed++;
		if (report->passed == JITTER_STARTUP_SAMPLES) {
			best_lag(startup, JITTER_STARTUP_SAMPLES, &report->lag, &report->lag_hits);
			if (2 * report->lag_hits > JITTER_STARTUP_SAMPLES - report->lag) {
				report->stop = JITTER_PREDICTABLE;
				break;
			}
		}
		report->credited = credit_of(report->passed);
	}
	/* The raw samples are mixed into the pool, whose output is secret: no copy stays. */
	wipe(startup, sizeof(startup));
	if (report->credited > target)
		report->credited = target;
}

void jitter_top_up(const struct arch_ops *arch, const struct cpu_features *cpu,
		   uint32_t allowed, uint32_t wanted, struct mix_pool *pool,
		   struct entropy_report *report, struct jitter_report *jitter)
{
	const uint32_t hwrng = ENTROPY_BIT(ENTROPY_RDSEED) | ENTROPY_BIT(ENTROPY_RDRAND);
	const uint32_t self = ENTROPY_BIT(ENTROPY_JITTER);

	*jitter = (struct jitter_report){ JITTER_TARGET_MET, HEALTH_OK, 0, 0, 0, 0, 0, 0 };
	report->credited[ENTROPY_JITTER] = 0;
	if ((report->answered & hwrng) || !(allowed & self) || !cpu->tsc ||
	    report->credited_bits >= wanted)
		return;
	report->present |= self;
	jitter_collect(arch, wanted - report->credited_bits, pool, jitter);
	if (jitter->samples == 0)
		return;
	report->answered |= self;
	report->credited[ENTROPY_JITTER] = jitter->credited;
	report->credited_bits += jitter->credited;
}
