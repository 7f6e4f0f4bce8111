/* Mixing pool and generator: the documented construction, and that every input bit counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/chacha20.h"
#include "lib/pool.h"

#define OUT_BYTES 32

/* Pool input -> first OUT_BYTES of the generator. */
static void digest(const void *data, size_t len, uint8_t out[OUT_BYTES])
{
	struct mix_pool pool;
	struct rng rng;

	pool_init(&pool);
	pool_mix(&pool, data, len);
	rng_init_from_pool(&rng, &pool);
	rng_bytes(&rng, out, OUT_BYTES);
}

static void key_from_block(uint32_t key[CHACHA20_KEY_WORDS], const uint8_t block[64])
{
	chacha20_key_from_bytes(key, block);
}

/* Recomputes the construction documented in pool.h with chacha20_block directly. */
static void finish_by_hand(uint32_t key[CHACHA20_KEY_WORDS], const uint32_t block[][8],
			   unsigned blocks, uint64_t length)
{
	static const uint32_t initial[CHACHA20_KEY_WORDS] = POOL_INITIAL_KEY;
	const uint32_t mix[3] = { POOL_DOMAIN_MIX, 0, 0 };
	const uint32_t fin[3] = { POOL_DOMAIN_FIN, 0, 0 };
	uint32_t in[CHACHA20_KEY_WORDS];
	uint8_t out[CHACHA20_BLOCK_BYTES];
	uint32_t counter = 0;

	memcpy(key, initial, sizeof(initial));
	for (unsigned b = 0; b < blocks; b++) {
		for (int i = 0; i < 8; i++)
			in[i] = key[i] ^ block[b][i];
		chacha20_block(in, counter++, mix, out);
		key_from_block(key, out);
	}
	memcpy(in, key, sizeof(in));
	in[0] ^= (uint32_t)length;
	in[1] ^= (uint32_t)(length >> 32);
	chacha20_block(in, counter, fin, out);
	key_from_block(key, out);
}

static void initial_key_is_the_documented_constant(void **state)
{
	(void)state;
	struct mix_pool pool;

	memset(&pool, 0xa5, sizeof(pool));
	pool_init(&pool);
	assert_int_equal(pool.key[0], 0x6a09e667u);
	assert_int_equal(pool.key[7], 0x5be0cd19u);
	assert_int_equal(pool.pending_words, 0);
	assert_int_equal(pool.compressions, 0);
	assert_int_equal(pool.pending[3], 0);
}

/* 36 bytes: one full block, then a zero-padded partial block of one word, then the length. */
static void key_follows_the_documented_construction(void **state)
{
	(void)state;
	uint8_t input[36];
	uint32_t blocks[2][8] = { { 0 } };
	uint32_t expected[CHACHA20_KEY_WORDS];
	struct mix_pool pool;
	struct rng rng;

	for (int i = 0; i < 36; i++)
		input[i] = (uint8_t)(3 * i + 1);
	for (int i = 0; i < 8; i++)
		blocks[0][i] = (uint32_t)input[4 * i] | (uint32_t)input[4 * i + 1] << 8 |
			       (uint32_t)input[4 * i + 2] << 16 | (uint32_t)input[4 * i + 3] << 24;
	blocks[1][0] = 0x6a676461u; /* bytes 32..35: 0x61 0x64 0x67 0x6a */
	finish_by_hand(expected, blocks, 2, sizeof(input));

	pool_init(&pool);
	pool_mix(&pool, input, sizeof(input));
	rng_init_from_pool(&rng, &pool);
	assert_memory_equal(rng.key, expected, sizeof(expected));
	assert_int_equal(rng.counter, 0);
}

static void empty_input_still_finishes_with_the_length_block(void **state)
{
	(void)state;
	uint32_t expected[CHACHA20_KEY_WORDS];
	struct mix_pool pool;
	struct rng rng;

	finish_by_hand(expected, NULL, 0, 0);
	pool_init(&pool);
	rng_init_from_pool(&rng, &pool);
	assert_memory_equal(rng.key, expected, sizeof(expected));
}

static void pool_is_wiped_after_keying_the_generator(void **state)
{
	(void)state;
	struct mix_pool pool;
	struct mix_pool zero;
	struct rng rng;

	memset(&zero, 0, sizeof(zero));
	pool_init(&pool);
	pool_mix(&pool, "secret", 6);
	rng_init_from_pool(&rng, &pool);
	assert_memory_equal(&pool, &zero, sizeof(pool));
}

