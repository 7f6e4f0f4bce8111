/*
 * Entropy pool and generator. Every sample, good or bad, is mixed into a 256-bit key through
 * the ChaCha20 block function; the finished key then seeds a ChaCha20 keystream from which all
 * random numbers are drawn. Mixing predictable input can never lower the pool's entropy.
 */
#ifndef KSLIDE_LIB_POOL_H
#define KSLIDE_LIB_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "lib/chacha20.h"

struct mix_pool {
	uint32_t key[CHACHA20_KEY_WORDS];
	uint32_t pending[CHACHA20_KEY_WORDS]; /* input words not yet compressed */
	unsigned pending_words;
	uint32_t compressions; /* counter input, so equal blocks never compress alike */
};

struct rng {
	uint32_t key[CHACHA20_KEY_WORDS];
	uint32_t counter;
	uint8_t block[CHACHA20_BLOCK_BYTES];
	unsigned used; /* bytes of block already handed out */
};

void pool_init(struct mix_pool *pool);
void pool_mix(struct mix_pool *pool, const void *data, size_t len);
void pool_mix_u64(struct mix_pool *pool, uint64_t value);

/* Finish the pool and key the generator from it. The pool is wiped. */
void rng_init_from_pool(struct rng *rng, struct mix_pool *pool);
uint64_t rng_u64(struct rng *rng);
void rng_bytes(struct rng *rng, void *out, size_t len);

/* rng_u64 with a void context, for uniform_below(). */
uint64_t rng_next_u64(void *rng);

#endif
