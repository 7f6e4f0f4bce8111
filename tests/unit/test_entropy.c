/* entropy_gather against a fake machine: absent, failing, stuck and working sources. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/entropy.h"
#include "tests/unit/support/fake_arch.h"

#define CMOS_REG_A 0x0a

struct machine {
	struct fake_arch f;
	struct arch_ops ops;
	struct cpu_features cpu;
	struct mix_pool pool;
	struct entropy_report r;
};

/* Steps that change every time: a real TSC between back-to-back reads. */
static const uint64_t jittery_tsc[] = { 31, 37, 29, 41, 33, 30, 44, 35 };
/* PIT channel 0 counting down by uneven steps. */
static const uint16_t jittery_pit[] = { 60000, 59996, 59993, 59988, 59985, 59979, 59976, 59970 };

/* Nothing present: no CPUID features, no PIT, no RTC. */
static void bare(struct machine *m)
{
	memset(m, 0, sizeof(*m));
	fake_arch_init(&m->f, &m->ops);
	pool_init(&m->pool);
	memset(&m->r, 0xa5, sizeof(m->r)); /* every field must be written */
}

static void with_rdseed(struct machine *m)
{
	m->cpu.rdseed = true;
}

static void with_rdrand(struct machine *m)
{
	m->cpu.rdrand = true;
}

static void with_tsc(struct machine *m)
{
	m->cpu.tsc = true;
	m->f.tsc = 1000000;
	m->f.tsc_steps = jittery_tsc;
	m->f.tsc_nsteps = sizeof(jittery_tsc) / sizeof(jittery_tsc[0]);
}

static void with_pit(struct machine *m)
{
	m->f.pit_present = true;
	m->f.pit_values = jittery_pit;
	m->f.pit_count = sizeof(jittery_pit) / sizeof(jittery_pit[0]);
}

static void with_rtc(struct machine *m)
{
	static const uint8_t time[] = { 0x59, 0, 0x30, 0, 0x12, 0, 0, 0x24, 0x06, 0x25 };

	m->f.rtc_present = true;
	memcpy(m->f.cmos, time, sizeof(time));
	m->f.cmos[CMOS_REG_A] = 0x26; /* 32.768 kHz time base, 1.024 kHz periodic rate */
	m->f.uip_polls = 3;
}

/* The words UEFI's EFI_RNG_PROTOCOL gave, served once each as the x86 hook does. */
static uint32_t firmware_words[8];
static unsigned firmware_count, firmware_served;

static bool fake_firmware_rng32(void *ctx, uint32_t *out)
{
	(void)ctx;
	if (firmware_served >= firmware_count)
		return false;
	*out = firmware_words[firmware_served++];
	return true;
}

static void with_firmware_rng(struct machine *m, unsigned words)
{
	m->ops.firmware_rng32 = fake_firmware_rng32;
	for (unsigned i = 0; i < 8; i++)
		firmware_words[i] = 0x9e3779b9u * (i + 1);
	firmware_count = words;
	firmware_served = 0;
}

static void everything(struct machine *m)
{
	bare(m);
	with_rdseed(m);
	with_rdrand(m);
	with_tsc(m);
	with_pit(m);
	with_rtc(m);
	with_firmware_rng(m, 8);
}

static void gather(struct machine *m, uint32_t allowed)
{
	entropy_gather(&m->ops, &m->cpu, allowed, &m->pool, &m->r);
	assert_int_equal(m->f.bad_ports, 0);
	assert_int_equal(m->f.pit_reads_unlatched, 0);
}

/* First generator output after the gather: a fingerprint of everything mixed. */
static uint64_t fingerprint(struct machine *m)
{
	struct rng rng;

	rng_init_from_pool(&rng, &m->pool);
	return rng_u64(&rng);
}

