/* Entropy pool (ChaCha20-based compression of every sample) and the generator it keys. */
#include "lib/pool.h"
#include "lib/unaligned.h"
#include "lib/wipe.h"

#define POOL_BLOCK_BYTES (CHACHA20_KEY_WORDS * 4) /* input bytes per compression */
#define BYTES_PER_WORD 4u

/* key = first 32 bytes of chacha20_block(key ^ pending, compressions++, {domain, 0, 0}). */
static void compress(struct mix_pool *pool, uint32_t domain)
{
	const uint32_t nonce[CHACHA20_NONCE_WORDS] = { domain, 0, 0 };
	uint32_t input[CHACHA20_KEY_WORDS];
	uint8_t out[CHACHA20_BLOCK_BYTES];

	for (int i = 0; i < CHACHA20_KEY_WORDS; i++)
		input[i] = pool->key[i] ^ pool->pending[i];
	chacha20_block(input, pool->compressions++, nonce, out);
	for (int i = 0; i < CHACHA20_KEY_WORDS; i++) {
		pool->key[i] = load_le32(out + BYTES_PER_WORD * i);
		pool->pending[i] = 0;
	}
	pool->pending_words = 0;
	wipe(input, sizeof(input));
	wipe(out, sizeof(out));
}

void pool_init(struct mix_pool *pool)
{
	static const uint32_t initial[CHACHA20_KEY_WORDS] = POOL_INITIAL_KEY;

	for (int i = 0; i < CHACHA20_KEY_WORDS; i++) {
		pool->key[i] = initial[i];
		pool->pending[i] = 0;
	}
	pool->pending_words = 0;
	pool->compressions = 0;
	pool->length = 0;
}

static void mix_byte(struct mix_pool *pool, uint8_t byte)
{
	unsigned shift = 8u * (unsigned)(pool->length & (BYTES_PER_WORD - 1));

	pool->pending[pool->pending_words] |= (uint32_t)byte << shift;
	pool->length++;
	if ((pool->length & (BYTES_PER_WORD - 1)) != 0)
		return;
	if (++pool->pending_words == CHACHA20_KEY_WORDS)
		compress(pool, POOL_DOMAIN_MIX);
}

void pool_mix(struct mix_pool *pool, const void *data, size_t len)
{
	const uint8_t *bytes = data;

	for (size_t i = 0; i < len; i++)
		mix_byte(pool, bytes[i]);
}

void pool_mix_u64(struct mix_pool *pool, uint64_t value)
{
	for (int i = 0; i < 8; i++)
		mix_byte(pool, (uint8_t)(value >> (8 * i)));
}

void rng_init_from_pool(struct rng *rng, struct mix_pool *pool)
{
	/* Zero padding alone would make "ab" and "ab\0" alike; the length block below separates them. */
	if ((pool->length & (POOL_BLOCK_BYTES - 1)) != 0)
		compress(pool, POOL_DOMAIN_MIX);
	pool->pending[0] = (uint32_t)pool->length;
	pool->pending[1] = (uint32_t)(pool->length >> 32);
	compress(pool, POOL_DOMAIN_FIN);

	for (int i = 0; i < CHACHA20_KEY_WORDS; i++)
		rng->key[i] = pool->key[i];
	rng->counter = 0;
	wipe(rng->block, sizeof(rng->block));
	rng->used = CHACHA20_BLOCK_BYTES; /* empty: the first draw computes block 0 */
	wipe(pool, sizeof(*pool));
}

/*
 * Next keystream block into rng->block. The last counter value is spent on a new key instead
 * of output, so a (key, counter) pair is never used twice however much is drawn.
 */
static void refill(struct rng *rng)
{
	const uint32_t nonce[CHACHA20_NONCE_WORDS] = { POOL_DOMAIN_GEN, 0, 0 };

	if (rng->counter == UINT32_MAX) {
		chacha20_block(rng->key, rng->counter, nonce, rng->block);
		for (int i = 0; i < CHACHA20_KEY_WORDS; i++)
			rng->key[i] = load_le32(rng->block + BYTES_PER_WORD * i);
		rng->counter = 0;
	}
	chacha20_block(rng->key, rng->counter++, nonce, rng->block);
	rng->used = 0;
}

void rng_bytes(struct rng *rng, void *out, size_t len)
{
	uint8_t *dst = out;

	for (size_t i = 0; i < len; i++) {
		if (rng->used >= CHACHA20_BLOCK_BYTES)
			refill(rng);
		dst[i] = rng->block[rng->used];
		rng->block[rng->used++] = 0; /* handed out: no copy stays behind */
	}
}

void rng_wipe(struct rng *rng)
{
	wipe(rng, sizeof(*rng));
}

uint64_t rng_u64(struct rng *rng)
{
	uint8_t b[8];
	uint64_t v = 0;

	rng_bytes(rng, b, sizeof(b));
	for (int i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	wipe(b, sizeof(b));
	return v;
}

uint64_t rng_next_u64(void *rng)
{
	return rng_u64(rng);
}
