/* jitter_collect and jitter_top_up against fake clocks: stuck, biased, good and slow. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/jitter.h"
#include "tests/unit/support/fake_arch.h"

#define STEPS 4096

struct machine {
	struct fake_arch f;
	struct arch_ops ops;
	struct mix_pool pool;
	struct jitter_report j;
	uint64_t steps[STEPS];
};

/* A PIT that moves 'pit_step' count steps between latches, and a TSC with no steps yet. */
static void machine(struct machine *m, uint16_t pit_step)
{
	memset(m, 0, sizeof(*m));
	fake_arch_init(&m->f, &m->ops);
	pool_init(&m->pool);
	m->f.pit_present = true;
	m->f.pit_latched = 0x8000;
	m->f.pit_step = pit_step;
	m->f.tsc = 1u << 20;
	m->f.tsc_steps = m->steps;
	m->f.tsc_nsteps = STEPS;
	memset(&m->j, 0xa5, sizeof(m->j)); /* every field must be written */
}

/* TSC deltas whose low bytes look uniform (a 32-bit LCG's top byte). */
static void good_tsc(struct machine *m)
{
	uint32_t x = 12345;

	for (unsigned i = 0; i < STEPS; i++) {
		x = x * 1664525u + 1013904223u;
		m->steps[i] = 1000 + (x >> 24);
	}
}

static void stuck_tsc_fails_the_repetition_count_test_and_credits_nothing(void **state)
{
	(void)state;
	struct machine m;

	machine(&m, 3);
	for (unsigned i = 0; i < STEPS; i++)
		m.steps[i] = 1000; /* an emulator counting instructions: the same delta every edge */
	jitter_collect(&m.ops, 20, &m.pool, &m.j);
	assert_int_equal(m.j.stop, JITTER_HEALTH_FAILED);
	assert_int_equal(m.j.health, HEALTH_RCT_FAILED);
	assert_int_equal(m.j.samples, HEALTH_RCT_CUTOFF);
	assert_int_equal(m.j.credited, 0);
}

/* Two thirds of the deltas alike, never more than twice in a row: only the APT sees it. */
static void biased_tsc_fails_the_adaptive_proportion_test_and_credits_nothing(void **state)
{
	(void)state;
	struct machine m;

	machine(&m, 3);
	good_tsc(&m);
	for (unsigned i = 0; i < STEPS; i++) {
		if (i % 3 != 2)
			m.steps[i] = 1000;
	}
	jitter_collect(&m.ops, 20, &m.pool, &m.j);
	assert_int_equal(m.j.stop, JITTER_HEALTH_FAILED);
	assert_int_equal(m.j.health, HEALTH_APT_FAILED);
	assert_true(m.j.samples <= HEALTH_APT_WINDOW);
	assert_int_equal(m.j.credited, 0);
}

/*
 * Deltas that repeat with a period of 20 (an instruction-counting TSC, as QEMU's -icount
 * gives), each value at most 3 times a window: both health tests pass, the lag predictor
 * guesses every sample after the first period and nothing is credited.
 */
static void periodic_tsc_is_predicted_by_lag_and_credits_nothing(void **state)
{
	(void)state;
	struct machine m;

	machine(&m, 3);
	good_tsc(&m);
	for (unsigned i = 20; i < STEPS; i++)
		m.steps[i] = m.steps[i % 20];
	jitter_collect(&m.ops, 20, &m.pool, &m.j);
	assert_int_equal(m.j.stop, JITTER_PREDICTABLE);
	assert_int_equal(m.j.health, HEALTH_OK);
	assert_int_equal(m.j.samples, JITTER_STARTUP_SAMPLES);
	assert_int_equal(m.j.lag, 20);
	assert_int_equal(m.j.lag_hits, JITTER_STARTUP_SAMPLES - 20);
	assert_int_equal(m.j.credited, 0);
}