static void names_match_the_documented_strings(void **state)
{
	(void)state;
	assert_string_equal(entropy_source_name(ENTROPY_RDSEED), "rdseed");
	assert_string_equal(entropy_source_name(ENTROPY_RDRAND), "rdrand");
	assert_string_equal(entropy_source_name(ENTROPY_RDTSC), "rdtsc");
	assert_string_equal(entropy_source_name(ENTROPY_PIT), "pit");
	assert_string_equal(entropy_source_name(ENTROPY_RTC), "rtc");
	assert_string_equal(entropy_source_name(ENTROPY_EFIRNG), "efirng");
	assert_string_equal(entropy_source_name(ENTROPY_JITTER), "jitter");
	assert_null(entropy_source_name(ENTROPY_SOURCE_COUNT));
	assert_null(entropy_source_name((enum entropy_source)42));
}

static void bare_machine_answers_nothing_and_credits_nothing(void **state)
{
	(void)state;
	struct machine m;

	bare(&m);
	gather(&m, ENTROPY_ALL);
	assert_int_equal(m.r.present, ENTROPY_BIT(ENTROPY_PIT) | ENTROPY_BIT(ENTROPY_RTC));
	assert_int_equal(m.r.answered, 0);
	assert_int_equal(m.r.credited_bits, 0);
	for (int s = 0; s < ENTROPY_SOURCE_COUNT; s++)
		assert_int_equal(m.r.credited[s], 0);
	assert_int_equal(m.f.rdseed.calls, 0);
	assert_int_equal(m.f.rdrand.calls, 0);
	assert_int_equal(m.f.tsc_calls, 0);
}

static void nothing_allowed_touches_no_hardware(void **state)
{
	(void)state;
	struct machine m;

	everything(&m);
	gather(&m, 0);
	assert_int_equal(m.r.present, 0);
	assert_int_equal(m.r.answered, 0);
	assert_int_equal(m.r.credited_bits, 0);
	assert_int_equal(m.f.rdseed.calls + m.f.rdrand.calls + m.f.tsc_calls, 0);
	assert_int_equal(m.f.pit_latches + m.f.reg_a_reads, 0);
}

static void every_working_source_is_credited_by_policy(void **state)
{
	(void)state;
	struct machine m;

	everything(&m);
	gather(&m, ENTROPY_ALL);
	/* Jitter is never asked here: it needs a target (jitter_top_up, test_jitter.c). */
	assert_int_equal(m.r.present, ENTROPY_ALL & ~ENTROPY_BIT(ENTROPY_JITTER));
	assert_int_equal(m.r.answered, ENTROPY_ALL & ~ENTROPY_BIT(ENTROPY_JITTER));
	assert_int_equal(m.r.credited[ENTROPY_RDSEED], 8 * 16);
	assert_int_equal(m.r.credited[ENTROPY_RDRAND], 8 * 8);
	assert_int_equal(m.r.credited[ENTROPY_RDTSC], 8);
	assert_int_equal(m.r.credited[ENTROPY_PIT], 4);
	assert_int_equal(m.r.credited[ENTROPY_RTC], 0);
	assert_int_equal(m.r.credited[ENTROPY_EFIRNG], 8 * 16);
	/* 128 + 64 + 8 + 4 + 128, capped at the pool key's 256 bits. */
	assert_int_equal(m.r.credited_bits, 256);
	assert_int_equal(m.f.rdseed.calls, 8);
	assert_int_equal(m.f.rdrand.calls, 8);
	assert_int_equal(m.f.tsc_calls, 64);
	assert_int_equal(m.f.pit_latches, 32);
}

static void allowed_mask_limits_the_sources_asked(void **state)
{
	(void)state;
	struct machine m;

	everything(&m);
	gather(&m, ENTROPY_BIT(ENTROPY_RDRAND) | ENTROPY_BIT(ENTROPY_PIT));
	assert_int_equal(m.r.present, ENTROPY_BIT(ENTROPY_RDRAND) | ENTROPY_BIT(ENTROPY_PIT));
	assert_int_equal(m.r.answered, m.r.present);
	assert_int_equal(m.r.credited_bits, 64 + 4);
	assert_int_equal(m.r.credited[ENTROPY_RDSEED], 0);
	assert_int_equal(m.f.rdseed.calls, 0);
	assert_int_equal(m.f.tsc_calls, 0);
	assert_int_equal(m.f.reg_a_reads, 0);
}

