/*
 * The seed patch's distribution, exactly. Its i386 head_32.S (CONFIG_RANDOMIZE_BASE) does:
 *
 *	eax = rdrand                          (uniform 32 bits when RDRAND works)
 *	eax &= 0x3ffffff                      ("Maximum offset at 64mb to be safe")
 *	ebx = ebp + eax                       (ebp: where the loader put the kernel, 1 MiB)
 *	ebx = (ebx + align - 1) & ~(align - 1)   (kernel_alignment, 2 MiB with the patch)
 *	if (ebx < LOAD_PHYSICAL_ADDR) ebx = LOAD_PHYSICAL_ADDR   (16 MiB)
 *
 * so the base takes 26 values and 16 MiB is far more likely than the rest. We run the
 * algorithm over all 2^26 masked values and count, rather than trusting a formula.
 */
#include <math.h>
#include <string.h>

#include "tools/stat/seed.h"

#define SEED_MASK	   0x3ffffffu /* andl $0x3ffffff, %eax */
#define SEED_LOADED_AT	   0x100000u  /* %ebp: bzImage's protected-mode code at 1 MiB */
#define SEED_ALIGN	   0x200000u  /* CONFIG_PHYSICAL_ALIGN, lowered to 2 MiB by the patch */
#define SEED_LOAD_PHYSICAL 0x1000000u /* LOAD_PHYSICAL_ADDR, CONFIG_PHYSICAL_START = 16 MiB */
#define SEED_MAX_INDEX	   ((SEED_LOADED_AT + SEED_MASK) / SEED_ALIGN + 2)

static uint32_t seed_base(uint32_t r)
{
	uint32_t ebx = SEED_LOADED_AT + (r & SEED_MASK);
	ebx = (ebx + SEED_ALIGN - 1) & ~(SEED_ALIGN - 1);
	return ebx < SEED_LOAD_PHYSICAL ? SEED_LOAD_PHYSICAL : ebx;
}

static void summarize(const uint64_t *count, uint64_t values, double total,
		      struct distribution_summary *out)
{
	memset(out, 0, sizeof(*out));
	for (uint64_t i = 0; i < values; i++) {
		if (!count[i])
			continue;
		double p = (double)count[i] / total;
		out->positions++;
		out->shannon -= p * log2(p);
		if (p > out->top_share)
			out->top_share = p;
	}
	out->min_entropy = -log2(out->top_share);
}

void seed_patch_distribution(struct distribution_summary *out)
{
	static uint64_t count[SEED_MAX_INDEX];
	memset(count, 0, sizeof(count));
	for (uint64_t r = 0; r <= SEED_MASK; r++)
		count[seed_base((uint32_t)r) / SEED_ALIGN]++;
	summarize(count, SEED_MAX_INDEX, (double)SEED_MASK + 1, out);
}

void uniform_distribution(uint64_t slots, struct distribution_summary *out)
{
	memset(out, 0, sizeof(*out));
	out->positions = slots;
	out->shannon = out->min_entropy = slots ? log2((double)slots) : 0;
	out->top_share = slots ? 1.0 / (double)slots : 0;
}

void linux_x86_64_distribution(struct distribution_summary *out)
{
	uniform_distribution(LINUX_X86_64_WINDOW / LINUX_X86_64_ALIGN, out);
}