/* A lag that guesses a quarter of the samples is below the rule: the source keeps its credit. */
static void a_lag_guessing_a_quarter_of_the_samples_keeps_the_credit(void **state)
{
	(void)state;
	struct machine m;

	machine(&m, 3);
	good_tsc(&m);
	for (unsigned i = 4; i < STEPS; i += 4)
		m.steps[i] = m.steps[i - 1]; /* every fourth delta repeats the one before */
	jitter_collect(&m.ops, 20, &m.pool, &m.j);
	assert_true(m.j.lag_hits >= JITTER_STARTUP_SAMPLES / 4 - 1);
	assert_true(2 * m.j.lag_hits <= JITTER_STARTUP_SAMPLES - m.j.lag);
	assert_int_equal(m.j.stop, JITTER_TARGET_MET);
	assert_int_equal(m.j.credited, 20);
}

/* Nothing is credited before the start-up tests' 1024 samples, then 1 bit per 8 samples. */
static void good_clocks_reach_the_target_and_stop_there(void **state)
{
	(void)state;
	struct machine m;

	machine(&m, 3);
	good_tsc(&m);
	jitter_collect(&m.ops, 20, &m.pool, &m.j);
	assert_int_equal(m.j.stop, JITTER_TARGET_MET);
	assert_int_equal(m.j.health, HEALTH_OK);
	assert_int_equal(m.j.credited, 20);
	assert_int_equal(m.j.samples, JITTER_STARTUP_SAMPLES);

	machine(&m, 3);
	good_tsc(&m);
	jitter_collect(&m.ops, 200, &m.pool, &m.j);
	assert_int_equal(m.j.stop, JITTER_TARGET_MET);
	assert_int_equal(m.j.credited, 200);
	assert_int_equal(m.j.samples, 200 * JITTER_SAMPLES_PER_BIT);
	assert_int_equal(m.j.passed, m.j.samples);
	assert_int_equal(m.j.pit_steps, 3 * m.j.samples);
}

/* 40 count steps an edge: the bound passes after ~1492 samples, 186 bits of the 250. */
static void the_bound_stops_collection_short_of_the_target(void **state)
{
	(void)state;
	struct machine m;

	machine(&m, 40);
	good_tsc(&m);
	jitter_collect(&m.ops, 250, &m.pool, &m.j);
	assert_int_equal(m.j.stop, JITTER_BOUND_REACHED);
	assert_true(m.j.pit_steps >= JITTER_BOUND_PIT_STEPS);
	assert_true(m.j.pit_steps < JITTER_BOUND_PIT_STEPS + 40);
	assert_int_equal(m.j.samples, m.j.pit_steps / 40);
	assert_int_equal(m.j.credited, m.j.samples / JITTER_SAMPLES_PER_BIT);
	assert_true(m.j.credited < 250);
}

/* Too slow a PIT even for the start-up tests: the bound, and nothing credited. */
static void the_bound_before_start_up_credits_nothing(void **state)
{
	(void)state;
	struct machine m;

	machine(&m, 100);
	good_tsc(&m);
	jitter_collect(&m.ops, 20, &m.pool, &m.j);
	assert_int_equal(m.j.stop, JITTER_BOUND_REACHED);
	assert_true(m.j.samples < JITTER_STARTUP_SAMPLES);
	assert_int_equal(m.j.credited, 0);
}

static void a_stopped_pit_ends_collection_after_bounded_reads(void **state)
{
	(void)state;
	struct machine m;

	machine(&m, 0);
	good_tsc(&m);
	jitter_collect(&m.ops, 20, &m.pool, &m.j);
	assert_int_equal(m.j.stop, JITTER_PIT_STOPPED);
	assert_int_equal(m.j.samples, 0);
	assert_int_equal(m.j.credited, 0);
	assert_int_equal(m.f.pit_latches, 1 + JITTER_EDGE_READS);
}

/* The counter wraps from 0 to 0xffff; the elapsed steps must not jump by 65536. */
static void pit_wrap_counts_one_step(void **state)
{
	(void)state;
	struct machine m;

	machine(&m, 7);
	good_tsc(&m);
	m.f.pit_latched = 100;
	jitter_collect(&m.ops, 20, &m.pool, &m.j);
	assert_int_equal(m.j.stop, JITTER_TARGET_MET);
	assert_int_equal(m.j.pit_steps, 7 * m.j.samples);
}