/* The fake's instructions work, but CPUID did not advertise them: they must not be executed. */
static void sources_cpuid_does_not_report_are_not_asked(void **state)
{
	(void)state;
	struct machine m;

	everything(&m);
	m.cpu.rdseed = m.cpu.rdrand = m.cpu.tsc = false;
	gather(&m, ENTROPY_ALL);
	/* The firmware's words are no CPU feature: still asked. */
	assert_int_equal(m.r.present, ENTROPY_BIT(ENTROPY_PIT) | ENTROPY_BIT(ENTROPY_RTC) |
					      ENTROPY_BIT(ENTROPY_EFIRNG));
	assert_int_equal(m.f.rdseed.calls + m.f.rdrand.calls + m.f.tsc_calls, 0);
}

static void rdseed_with_carry_always_clear_gives_up_after_64_attempts(void **state)
{
	(void)state;
	struct machine m;

	bare(&m);
	with_rdseed(&m);
	m.f.rdseed.fail = true;
	gather(&m, ENTROPY_BIT(ENTROPY_RDSEED));
	assert_int_equal(m.r.present, ENTROPY_BIT(ENTROPY_RDSEED));
	assert_int_equal(m.r.answered, 0);
	assert_int_equal(m.r.credited_bits, 0);
	assert_int_equal(m.f.rdseed.calls, 64);
}

static void rdrand_with_carry_always_clear_gives_up_after_10_attempts(void **state)
{
	(void)state;
	struct machine m;

	bare(&m);
	with_rdrand(&m);
	m.f.rdrand.fail = true;
	gather(&m, ENTROPY_BIT(ENTROPY_RDRAND));
	assert_int_equal(m.r.answered, 0);
	assert_int_equal(m.r.credited_bits, 0);
	assert_int_equal(m.f.rdrand.calls, 10);
}

/* 9 failures then success is within RDRAND's 10 attempts; 10 failures is not. */
static void rdrand_retries_up_to_its_attempt_limit(void **state)
{
	(void)state;
	struct machine m;

	bare(&m);
	with_rdrand(&m);
	m.f.rdrand.fail_before_each = 9;
	gather(&m, ENTROPY_ALL);
	assert_int_equal(m.r.credited[ENTROPY_RDRAND], 64);

	bare(&m);
	with_rdrand(&m);
	m.f.rdrand.fail_before_each = 10;
	gather(&m, ENTROPY_ALL);
	assert_false(m.r.answered & ENTROPY_BIT(ENTROPY_RDRAND));
	assert_int_equal(m.r.credited[ENTROPY_RDRAND], 0);
}

static void rdseed_retries_up_to_its_attempt_limit(void **state)
{
	(void)state;
	struct machine m;

	bare(&m);
	with_rdseed(&m);
	m.f.rdseed.fail_before_each = 63;
	gather(&m, ENTROPY_ALL);
	assert_int_equal(m.r.credited[ENTROPY_RDSEED], 128);

	bare(&m);
	with_rdseed(&m);
	m.f.rdseed.fail_before_each = 64;
	gather(&m, ENTROPY_ALL);
	assert_int_equal(m.r.answered, 0);
	assert_int_equal(m.r.credited_bits, 0);
}

static void rdseed_that_runs_dry_is_credited_for_what_it_gave(void **state)
{
	(void)state;
	struct machine m;

	bare(&m);
	with_rdseed(&m);
	m.f.rdseed.succeed_first = 3;
	gather(&m, ENTROPY_ALL);
	assert_true(m.r.answered & ENTROPY_BIT(ENTROPY_RDSEED));
	assert_int_equal(m.r.credited[ENTROPY_RDSEED], 3 * 16);
	assert_int_equal(m.r.credited_bits, 3 * 16);
}

