/* SipHash-2-4, after the reference implementation; 64-bit adds, xors and rotates only, so it
 * builds for i386 without libgcc. */
#include "lib/siphash.h"
#include "lib/unaligned.h"

#define SIPHASH_C_ROUNDS 2
#define SIPHASH_D_ROUNDS 4

static uint64_t rotl(uint64_t x, unsigned b)
{
	return (x << b) | (x >> (64 - b));
}

struct sip_state {
	uint64_t v0, v1, v2, v3;
};

static void sip_round(struct sip_state *s)
{
	s->v0 += s->v1;
	s->v1 = rotl(s->v1, 13);
	s->v1 ^= s->v0;
	s->v0 = rotl(s->v0, 32);
	s->v2 += s->v3;
	s->v3 = rotl(s->v3, 16);
	s->v3 ^= s->v2;
	s->v0 += s->v3;
	s->v3 = rotl(s->v3, 21);
	s->v3 ^= s->v0;
	s->v2 += s->v1;
	s->v1 = rotl(s->v1, 17);
	s->v1 ^= s->v2;
	s->v2 = rotl(s->v2, 32);
}

static void sip_absorb(struct sip_state *s, uint64_t m)
{
	s->v3 ^= m;
	for (unsigned i = 0; i < SIPHASH_C_ROUNDS; i++)
		sip_round(s);
	s->v0 ^= m;
}

void siphash_key_from_bytes(struct siphash_key *key, const uint8_t bytes[SIPHASH_KEY_BYTES])
{
	key->k0 = load_le64(bytes);
	key->k1 = load_le64(bytes + 8);
}

uint64_t siphash24(const struct siphash_key *key, const void *data, size_t len)
{
	/* "somepseudorandomlygeneratedbytes", the specification's initialization constants */
	struct sip_state s = {
		.v0 = key->k0 ^ 0x736f6d6570736575ull,
		.v1 = key->k1 ^ 0x646f72616e646f6dull,
		.v2 = key->k0 ^ 0x6c7967656e657261ull,
		.v3 = key->k1 ^ 0x7465646279746573ull,
	};
	const uint8_t *p = data;
	size_t whole = len & ~(size_t)7;
	for (size_t i = 0; i < whole; i += 8)
		sip_absorb(&s, load_le64(p + i));
	/* The last block: leftover bytes, and the length's low byte on top. */
	uint64_t last = (uint64_t)(len & 0xff) << 56;
	for (size_t i = 0; i < (len & 7); i++)
		last |= (uint64_t)p[whole + i] << (8 * i);
	sip_absorb(&s, last);
	s.v2 ^= 0xff;
	for (unsigned i = 0; i < SIPHASH_D_ROUNDS; i++)
		sip_round(&s);
	return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}
