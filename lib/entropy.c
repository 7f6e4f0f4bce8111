/* Early-boot entropy gathering from RDSEED, RDRAND, the TSC, the i8254 PIT, the CMOS RTC and
 * the bytes UEFI's EFI_RNG_PROTOCOL gave. */
#include "lib/entropy.h"

#include "include/protocol/i8254.h"

/*
 * Credit policy. Every sample is mixed into the pool whatever its credit; credit only decides
 * what we are willing to claim. Each figure is deliberately far below what the source is
 * believed to deliver:
 *
 *   RDSEED  16 bits per accepted 32-bit sample (half): output of Intel's conditioned
 *           entropy source, which the DRNG guide says is fully entropic; we claim half.
 *   RDRAND   8 bits per accepted 32-bit sample (a quarter): RDRAND is a CTR_DRBG output
 *           reseeded from that source, so its bits are not all independent fresh entropy.
 *   RDTSC    1 bit per nonzero second difference of 64 back-to-back readings, at most 8.
 *           Readings a steady clock could produce credit nothing (see steady_clock): an
 *           emulator counting instructions (QEMU -icount) gives constant increments.
 *   PIT      same rule over 32 latched readings of channel 0, at most 4. Under -icount the
 *           PIT is read in instruction time too: its steps alternate between two values
 *           in a fixed pattern, which steady_clock recognizes.
 *   RTC      0: the wall-clock time is guessable to within seconds. Mixed, never credited.
 *   EFIRNG  16 bits per 32-bit sample (half), as RDSEED: the firmware's generator (OVMF:
 *           the host's, through virtio-rng; on hardware often RDRAND behind a DRBG), whose
 *           source the stub cannot see. 8 samples, read before ExitBootServices.
 *
 * A source that looks stuck (see hwrng_stuck) is not "answered" and credits 0. The total is
 * capped at the 256 bits of the pool key.
 */
#define RDSEED_BITS_PER_SAMPLE 16u
#define RDRAND_BITS_PER_SAMPLE 8u
#define TSC_MAX_CREDIT 8u
#define PIT_MAX_CREDIT 4u
#define RTC_CREDIT 0u
#define EFIRNG_BITS_PER_SAMPLE 16u
#define EFIRNG_ATTEMPTS 1u /* the bytes were read once, before the stub ran: no retry */
#define POOL_MAX_CREDIT 256u /* bits in the pool key (CHACHA20_KEY_WORDS * 32) */

/* 32-bit samples taken from RDSEED or RDRAND. */
#define HWRNG_SAMPLES 8u
/*
 * Attempts per sample. RDRAND: the Intel Digital Random Number Generator (DRNG) Software
 * Implementation Guide, section 5.2.1, recommends 10 retries, after which failure means a
 * broken part. RDSEED may legitimately run dry while the conditioner refills (same guide,
 * section 5.3.1), so it gets more tries.
 */
#define RDRAND_ATTEMPTS 10u
#define RDSEED_ATTEMPTS 64u

/* Values that a known-broken RDRAND returns with carry set (e.g. some AMD parts after resume). */
#define HWRNG_ALL_ZERO 0x00000000u
#define HWRNG_ALL_ONES 0xffffffffu
#define HWRNG_MAX_EXTREMES 1u /* one 0 or 0xffffffff in 8 samples can happen; two cannot */

#define TSC_READINGS 64u
#define PIT_READINGS 32u

/* The i8254's ports and latch command: include/protocol/i8254.h. */
#define PIT_ABSENT 0xffffu  /* a floating ISA bus reads all ones */

/*
 * Motorola MC146818 real-time clock in CMOS (datasheet, "Address Map" and "Register A").
 * The index port's bit 7 gates NMI on PC chipsets; we write register numbers with it clear,
 * which is the state the BIOS leaves NMI in.
 */