static void rdrand_stuck_on_one_value_is_not_answered(void **state)
{
	(void)state;
	static const uint32_t same[] = { 0x12345678u };
	struct machine m;

	bare(&m);
	with_rdrand(&m);
	m.f.rdrand.values = same;
	m.f.rdrand.count = 1;
	gather(&m, ENTROPY_ALL);
	assert_int_equal(m.r.present & ENTROPY_BIT(ENTROPY_RDRAND), ENTROPY_BIT(ENTROPY_RDRAND));
	assert_int_equal(m.r.answered, 0);
	assert_int_equal(m.r.credited_bits, 0);
}

/* Some AMD parts return 0xffffffff with carry set after suspend/resume. */
static void rdrand_returning_all_ones_is_not_answered(void **state)
{
	(void)state;
	static const uint32_t ones[] = { 0xffffffffu };
	struct machine m;

	bare(&m);
	with_rdrand(&m);
	m.f.rdrand.values = ones;
	m.f.rdrand.count = 1;
	gather(&m, ENTROPY_ALL);
	assert_int_equal(m.r.answered, 0);
	assert_int_equal(m.r.credited_bits, 0);
}

/* No two equal neighbours, but 0 and all-ones keep coming back: still stuck. */
static void rdseed_alternating_extremes_is_not_answered(void **state)
{
	(void)state;
	static const uint32_t extremes[] = { 0, 0x5a5a5a5au, 0xffffffffu, 0x3c3c3c3cu };
	struct machine m;

	bare(&m);
	with_rdseed(&m);
	m.f.rdseed.values = extremes;
	m.f.rdseed.count = 4;
	gather(&m, ENTROPY_ALL);
	assert_int_equal(m.r.answered, 0);
	assert_int_equal(m.r.credited_bits, 0);
}

/* A single zero among eight samples happens to a working generator about once in 2^29 boots. */
static void one_zero_sample_is_tolerated(void **state)
{
	(void)state;
	static const uint32_t values[] = { 0x11u, 0, 0x22u, 0x33u, 0x44u, 0x55u, 0x66u, 0x77u };
	struct machine m;

	bare(&m);
	with_rdseed(&m);
	m.f.rdseed.values = values;
	m.f.rdseed.count = 8;
	gather(&m, ENTROPY_ALL);
	assert_int_equal(m.r.answered, ENTROPY_BIT(ENTROPY_RDSEED));
	assert_int_equal(m.r.credited_bits, 128);
}

/* Credit is withheld from a stuck source, but what it said is still mixed. */
static void stuck_samples_are_still_mixed(void **state)
{
	(void)state;
	static const uint32_t a[] = { 0xaaaau };
	static const uint32_t b[] = { 0xbbbbu };
	struct machine m;
	uint64_t fa, fb;

	bare(&m);
	with_rdrand(&m);
	m.f.rdrand.values = a;
	m.f.rdrand.count = 1;
	gather(&m, ENTROPY_BIT(ENTROPY_RDRAND));
	fa = fingerprint(&m);
	bare(&m);
	with_rdrand(&m);
	m.f.rdrand.values = b;
	m.f.rdrand.count = 1;
	gather(&m, ENTROPY_BIT(ENTROPY_RDRAND));
	fb = fingerprint(&m);
	assert_int_equal(m.r.credited_bits, 0);
	assert_true(fa != fb);
}

/* An emulator with -icount: every read advances the TSC by the same amount. */
static void tsc_with_constant_increments_answers_but_credits_nothing(void **state)
{
	(void)state;
	struct machine m;

	bare(&m);
	with_tsc(&m);
	m.f.tsc_steps = NULL;
	m.f.tsc_step = 100;
	gather(&m, ENTROPY_BIT(ENTROPY_RDTSC));
	assert_int_equal(m.r.answered, ENTROPY_BIT(ENTROPY_RDTSC));
	assert_int_equal(m.r.credited_bits, 0);
	assert_int_equal(m.f.tsc_calls, 64);
}

