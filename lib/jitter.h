/*
 * Timer jitter, for machines whose CPU has no RDRAND/RDSEED: the time-stamp counter read at
 * each edge of the i8254 PIT, two clocks from independent oscillators (on hardware), every raw
 * sample through SP 800-90B's health tests (lib/health_tests.h), collected until a target
 * credit or a time bound. The construction, the credit rule and the bound: docs/design.md,
 * "Timer jitter".
 */
#ifndef KSLIDE_LIB_JITTER_H
#define KSLIDE_LIB_JITTER_H

#include <stdint.h>

#include "include/protocol/i8254.h"
#include "lib/arch.h"
#include "lib/cpu.h"
#include "lib/entropy.h"
#include "lib/health_tests.h"
#include "lib/pool.h"

/*
 * Credit rule: one bit per JITTER_SAMPLES_PER_BIT samples that passed both health tests, a
 * derating of 8 from the H = 1 bit per sample the tests are tuned for, and nothing before the
 * start-up tests passed over JITTER_STARTUP_SAMPLES (SP 800-90B 4.3, item 1: at least 1024).
 */
#define JITTER_SAMPLES_PER_BIT 8u
#define JITTER_STARTUP_SAMPLES 1024u
/*
 * The bound, in steps of PIT channel 0's count: PIT_HZ x 50 ms (include/protocol/i8254.h).
 * A count step is one tick in mode 2 and half a tick in mode 3 (the square wave SeaBIOS
 * programs counts down by two), so collection lasts at most 50 ms of boot time, 25 ms in
 * mode 3.
 */
#define JITTER_BOUND_MS 50u
#define JITTER_BOUND_PIT_STEPS (PIT_HZ * JITTER_BOUND_MS / 1000u) /* 59659 */
/*
 * The health tests catch a stuck or biased source, not a deterministic one that varies: an
 * emulator whose TSC counts instructions (QEMU's -icount) gives deltas that repeat with a
 * short period, pass both tests and are the same at every boot. So the start-up samples are
 * also predicted by lag, as SP 800-90B's lag prediction estimate (6.3.8) does: s[i] guessed as
 * s[i - d] for each lag d up to JITTER_LAG_MAX. A lag that guesses more than half of them
 * means less than the 1 bit per sample the tests and the credit assume: nothing is credited.
 */
#define JITTER_LAG_MAX 128u
/* Reads of an unchanging PIT before it counts as stopped (about a millisecond of port I/O). */
#define JITTER_EDGE_READS 1000u

enum jitter_stop {
	JITTER_TARGET_MET,
	JITTER_BOUND_REACHED,
	JITTER_HEALTH_FAILED, /* see .health */
	JITTER_PIT_STOPPED,   /* the PIT did not move: no edges, no samples */
	JITTER_PREDICTABLE,   /* a lag guessed most start-up samples: see .lag */
};

struct jitter_report {
	enum jitter_stop stop;
	enum health_failure health;
	uint32_t samples;    /* raw samples taken, all mixed into the pool */
	uint32_t passed;     /* of which passed both health tests before any failure */
	uint32_t credited;   /* bits, never above the target */
	uint32_t pit_steps;  /* count steps elapsed, the time the bound is measured in */
	uint32_t lag;        /* JITTER_PREDICTABLE: the lag that guessed best ... */
	uint32_t lag_hits;   /* ... and how many of the start-up samples it guessed */
};

/*
 * Collects until 'target' bits are credited, a health test fails or the bound passes,
 * mixing every sample into pool. Needs a TSC (the caller checked CPUID) and a PIT.
 */
void jitter_collect(const struct arch_ops *arch, uint32_t target, struct mix_pool *pool,
		    struct jitter_report *report);

/*
 * The stub's policy: only where neither RDSEED nor RDRAND answered (machines that have them
 * boot as fast as before), the source is allowed, the CPU has a TSC and report's credit falls
 * short of 'wanted' bits, collects the difference and adds the source to *report (present,
 * answered once a sample was taken, credited). *jitter says how it ended; jitter->samples is
 * 0 when collection was not attempted.
 */
void jitter_top_up(const struct arch_ops *arch, const struct cpu_features *cpu,
		   uint32_t allowed, uint32_t wanted, struct mix_pool *pool,
		   struct entropy_report *report, struct jitter_report *jitter);

#endif