/* What the stub does once the last byte is drawn: nothing of key, counter or block stays. */
static void generator_is_wiped_after_its_last_draw(void **state)
{
	(void)state;
	struct mix_pool pool;
	struct rng rng, zero;
	uint8_t drawn[5];

	memset(&zero, 0, sizeof(zero));
	pool_init(&pool);
	pool_mix(&pool, "secret", 6);
	rng_init_from_pool(&rng, &pool);
	rng_bytes(&rng, drawn, sizeof(drawn)); /* a block half handed out, as at the handoff */
	rng_wipe(&rng);
	assert_memory_equal(&rng, &zero, sizeof(rng));
}

static void same_input_gives_same_output(void **state)
{
	(void)state;
	uint8_t a[OUT_BYTES], b[OUT_BYTES];

	digest("kslide", 6, a);
	digest("kslide", 6, b);
	assert_memory_equal(a, b, OUT_BYTES);
}

static void output_is_not_all_zero(void **state)
{
	(void)state;
	static const uint8_t zero[OUT_BYTES];
	uint8_t out[OUT_BYTES];

	digest(NULL, 0, out);
	assert_memory_not_equal(out, zero, OUT_BYTES);
	digest(zero, sizeof(zero), out);
	assert_memory_not_equal(out, zero, OUT_BYTES);
}

/* 70 bytes span two compressions and a partial block; every one of the 560 bits must matter. */
static void every_single_bit_flip_changes_output(void **state)
{
	(void)state;
	uint8_t input[70];
	uint8_t base[OUT_BYTES], flipped[OUT_BYTES];

	for (size_t i = 0; i < sizeof(input); i++)
		input[i] = (uint8_t)(i * 37);
	digest(input, sizeof(input), base);
	for (size_t i = 0; i < sizeof(input); i++) {
		for (int bit = 0; bit < 8; bit++) {
			input[i] ^= (uint8_t)(1u << bit);
			digest(input, sizeof(input), flipped);
			input[i] ^= (uint8_t)(1u << bit);
			assert_memory_not_equal(base, flipped, OUT_BYTES);
		}
	}
}

static void order_of_samples_matters(void **state)
{
	(void)state;
	struct mix_pool p1, p2;
	struct rng r1, r2;

	pool_init(&p1);
	pool_mix_u64(&p1, 1);
	pool_mix_u64(&p1, 2);
	pool_init(&p2);
	pool_mix_u64(&p2, 2);
	pool_mix_u64(&p2, 1);
	rng_init_from_pool(&r1, &p1);
	rng_init_from_pool(&r2, &p2);
	assert_true(rng_u64(&r1) != rng_u64(&r2));
}

static void trailing_zero_bytes_change_output(void **state)
{
	(void)state;
	static const uint8_t zeros[64];
	uint8_t a[OUT_BYTES], b[OUT_BYTES];

	digest("ab", 2, a);
	digest("ab\0", 3, b);
	assert_memory_not_equal(a, b, OUT_BYTES);
	digest(zeros, 0, a);
	digest(zeros, 1, b);
	assert_memory_not_equal(a, b, OUT_BYTES);
	/* A whole block of zeros against a block and one more zero word. */
	digest(zeros, 32, a);
	digest(zeros, 36, b);
	assert_memory_not_equal(a, b, OUT_BYTES);
}

/* Splitting the input across calls is the same byte stream. */
static void mixing_is_a_byte_stream(void **state)
{
	(void)state;
	struct mix_pool p;
	struct rng r;
	uint8_t whole[OUT_BYTES], parts[OUT_BYTES];
	uint8_t le[8] = { 0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0x01 };

	digest(le, sizeof(le), whole);
	pool_init(&p);
	pool_mix_u64(&p, 0x0123456789abcdefull);
	rng_init_from_pool(&r, &p);
	rng_bytes(&r, parts, OUT_BYTES);
	assert_memory_equal(whole, parts, OUT_BYTES);

	pool_init(&p);
	pool_mix(&p, le, 3);
	pool_mix(&p, le + 3, 0);
	pool_mix(&p, le + 3, 5);
	rng_init_from_pool(&r, &p);
	rng_bytes(&r, parts, OUT_BYTES);
	assert_memory_equal(whole, parts, OUT_BYTES);
}