static void tsc_that_never_moves_is_not_answered(void **state)
{
	(void)state;
	struct machine m;

	bare(&m);
	with_tsc(&m);
	m.f.tsc_steps = NULL;
	m.f.tsc_step = 0;
	gather(&m, ENTROPY_BIT(ENTROPY_RDTSC));
	assert_int_equal(m.r.present, ENTROPY_BIT(ENTROPY_RDTSC));
	assert_int_equal(m.r.answered, 0);
	assert_int_equal(m.r.credited_bits, 0);
}

/*
 * One odd step among constant ones changes the step twice (into and out of it): 2 bits. It is
 * 2 cycles off, which no steady clock gives (see the next test).
 */
static void tsc_credits_one_bit_per_change_of_step(void **state)
{
	(void)state;
	uint64_t steps[64];
	struct machine m;

	for (int i = 0; i < 64; i++)
		steps[i] = 20;
	steps[10] = 22;
	bare(&m);
	with_tsc(&m);
	m.f.tsc_steps = steps;
	m.f.tsc_nsteps = 64;
	gather(&m, ENTROPY_BIT(ENTROPY_RDTSC));
	assert_int_equal(m.r.credited[ENTROPY_RDTSC], 2);
	assert_int_equal(m.r.credited_bits, 2);
}

/* A steady 20.016 cycles per reading: one step of 21 among 20s is rounding, not jitter. */
static void tsc_off_by_one_once_credits_nothing(void **state)
{
	(void)state;
	uint64_t steps[64];
	struct machine m;

	for (int i = 0; i < 64; i++)
		steps[i] = 20;
	steps[10] = 21;
	bare(&m);
	with_tsc(&m);
	m.f.tsc_steps = steps;
	m.f.tsc_nsteps = 64;
	gather(&m, ENTROPY_BIT(ENTROPY_RDTSC));
	assert_int_equal(m.r.answered, ENTROPY_BIT(ENTROPY_RDTSC));
	assert_int_equal(m.r.credited_bits, 0);
}

/* Also covers a TSC that wraps past 2^64 while being read. */
static void tsc_readings_reach_the_pool(void **state)
{
	(void)state;
	struct machine m;
	uint64_t fa, fb;

	bare(&m);
	with_tsc(&m);
	m.f.tsc = UINT64_MAX - 100;
	gather(&m, ENTROPY_BIT(ENTROPY_RDTSC));
	assert_int_equal(m.r.credited_bits, 8);
	fa = fingerprint(&m);
	bare(&m);
	with_tsc(&m);
	m.f.tsc = UINT64_MAX - 99;
	gather(&m, ENTROPY_BIT(ENTROPY_RDTSC));
	fb = fingerprint(&m);
	assert_true(fa != fb);
}

static void pit_that_reads_all_ones_is_not_answered(void **state)
{
	(void)state;
	struct machine m;

	bare(&m);
	gather(&m, ENTROPY_BIT(ENTROPY_PIT));
	assert_int_equal(m.r.present, ENTROPY_BIT(ENTROPY_PIT));
	assert_int_equal(m.r.answered, 0);
	assert_int_equal(m.r.credited_bits, 0);
	assert_int_equal(m.f.pit_latches, 32); /* it was asked, and the bus floated */
}

static void stopped_pit_is_not_answered(void **state)
{
	(void)state;
	static const uint16_t stopped[] = { 0x1234 };
	struct machine m;

	bare(&m);
	with_pit(&m);
	m.f.pit_values = stopped;
	m.f.pit_count = 1;
	gather(&m, ENTROPY_BIT(ENTROPY_PIT));
	assert_int_equal(m.r.answered, 0);
	assert_int_equal(m.r.credited_bits, 0);
	assert_int_equal(m.f.pit_latches, 32);
}

