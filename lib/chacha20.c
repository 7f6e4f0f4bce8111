/* ChaCha20 block function and stream XOR, RFC 8439 sections 2.1-2.4. Freestanding. */
#include "lib/chacha20.h"
#include "lib/unaligned.h"

/* "expand 32-byte k" as four little-endian words (RFC 8439 section 2.3). */
#define CHACHA20_CONST0 0x61707865u
#define CHACHA20_CONST1 0x3320646eu
#define CHACHA20_CONST2 0x79622d32u
#define CHACHA20_CONST3 0x6b206574u

#define CHACHA20_STATE_WORDS 16
#define CHACHA20_DOUBLE_ROUNDS 10 /* 20 rounds: 10 x (column round + diagonal round) */

static uint32_t rotl32(uint32_t v, unsigned n)
{
	return (v << n) | (v >> (32u - n));
}

/* RFC 8439 section 2.2: the quarter round applied to four words of the state. */
static void quarter_round(uint32_t s[CHACHA20_STATE_WORDS], int a, int b, int c, int d)
{
	s[a] += s[b];
	s[d] = rotl32(s[d] ^ s[a], 16);
	s[c] += s[d];
	s[b] = rotl32(s[b] ^ s[c], 12);
	s[a] += s[b];
	s[d] = rotl32(s[d] ^ s[a], 8);
	s[c] += s[d];
	s[b] = rotl32(s[b] ^ s[c], 7);
}

/*
 * State layout (RFC 8439 section 2.3):
 *
 *	cccccccc  cccccccc  cccccccc  cccccccc	c = constant
 *	kkkkkkkk  kkkkkkkk  kkkkkkkk  kkkkkkkk	k = key
 *	kkkkkkkk  kkkkkkkk  kkkkkkkk  kkkkkkkk
 *	bbbbbbbb  nnnnnnnn  nnnnnnnn  nnnnnnnn	b = block counter, n = nonce
 */
static void init_state(uint32_t s[CHACHA20_STATE_WORDS], const uint32_t key[CHACHA20_KEY_WORDS],
		       uint32_t counter, const uint32_t nonce[CHACHA20_NONCE_WORDS])
{
	s[0] = CHACHA20_CONST0;
	s[1] = CHACHA20_CONST1;
	s[2] = CHACHA20_CONST2;
	s[3] = CHACHA20_CONST3;
	for (int i = 0; i < CHACHA20_KEY_WORDS; i++)
		s[4 + i] = key[i];
	s[12] = counter;
	for (int i = 0; i < CHACHA20_NONCE_WORDS; i++)
		s[13 + i] = nonce[i];
}

void chacha20_block(const uint32_t key[CHACHA20_KEY_WORDS], uint32_t counter,
		    const uint32_t nonce[CHACHA20_NONCE_WORDS], uint8_t out[CHACHA20_BLOCK_BYTES])
{
	uint32_t init[CHACHA20_STATE_WORDS];
	uint32_t s[CHACHA20_STATE_WORDS];

	init_state(init, key, counter, nonce);
	for (int i = 0; i < CHACHA20_STATE_WORDS; i++)
		s[i] = init[i];
	for (int i = 0; i < CHACHA20_DOUBLE_ROUNDS; i++) {
		quarter_round(s, 0, 4, 8, 12); /* columns */
		quarter_round(s, 1, 5, 9, 13);
		quarter_round(s, 2, 6, 10, 14);
		quarter_round(s, 3, 7, 11, 15);
		quarter_round(s, 0, 5, 10, 15); /* diagonals */
		quarter_round(s, 1, 6, 11, 12);
		quarter_round(s, 2, 7, 8, 13);
		quarter_round(s, 3, 4, 9, 14);
	}
	/* Adding the input back makes the function one-way (section 2.3). */
	for (int i = 0; i < CHACHA20_STATE_WORDS; i++)
		store_le32(out + 4 * i, s[i] + init[i]);
}

void chacha20_xor(const uint32_t key[CHACHA20_KEY_WORDS], uint32_t counter,
		  const uint32_t nonce[CHACHA20_NONCE_WORDS], const uint8_t *in, uint8_t *out,
		  size_t len)
{
	uint8_t ks[CHACHA20_BLOCK_BYTES];

	while (len > 0) {
		size_t n = len < CHACHA20_BLOCK_BYTES ? len : CHACHA20_BLOCK_BYTES;

		chacha20_block(key, counter++, nonce, ks);
		for (size_t i = 0; i < n; i++)
			out[i] = in[i] ^ ks[i];
		in += n;
		out += n;
		len -= n;
	}
}

void chacha20_key_from_bytes(uint32_t key[CHACHA20_KEY_WORDS], const uint8_t bytes[32])
{
	for (int i = 0; i < CHACHA20_KEY_WORDS; i++)
		key[i] = load_le32(bytes + 4 * i);
}

void chacha20_nonce_from_bytes(uint32_t nonce[CHACHA20_NONCE_WORDS], const uint8_t bytes[12])
{
	for (int i = 0; i < CHACHA20_NONCE_WORDS; i++)
		nonce[i] = load_le32(bytes + 4 * i);
}
