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

/*
 * Domain tags, placed in nonce word 0 (nonce words 1 and 2 are zero) so that mixing, finishing
 * and generating never run the block function on the same input. ASCII, little-endian.
 */
#define POOL_DOMAIN_MIX 0x0078696du /* "mix": compress a block of input into the key */
#define POOL_DOMAIN_FIN 0x006e6966u /* "fin": last compression, over the input length */
#define POOL_DOMAIN_GEN 0x006e6567u /* "gen": generator keystream */

/*
 * Initial pool key: the SHA-256 initial hash value (FIPS 180-4 section 5.3.3, fractional parts
 * of the square roots of the first eight primes), a constant with nothing up its sleeve.
 */
#define POOL_INITIAL_KEY                                                                      \
	{ 0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,                                 \
	  0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u }

struct mix_pool {
	uint32_t key[CHACHA20_KEY_WORDS];
	uint32_t pending[CHACHA20_KEY_WORDS]; /* input words not yet compressed */
	unsigned pending_words;
	uint32_t compressions; /* counter input, so equal blocks never compress alike */
	uint64_t length;       /* bytes mixed so far: places the next byte, and is finished in */
};

struct rng {
	uint32_t key[CHACHA20_KEY_WORDS];
	uint32_t counter;
	uint8_t block[CHACHA20_BLOCK_BYTES];
	unsigned used; /* bytes of block already handed out */
};

/*
 * pool_init sets key = POOL_INITIAL_KEY. Bytes are packed little-endian into 32-bit words; when
 * 8 words are pending the pool compresses:
 *   key = first 32 bytes of chacha20_block(key ^ pending, compressions++, {POOL_DOMAIN_MIX, 0, 0})
 * pool_mix_u64 mixes the 8 little-endian bytes of value, so results do not depend on the host.
 */
void pool_init(struct mix_pool *pool);
void pool_mix(struct mix_pool *pool, const void *data, size_t len);
void pool_mix_u64(struct mix_pool *pool, uint64_t value);

/*
 * Finish the pool and key the generator from it: a partial block is zero padded and compressed,
 * then one more compression with POOL_DOMAIN_FIN over {length low, length high, 0...} so that
 * inputs differing only in trailing zero bytes finish differently. The pool is wiped (all zero)
 * and must be pool_init()ed before reuse. The generator starts at block counter 0.
 */
void rng_init_from_pool(struct rng *rng, struct mix_pool *pool);
/*
 * Output is the ChaCha20 keystream of rng->key with nonce {POOL_DOMAIN_GEN, 0, 0}, blocks 0, 1,
 * 2, ... consumed in order; rng_u64 takes the next 8 bytes little-endian. Block 0xffffffff is
 * never output: it becomes the next key and the counter restarts, so no block repeats.
 */
uint64_t rng_u64(struct rng *rng);
void rng_bytes(struct rng *rng, void *out, size_t len);
/* The generator forgotten: key, counter and block zeroed, so that nothing left in memory
 * regenerates what it gave (the bases, the seed). Draw nothing more from it afterwards. */
void rng_wipe(struct rng *rng);

/* rng_u64 with a void context, for uniform_below(). */
uint64_t rng_next_u64(void *rng);

#endif