#define CMOS_PORT_INDEX 0x70u
#define CMOS_PORT_DATA 0x71u
#define CMOS_REG_SECONDS 0x00u
#define CMOS_REG_MINUTES 0x02u
#define CMOS_REG_HOURS 0x04u
#define CMOS_REG_DAY 0x07u /* day of month */
#define CMOS_REG_MONTH 0x08u
#define CMOS_REG_YEAR 0x09u
#define CMOS_REG_A 0x0au
#define CMOS_A_UIP 0x80u /* update in progress: time registers are changing (up to ~2 ms) */
#define CMOS_ABSENT 0xffu
/* Each poll is two port accesses of roughly 1 us: 5000 polls outlast a 2 ms update. */
#define CMOS_UIP_POLLS 5000u

static const uint8_t rtc_registers[] = {
	CMOS_REG_SECONDS, CMOS_REG_MINUTES, CMOS_REG_HOURS,
	CMOS_REG_DAY,     CMOS_REG_MONTH,   CMOS_REG_YEAR,
};
#define RTC_REGISTERS (sizeof(rtc_registers) / sizeof(rtc_registers[0]))

const char *entropy_source_name(enum entropy_source source)
{
	switch (source) {
	case ENTROPY_RDSEED:
		return "rdseed";
	case ENTROPY_RDRAND:
		return "rdrand";
	case ENTROPY_RDTSC:
		return "rdtsc";
	case ENTROPY_PIT:
		return "pit";
	case ENTROPY_RTC:
		return "rtc";
	case ENTROPY_EFIRNG:
		return "efirng";
	case ENTROPY_JITTER:
		return "jitter";
	case ENTROPY_SOURCE_COUNT:
		break;
	}
	return NULL;
}

/* What one source produced: whether it answered and how many bits it earns. */
struct outcome {
	bool answered;
	uint32_t credit;
};

typedef bool (*hwrng_fn)(void *ctx, uint32_t *out);

/*
 * Stuck-output check on accepted samples, in order: a repeat of the previous sample, or a
 * second 0/0xffffffff, has odds of about 2^-32 from a working generator.
 */
static bool hwrng_stuck(const uint32_t *samples, unsigned n)
{
	unsigned extremes = 0;

	for (unsigned i = 0; i < n; i++) {
		if (i > 0 && samples[i] == samples[i - 1])
			return true;
		if (samples[i] == HWRNG_ALL_ZERO || samples[i] == HWRNG_ALL_ONES)
			extremes++;
	}
	return extremes > HWRNG_MAX_EXTREMES;
}

/* One sample: retry while the carry flag says "no data yet", up to 'attempts' times. */
static bool hwrng_sample(const struct arch_ops *arch, hwrng_fn fn, unsigned attempts,
			 uint32_t *out)
{
	for (unsigned i = 0; i < attempts; i++) {
		if (fn(arch->ctx, out))
			return true;
	}
	return false;
}

/*
 * RDSEED or RDRAND: up to HWRNG_SAMPLES samples, stopping at the first that exhausts its
 * attempts (the instruction is then drained or broken, and more tries only cost time).
 */
static struct outcome hwrng_gather(const struct arch_ops *arch, hwrng_fn fn, unsigned attempts,
				   uint32_t bits_per_sample, struct mix_pool *pool)
{
	struct outcome o = { false, 0 };
	uint32_t samples[HWRNG_SAMPLES];
	unsigned n = 0;

	while (n < HWRNG_SAMPLES && hwrng_sample(arch, fn, attempts, &samples[n])) {
		pool_mix_u64(pool, samples[n]);
		n++;
	}
	if (n == 0 || hwrng_stuck(samples, n))
		return o;
	o.answered = true;
	o.credit = n * bits_per_sample;
	return o;
}

/*
 * Jitter credit for a counter read back to back: one bit per place where the step between
 * readings changes (a nonzero second difference), capped. 'deltas' holds n steps.
 */
static uint32_t jitter_credit(const uint64_t *deltas, unsigned n, uint32_t cap)
{
	uint32_t credit = 0;

	for (unsigned i = 1; i < n && credit < cap; i++) {
		if (deltas[i] != deltas[i - 1])
			credit++;
	}
	return credit;
}