/* Steady countdown by 2 across the 0 -> 0xffff wrap: deltas are all equal, no credit. */
static void pit_with_steady_countdown_credits_nothing_even_across_wrap(void **state)
{
	(void)state;
	uint16_t steady[32];
	struct machine m;

	for (int i = 0; i < 32; i++)
		steady[i] = (uint16_t)(31 - 2 * i);
	bare(&m);
	with_pit(&m);
	m.f.pit_values = steady;
	m.f.pit_count = 32;
	gather(&m, ENTROPY_BIT(ENTROPY_PIT));
	assert_int_equal(m.r.answered, ENTROPY_BIT(ENTROPY_PIT));
	assert_int_equal(m.r.credited_bits, 0);
}

/*
 * A PIT read in instruction time, as under QEMU -icount: count = 60000 - floor(i * 3.579), so
 * the steps are 3s and 4s in a fixed irregular pattern. They change often, yet nothing in
 * them is random.
 */
static void pit_read_at_a_steady_rate_credits_nothing(void **state)
{
	(void)state;
	uint16_t counts[32];
	struct machine m;

	for (int i = 0; i < 32; i++)
		counts[i] = (uint16_t)(60000 - (i * 3579) / 1000);
	bare(&m);
	with_pit(&m);
	m.f.pit_values = counts;
	m.f.pit_count = 32;
	gather(&m, ENTROPY_BIT(ENTROPY_PIT));
	assert_int_equal(m.r.answered, ENTROPY_BIT(ENTROPY_PIT));
	assert_int_equal(m.r.credited_bits, 0);
}

/* The same clock with one reading late by two ticks is jitter again. */
static void pit_steady_rate_with_one_late_reading_is_credited(void **state)
{
	(void)state;
	uint16_t counts[32];
	struct machine m;

	for (int i = 0; i < 32; i++)
		counts[i] = (uint16_t)(60000 - (i * 3579) / 1000);
	counts[12] -= 2;
	bare(&m);
	with_pit(&m);
	m.f.pit_values = counts;
	m.f.pit_count = 32;
	gather(&m, ENTROPY_BIT(ENTROPY_PIT));
	assert_int_equal(m.r.credited[ENTROPY_PIT], 4);
}

static void pit_jitter_is_capped_at_4_bits(void **state)
{
	(void)state;
	struct machine m;

	bare(&m);
	with_pit(&m);
	gather(&m, ENTROPY_BIT(ENTROPY_PIT));
	assert_int_equal(m.r.answered, ENTROPY_BIT(ENTROPY_PIT));
	assert_int_equal(m.r.credited[ENTROPY_PIT], 4);
}

static void pit_readings_reach_the_pool(void **state)
{
	(void)state;
	static const uint16_t other[] = { 50000, 49996, 49993, 49988, 49985, 49979, 49976, 49970 };
	struct machine m;
	uint64_t fa, fb;

	bare(&m);
	with_pit(&m);
	gather(&m, ENTROPY_BIT(ENTROPY_PIT));
	fa = fingerprint(&m);
	bare(&m);
	with_pit(&m);
	m.f.pit_values = other;
	gather(&m, ENTROPY_BIT(ENTROPY_PIT));
	fb = fingerprint(&m);
	assert_int_equal(m.r.credited_bits, 4); /* same jitter, so same credit */
	assert_true(fa != fb);
}

static void rtc_answers_after_the_update_but_is_never_credited(void **state)
{
	(void)state;
	struct machine m;

	bare(&m);
	with_rtc(&m);
	gather(&m, ENTROPY_BIT(ENTROPY_RTC));
	assert_int_equal(m.r.answered, ENTROPY_BIT(ENTROPY_RTC));
	assert_int_equal(m.r.credited_bits, 0);
	assert_int_equal(m.f.reg_a_reads, 4); /* 3 polls saw UIP, the fourth did not */
}

