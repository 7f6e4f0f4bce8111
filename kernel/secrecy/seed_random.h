/*
 * Random numbers for the kernel's own placement decisions (the entry area's address, the
 * x86-64 direct map's base), drawn from the boot info's seed: bytes the stub took from its
 * ChaCha20 generator after it had chosen the base, so nothing drawn here depends on the base.
 * The %p key uses the first 16 seed bytes (kernel/secrecy/kptr.c); this generator keys
 * SipHash-2-4 with the other 16 and runs it over a counter, so the two never share a key.
 * Each decision has a stream of its own, a counter range no other stream reaches, so two
 * decisions never read the same block and are independent of each other.
 */
#ifndef KSLIDE_KERNEL_SECRECY_SEED_RANDOM_H
#define KSLIDE_KERNEL_SECRECY_SEED_RANDOM_H

#include <stdint.h>

#include "include/kslide/bootinfo.h"
#include "lib/siphash.h"

/* The streams, one per decision; each starts its counter at stream << SEED_STREAM_SHIFT. */
enum seed_stream {
	SEED_STREAM_ENTRY_AREA,
	SEED_STREAM_DIRECT_MAP,
};
#define SEED_STREAM_SHIFT 32 /* a draw takes a few blocks; 2^32 is never reached */

struct seed_random {
	struct siphash_key key;
	uint64_t counter;
};

void seed_random_init(struct seed_random *r, const struct kslide_bootinfo *bi,
		      enum seed_stream stream);

/* The next 64 uniform bits; a random_u64_fn (lib/uniform.h) with r as its context. */
uint64_t seed_random_next(void *r);

#endif