/*
 * True when the steps could come from a clock of constant rate read at a constant rate, with
 * nothing else in between: the readings are then floor(i * r + c) for some r and c, and such a
 * sequence of steps is "balanced" (any two runs of the same length sum to within 1 of each
 * other; Lothaire, Algebraic Combinatorics on Words, ch. 2). A deterministic emulator produces
 * exactly this; real jitter breaks it within a few readings. 'deltas' holds n steps.
 */
static bool steady_clock(const uint64_t *deltas, unsigned n)
{
	for (unsigned len = 1; len < n; len++) {
		uint64_t sum = 0, lo, hi;

		for (unsigned i = 0; i < len; i++)
			sum += deltas[i];
		lo = hi = sum;
		for (unsigned i = len; i < n; i++) {
			sum += deltas[i] - deltas[i - len];
			lo = sum < lo ? sum : lo;
			hi = sum > hi ? sum : hi;
		}
		if (hi - lo > 1)
			return false;
	}
	return true;
}

static bool any_nonzero(const uint64_t *v, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (v[i] != 0)
			return true;
	}
	return false;
}

/*
 * The readings are taken first and mixed afterwards: mixing between reads would put a
 * data-dependent amount of work between them, so even a deterministic clock would look jittery.
 */
static struct outcome tsc_gather(const struct arch_ops *arch, struct mix_pool *pool)
{
	struct outcome o = { false, 0 };
	uint64_t t[TSC_READINGS];
	uint64_t deltas[TSC_READINGS - 1];

	for (unsigned i = 0; i < TSC_READINGS; i++)
		t[i] = arch->rdtsc(arch->ctx);
	for (unsigned i = 0; i < TSC_READINGS; i++)
		pool_mix_u64(pool, t[i]);
	for (unsigned i = 0; i + 1 < TSC_READINGS; i++)
		deltas[i] = t[i + 1] - t[i];
	o.answered = any_nonzero(deltas, TSC_READINGS - 1);
	if (!steady_clock(deltas, TSC_READINGS - 1))
		o.credit = jitter_credit(deltas, TSC_READINGS - 1, TSC_MAX_CREDIT);
	return o;
}

static uint16_t pit_read(const struct arch_ops *arch)
{
	uint8_t lo, hi;

	arch->outb(arch->ctx, PIT_PORT_CMD, PIT_LATCH_CH0);
	lo = arch->inb(arch->ctx, PIT_PORT_CH0);
	hi = arch->inb(arch->ctx, PIT_PORT_CH0);
	return (uint16_t)(lo | hi << 8);
}

/* Channel 0 counts down and wraps, so a step is previous - current modulo 2^16. */
static struct outcome pit_gather(const struct arch_ops *arch, struct mix_pool *pool)
{
	struct outcome o = { false, 0 };
	uint16_t c[PIT_READINGS];
	uint64_t deltas[PIT_READINGS - 1];
	bool floating = true;

	for (unsigned i = 0; i < PIT_READINGS; i++)
		c[i] = pit_read(arch);
	for (unsigned i = 0; i < PIT_READINGS; i++) {
		pool_mix_u64(pool, c[i]);
		if (c[i] != PIT_ABSENT)
			floating = false;
	}
	for (unsigned i = 0; i + 1 < PIT_READINGS; i++)
		deltas[i] = (uint16_t)(c[i] - c[i + 1]);
	/* A stopped counter answered nothing either: like the TSC, it must at least move. */
	if (floating || !any_nonzero(deltas, PIT_READINGS - 1))
		return o;
	o.answered = true;
	if (!steady_clock(deltas, PIT_READINGS - 1))
		o.credit = jitter_credit(deltas, PIT_READINGS - 1, PIT_MAX_CREDIT);
	return o;
}

