/*
 * Random numbers for the kernel's own placement decisions (the entry area's address), drawn
 * from the boot info's seed: bytes the stub took from its ChaCha20 generator after it had
 * chosen the base, so nothing drawn here depends on the base. The %p key uses the first 16
 * seed bytes (kernel/secrecy/kptr.c); this generator keys SipHash-2-4 with the other 16 and runs it
 * over a counter, so the two never share a key.
 */
#ifndef KSLIDE_KERNEL_SECRECY_SEED_RANDOM_H
#define KSLIDE_KERNEL_SECRECY_SEED_RANDOM_H

#include <stdint.h>

#include "include/kslide/bootinfo.h"
#include "lib/siphash.h"

struct seed_random {
	struct siphash_key key;
	uint64_t counter;
};

void seed_random_init(struct seed_random *r, const struct kslide_bootinfo *bi);

/* The next 64 uniform bits; a random_u64_fn (lib/uniform.h) with r as its context. */
uint64_t seed_random_next(void *r);

#endif
