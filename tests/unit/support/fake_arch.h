/* A scriptable arch_ops for unit tests: each source can be absent, failing, stuck or working. */
#ifndef KSLIDE_TESTS_UNIT_SUPPORT_FAKE_ARCH_H
#define KSLIDE_TESTS_UNIT_SUPPORT_FAKE_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/arch.h"

#define FAKE_CPUID_LEAVES 8 /* leaves 0..7 are counted individually */
#define FAKE_CMOS_REGS 128

/* RDRAND or RDSEED. */
struct fake_rng_insn {
	const uint32_t *values; /* handed out in turn, cycling; NULL: a counter-based pattern */
	size_t count;
	size_t next;
	unsigned succeed_first; /* when nonzero: carry set for this many attempts, clear after */
	unsigned fail_before_each; /* carry clear this many times before every success */
	unsigned streak;
	bool fail; /* carry always clear */
	unsigned calls;
};

struct fake_arch {
	bool cpuid_present;
	uint32_t max_leaf;
	struct cpuid_regs leaf1, leaf7;
	unsigned cpuid_calls[FAKE_CPUID_LEAVES];
	unsigned cpuid_other_calls; /* leaves beyond 7 */
	unsigned cpuid_bad_subleaf; /* leaf 7 asked with a subleaf other than 0 */

	struct fake_rng_insn rdrand, rdseed;

	/* TSC: each read returns tsc, then adds tsc_steps[i] (cycling), or tsc_step without steps. */
	uint64_t tsc;
	uint64_t tsc_step;
	const uint64_t *tsc_steps;
	size_t tsc_nsteps;
	size_t tsc_next;
	unsigned tsc_calls;

	/* i8254 channel 0: each latch takes the next of pit_values (cycling); without values,
	 * the count drops by pit_step from pit_latched at each latch (wrapping as the chip does). */
	bool pit_present; /* false: the bus floats and reads 0xff */
	uint16_t pit_step;
	const uint16_t *pit_values;
	size_t pit_count;
	size_t pit_next;
	uint16_t pit_latched;
	bool pit_high_next;
	unsigned pit_latches;
	unsigned pit_reads_unlatched; /* data reads with no latched value: a protocol error */

	/* MC146818 CMOS: the first uip_polls reads of register A report update in progress. */
	bool rtc_present; /* false: reads float to 0xff */
	uint8_t cmos[FAKE_CMOS_REGS];
	uint8_t cmos_index;
	unsigned uip_polls;
	bool uip_forever;
	unsigned reg_a_reads;

	unsigned bad_ports; /* port I/O outside the PIT and CMOS */
};

/* Everything absent; fills *ops to call into *fake. */
void fake_arch_init(struct fake_arch *fake, struct arch_ops *ops);

#endif
