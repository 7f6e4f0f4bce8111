/*
 * Early-boot entropy: asks every source the CPU has, mixes all answers into a pool and reports
 * which sources answered and how many bits it is prepared to credit. The credit is deliberately
 * conservative; see docs/design.md.
 */
#ifndef KSLIDE_LIB_ENTROPY_H
#define KSLIDE_LIB_ENTROPY_H

#include <stdint.h>

#include "lib/arch.h"
#include "lib/cpu.h"
#include "lib/pool.h"

enum entropy_source {
	ENTROPY_RDSEED,
	ENTROPY_RDRAND,
	ENTROPY_RDTSC,
	ENTROPY_PIT,
	ENTROPY_RTC,
	ENTROPY_EFIRNG, /* bytes from UEFI's EFI_RNG_PROTOCOL, read before ExitBootServices */
	ENTROPY_JITTER, /* lib/jitter.h: only asked by jitter_top_up, never by entropy_gather */
	ENTROPY_SOURCE_COUNT
};

#define ENTROPY_BIT(source) (1u << (source))
#define ENTROPY_ALL ((1u << ENTROPY_SOURCE_COUNT) - 1u)

struct entropy_report {
	uint32_t present;  /* sources the CPU/platform offers and the caller allowed */
	uint32_t answered; /* sources that produced accepted samples */
	uint32_t credited_bits;
	uint32_t credited[ENTROPY_SOURCE_COUNT]; /* per source */
};

/* "rdseed", "rdrand", "rdtsc", "pit", "rtc", "efirng", "jitter"; NULL for an unknown value. */
const char *entropy_source_name(enum entropy_source source);

/*
 * Query each source in 'allowed' (a mask of ENTROPY_BIT) that 'cpu' says exists, mix all
 * samples into pool and describe the outcome in *report.
 */
void entropy_gather(const struct arch_ops *arch, const struct cpu_features *cpu,
		    uint32_t allowed, struct mix_pool *pool, struct entropy_report *report);

#endif