static uint8_t cmos_read(const struct arch_ops *arch, uint8_t reg)
{
	arch->outb(arch->ctx, CMOS_PORT_INDEX, reg);
	return arch->inb(arch->ctx, CMOS_PORT_DATA);
}

/*
 * Reads the date and time once the update-in-progress flag clears. A torn read (the clock
 * ticking mid-way) does no harm: the bytes are only mixed, never trusted as a time.
 */
static struct outcome rtc_gather(const struct arch_ops *arch, struct mix_pool *pool)
{
	struct outcome o = { false, RTC_CREDIT };
	uint64_t packed = 0;
	bool floating = true;
	unsigned polls = 0;

	while (polls < CMOS_UIP_POLLS && (cmos_read(arch, CMOS_REG_A) & CMOS_A_UIP))
		polls++;
	if (polls == CMOS_UIP_POLLS)
		return o;
	for (unsigned i = 0; i < RTC_REGISTERS; i++) {
		uint8_t v = cmos_read(arch, rtc_registers[i]);

		packed |= (uint64_t)v << (8 * i);
		if (v != CMOS_ABSENT)
			floating = false;
	}
	pool_mix_u64(pool, packed);
	pool_mix_u64(pool, polls); /* how long the wait took is a little timing noise too */
	o.answered = !floating;
	return o;
}

static uint32_t present_sources(const struct arch_ops *arch, const struct cpu_features *cpu)
{
	uint32_t present = ENTROPY_BIT(ENTROPY_PIT) | ENTROPY_BIT(ENTROPY_RTC);

	if (arch->firmware_rng32)
		present |= ENTROPY_BIT(ENTROPY_EFIRNG);

	if (cpu->rdseed)
		present |= ENTROPY_BIT(ENTROPY_RDSEED);
	if (cpu->rdrand)
		present |= ENTROPY_BIT(ENTROPY_RDRAND);
	if (cpu->tsc)
		present |= ENTROPY_BIT(ENTROPY_RDTSC);
	return present;
}

static struct outcome ask(const struct arch_ops *arch, enum entropy_source s,
			  struct mix_pool *pool)
{
	switch (s) {
	case ENTROPY_RDSEED:
		return hwrng_gather(arch, arch->rdseed32, RDSEED_ATTEMPTS, RDSEED_BITS_PER_SAMPLE,
				    pool);
	case ENTROPY_RDRAND:
		return hwrng_gather(arch, arch->rdrand32, RDRAND_ATTEMPTS, RDRAND_BITS_PER_SAMPLE,
				    pool);
	case ENTROPY_RDTSC:
		return tsc_gather(arch, pool);
	case ENTROPY_PIT:
		return pit_gather(arch, pool);
	case ENTROPY_RTC:
		return rtc_gather(arch, pool);
	case ENTROPY_EFIRNG:
		return hwrng_gather(arch, arch->firmware_rng32, EFIRNG_ATTEMPTS,
				    EFIRNG_BITS_PER_SAMPLE, pool);
	case ENTROPY_JITTER: /* needs a target: jitter_top_up */
	case ENTROPY_SOURCE_COUNT:
		break;
	}
	return (struct outcome){ false, 0 };
}

void entropy_gather(const struct arch_ops *arch, const struct cpu_features *cpu,
		    uint32_t allowed, struct mix_pool *pool, struct entropy_report *report)
{
	report->present = present_sources(arch, cpu) & allowed & ENTROPY_ALL;
	report->answered = 0;
	report->credited_bits = 0;
	for (int s = 0; s < ENTROPY_SOURCE_COUNT; s++) {
		struct outcome o;

		report->credited[s] = 0;
		if (!(report->present & ENTROPY_BIT(s)))
			continue;
		o = ask(arch, (enum entropy_source)s, pool);
		if (!o.answered)
			continue;
		report->answered |= ENTROPY_BIT(s);
		report->credited[s] = o.credit;
		report->credited_bits += o.credit;
	}
	if (report->credited_bits > POOL_MAX_CREDIT)
		report->credited_bits = POOL_MAX_CREDIT;
}