static void keyed_rng(struct rng *rng)
{
	struct mix_pool pool;

	pool_init(&pool);
	pool_mix_u64(&pool, 42);
	rng_init_from_pool(rng, &pool);
}

/* Generator output is exactly the keystream of the derived key, nonce "gen", from counter 0. */
static void output_is_the_gen_keystream(void **state)
{
	(void)state;
	const uint32_t nonce[3] = { POOL_DOMAIN_GEN, 0, 0 };
	struct rng rng;
	uint32_t key[CHACHA20_KEY_WORDS];
	uint8_t expected[3 * CHACHA20_BLOCK_BYTES];
	uint8_t got[3 * CHACHA20_BLOCK_BYTES];

	keyed_rng(&rng);
	memcpy(key, rng.key, sizeof(key));
	for (uint32_t c = 0; c < 3; c++)
		chacha20_block(key, c, nonce, expected + c * CHACHA20_BLOCK_BYTES);
	/* Odd-sized draws that straddle block edges. */
	rng_bytes(&rng, got, 3);
	rng_bytes(&rng, got + 3, 100);
	rng_bytes(&rng, got + 103, sizeof(got) - 103);
	assert_memory_equal(got, expected, sizeof(got));
	assert_int_equal(rng.counter, 3);
}

static void u64_is_next_eight_bytes_little_endian(void **state)
{
	(void)state;
	struct rng a, b;
	uint8_t bytes[80];

	keyed_rng(&a);
	keyed_rng(&b);
	rng_bytes(&a, bytes, sizeof(bytes));
	for (int i = 0; i < 10; i++) {
		uint64_t want = 0;

		for (int j = 7; j >= 0; j--)
			want = want << 8 | bytes[8 * i + j];
		if (i % 2)
			assert_true(rng_u64(&b) == want);
		else
			assert_true(rng_next_u64(&b) == want);
	}
}

static void successive_values_differ(void **state)
{
	(void)state;
	struct rng rng;
	uint64_t seen[32];

	keyed_rng(&rng);
	for (int i = 0; i < 32; i++) {
		seen[i] = rng_u64(&rng);
		for (int j = 0; j < i; j++)
			assert_true(seen[i] != seen[j]);
	}
}

/* At the last counter the generator rekeys instead of wrapping back to block 0. */
static void counter_exhaustion_rekeys_instead_of_repeating(void **state)
{
	(void)state;
	const uint32_t nonce[3] = { POOL_DOMAIN_GEN, 0, 0 };
	struct rng rng;
	uint32_t old_key[CHACHA20_KEY_WORDS];
	uint8_t block0[CHACHA20_BLOCK_BYTES];
	uint8_t last[CHACHA20_BLOCK_BYTES];
	uint8_t got[CHACHA20_BLOCK_BYTES];

	keyed_rng(&rng);
	memcpy(old_key, rng.key, sizeof(old_key));
	chacha20_block(old_key, 0, nonce, block0);
	chacha20_block(old_key, UINT32_MAX, nonce, last);
	rng.counter = UINT32_MAX;
	rng_bytes(&rng, got, sizeof(got));
	assert_memory_not_equal(got, block0, sizeof(got));
	assert_memory_not_equal(got, last, sizeof(got));
	assert_memory_not_equal(rng.key, old_key, sizeof(old_key));
	assert_int_equal(rng.counter, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(initial_key_is_the_documented_constant),
		cmocka_unit_test(key_follows_the_documented_construction),
		cmocka_unit_test(empty_input_still_finishes_with_the_length_block),
		cmocka_unit_test(pool_is_wiped_after_keying_the_generator),
		cmocka_unit_test(generator_is_wiped_after_its_last_draw),
		cmocka_unit_test(same_input_gives_same_output),
		cmocka_unit_test(output_is_not_all_zero),
		cmocka_unit_test(every_single_bit_flip_changes_output),
		cmocka_unit_test(order_of_samples_matters),
		cmocka_unit_test(trailing_zero_bytes_change_output),
		cmocka_unit_test(mixing_is_a_byte_stream),
		cmocka_unit_test(output_is_the_gen_keystream),
		cmocka_unit_test(u64_is_next_eight_bytes_little_endian),
		cmocka_unit_test(successive_values_differ),
		cmocka_unit_test(counter_exhaustion_rekeys_instead_of_repeating),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