static void rtc_stuck_in_update_is_not_answered_and_polling_is_bounded(void **state)
{
	(void)state;
	struct machine m;

	bare(&m);
	with_rtc(&m);
	m.f.uip_forever = true;
	gather(&m, ENTROPY_BIT(ENTROPY_RTC));
	assert_int_equal(m.r.answered, 0);
	assert_true(m.f.reg_a_reads >= 1000);
	assert_true(m.f.reg_a_reads <= 100000);
}

/* Register A readable without UIP but every time byte floating: no clock there. */
static void rtc_reading_all_ones_is_not_answered(void **state)
{
	(void)state;
	struct machine m;

	bare(&m);
	with_rtc(&m);
	memset(m.f.cmos, 0xff, sizeof(m.f.cmos));
	gather(&m, ENTROPY_BIT(ENTROPY_RTC));
	assert_int_equal(m.r.answered, 0);
	assert_int_equal(m.r.credited_bits, 0);
}

static void rtc_time_reaches_the_pool(void **state)
{
	(void)state;
	struct machine m;
	uint64_t fa, fb;

	bare(&m);
	with_rtc(&m);
	gather(&m, ENTROPY_BIT(ENTROPY_RTC));
	fa = fingerprint(&m);
	bare(&m);
	with_rtc(&m);
	m.f.cmos[0x09] = 0x26; /* a year later */
	gather(&m, ENTROPY_BIT(ENTROPY_RTC));
	fb = fingerprint(&m);
	assert_true(fa != fb);
}

static void efirng_words_are_credited_half_and_reach_the_pool(void **state)
{
	(void)state;
	struct machine m;
	uint64_t fa, fb;

	bare(&m);
	with_firmware_rng(&m, 8);
	gather(&m, ENTROPY_BIT(ENTROPY_EFIRNG));
	assert_int_equal(m.r.answered, ENTROPY_BIT(ENTROPY_EFIRNG));
	assert_int_equal(m.r.credited[ENTROPY_EFIRNG], 8 * 16);
	assert_int_equal(m.r.credited_bits, 8 * 16);
	fa = fingerprint(&m);
	bare(&m);
	with_firmware_rng(&m, 8);
	firmware_words[7] ^= 1;
	gather(&m, ENTROPY_BIT(ENTROPY_EFIRNG));
	fb = fingerprint(&m);
	assert_true(fa != fb);
}

static void efirng_without_a_firmware_hook_is_not_present(void **state)
{
	(void)state;
	struct machine m;

	bare(&m);
	gather(&m, ENTROPY_ALL);
	assert_false(m.r.present & ENTROPY_BIT(ENTROPY_EFIRNG));
}

static void efirng_with_no_words_given_answers_nothing(void **state)
{
	(void)state;
	struct machine m;

	bare(&m);
	with_firmware_rng(&m, 0);
	gather(&m, ENTROPY_ALL);
	assert_true(m.r.present & ENTROPY_BIT(ENTROPY_EFIRNG));
	assert_int_equal(m.r.answered, 0);
	assert_int_equal(m.r.credited[ENTROPY_EFIRNG], 0);
}

static void efirng_repeating_a_word_is_stuck_and_credits_nothing(void **state)
{
	(void)state;
	struct machine m;

	bare(&m);
	with_firmware_rng(&m, 8);
	firmware_words[3] = firmware_words[2];
	gather(&m, ENTROPY_BIT(ENTROPY_EFIRNG));
	assert_int_equal(m.r.answered, 0);
	assert_int_equal(m.r.credited_bits, 0);
}