static void top_up(struct machine *m, bool rdrand_answered, uint32_t credited, uint32_t wanted,
		   struct entropy_report *r)
{
	struct cpu_features cpu;

	memset(&cpu, 0, sizeof(cpu));
	cpu.tsc = true;
	memset(r, 0, sizeof(*r));
	r->present = ENTROPY_BIT(ENTROPY_RDTSC) | ENTROPY_BIT(ENTROPY_PIT);
	r->answered = r->present;
	if (rdrand_answered) {
		r->present |= ENTROPY_BIT(ENTROPY_RDRAND);
		r->answered |= ENTROPY_BIT(ENTROPY_RDRAND);
	}
	r->credited_bits = credited;
	jitter_top_up(&m->ops, &cpu, ENTROPY_ALL, wanted, &m->pool, r, &m->j);
}

static void no_rdrand_tops_the_credit_up_to_the_bits_wanted(void **state)
{
	(void)state;
	struct machine m;
	struct entropy_report r;

	machine(&m, 3);
	good_tsc(&m);
	top_up(&m, false, 12, 20, &r);
	assert_int_equal(r.credited_bits, 20);
	assert_int_equal(r.credited[ENTROPY_JITTER], 8);
	assert_true(r.present & ENTROPY_BIT(ENTROPY_JITTER));
	assert_true(r.answered & ENTROPY_BIT(ENTROPY_JITTER));
}

static void rdrand_machines_collect_no_jitter(void **state)
{
	(void)state;
	struct machine m;
	struct entropy_report r;

	machine(&m, 3);
	good_tsc(&m);
	top_up(&m, true, 12, 100, &r);
	assert_int_equal(r.credited_bits, 12);
	assert_int_equal(m.f.tsc_calls + m.f.pit_latches, 0);
	assert_false(r.present & ENTROPY_BIT(ENTROPY_JITTER));
	assert_int_equal(m.j.samples, 0);
}

static void enough_credit_collects_no_jitter(void **state)
{
	(void)state;
	struct machine m;
	struct entropy_report r;

	machine(&m, 3);
	good_tsc(&m);
	top_up(&m, false, 20, 20, &r);
	assert_int_equal(m.f.tsc_calls + m.f.pit_latches, 0);
	assert_false(r.present & ENTROPY_BIT(ENTROPY_JITTER));
}

static void failed_jitter_is_named_but_credits_nothing(void **state)
{
	(void)state;
	struct machine m;
	struct entropy_report r;

	machine(&m, 3);
	for (unsigned i = 0; i < STEPS; i++)
		m.steps[i] = 1000;
	top_up(&m, false, 12, 20, &r);
	assert_int_equal(r.credited_bits, 12);
	assert_int_equal(r.credited[ENTROPY_JITTER], 0);
	assert_true(r.answered & ENTROPY_BIT(ENTROPY_JITTER));
	assert_int_equal(m.j.stop, JITTER_HEALTH_FAILED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stuck_tsc_fails_the_repetition_count_test_and_credits_nothing),
		cmocka_unit_test(biased_tsc_fails_the_adaptive_proportion_test_and_credits_nothing),
		cmocka_unit_test(periodic_tsc_is_predicted_by_lag_and_credits_nothing),
		cmocka_unit_test(a_lag_guessing_a_quarter_of_the_samples_keeps_the_credit),
		cmocka_unit_test(good_clocks_reach_the_target_and_stop_there),
		cmocka_unit_test(the_bound_stops_collection_short_of_the_target),
		cmocka_unit_test(the_bound_before_start_up_credits_nothing),
		cmocka_unit_test(a_stopped_pit_ends_collection_after_bounded_reads),
		cmocka_unit_test(pit_wrap_counts_one_step),
		cmocka_unit_test(no_rdrand_tops_the_credit_up_to_the_bits_wanted),
		cmocka_unit_test(rdrand_machines_collect_no_jitter),
		cmocka_unit_test(enough_credit_collects_no_jitter),
		cmocka_unit_test(failed_jitter_is_named_but_credits_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