static void rdseed_values_reach_the_pool(void **state)
{
	(void)state;
	static const uint32_t a[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	static const uint32_t b[] = { 1, 2, 3, 4, 5, 6, 7, 9 };
	struct machine m;
	uint64_t fa, fb;

	bare(&m);
	with_rdseed(&m);
	m.f.rdseed.values = a;
	m.f.rdseed.count = 8;
	gather(&m, ENTROPY_BIT(ENTROPY_RDSEED));
	fa = fingerprint(&m);
	bare(&m);
	with_rdseed(&m);
	m.f.rdseed.values = b;
	m.f.rdseed.count = 8;
	gather(&m, ENTROPY_BIT(ENTROPY_RDSEED));
	fb = fingerprint(&m);
	assert_int_equal(m.r.credited_bits, 128);
	assert_true(fa != fb);
}

static void same_machine_gives_same_pool(void **state)
{
	(void)state;
	struct machine m;
	uint64_t fa, fb;

	everything(&m);
	gather(&m, ENTROPY_ALL);
	fa = fingerprint(&m);
	everything(&m);
	gather(&m, ENTROPY_ALL);
	fb = fingerprint(&m);
	assert_true(fa == fb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_match_the_documented_strings),
		cmocka_unit_test(bare_machine_answers_nothing_and_credits_nothing),
		cmocka_unit_test(nothing_allowed_touches_no_hardware),
		cmocka_unit_test(every_working_source_is_credited_by_policy),
		cmocka_unit_test(allowed_mask_limits_the_sources_asked),
		cmocka_unit_test(sources_cpuid_does_not_report_are_not_asked),
		cmocka_unit_test(rdseed_with_carry_always_clear_gives_up_after_64_attempts),
		cmocka_unit_test(rdrand_with_carry_always_clear_gives_up_after_10_attempts),
		cmocka_unit_test(rdrand_retries_up_to_its_attempt_limit),
		cmocka_unit_test(rdseed_retries_up_to_its_attempt_limit),
		cmocka_unit_test(rdseed_that_runs_dry_is_credited_for_what_it_gave),
		cmocka_unit_test(rdrand_stuck_on_one_value_is_not_answered),
		cmocka_unit_test(rdrand_returning_all_ones_is_not_answered),
		cmocka_unit_test(rdseed_alternating_extremes_is_not_answered),
		cmocka_unit_test(one_zero_sample_is_tolerated),
		cmocka_unit_test(stuck_samples_are_still_mixed),
		cmocka_unit_test(tsc_with_constant_increments_answers_but_credits_nothing),
		cmocka_unit_test(tsc_that_never_moves_is_not_answered),
		cmocka_unit_test(tsc_credits_one_bit_per_change_of_step),
		cmocka_unit_test(tsc_off_by_one_once_credits_nothing),
		cmocka_unit_test(tsc_readings_reach_the_pool),
		cmocka_unit_test(pit_that_reads_all_ones_is_not_answered),
		cmocka_unit_test(stopped_pit_is_not_answered),
		cmocka_unit_test(pit_with_steady_countdown_credits_nothing_even_across_wrap),
		cmocka_unit_test(pit_read_at_a_steady_rate_credits_nothing),
		cmocka_unit_test(pit_steady_rate_with_one_late_reading_is_credited),
		cmocka_unit_test(pit_jitter_is_capped_at_4_bits),
		cmocka_unit_test(pit_readings_reach_the_pool),
		cmocka_unit_test(rtc_answers_after_the_update_but_is_never_credited),
		cmocka_unit_test(rtc_stuck_in_update_is_not_answered_and_polling_is_bounded),
		cmocka_unit_test(rtc_reading_all_ones_is_not_answered),
		cmocka_unit_test(rtc_time_reaches_the_pool),
		cmocka_unit_test(efirng_words_are_credited_half_and_reach_the_pool),
		cmocka_unit_test(efirng_without_a_firmware_hook_is_not_present),
		cmocka_unit_test(efirng_with_no_words_given_answers_nothing),
		cmocka_unit_test(efirng_repeating_a_word_is_stuck_and_credits_nothing),
		cmocka_unit_test(rdseed_values_reach_the_pool),
		cmocka_unit_test(same_machine_gives_same_pool),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
