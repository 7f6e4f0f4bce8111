/*
 * XXH32 and XXH64, from the algorithm's description (Cyan4973/xxHash, doc/xxhash_spec.md):
 * four lanes consume the input in stripes, then the lanes merge, the tail is mixed in a word
 * (or a byte) at a time, and a final avalanche spreads every bit. Checked against libxxhash
 * and the libraries' own checksums (tests/unit/test_xxhash.c).
 */
#include "lib/xxhash.h"

#include "lib/unaligned.h"

/* The five primes of each variant, as the algorithm defines them. */
#define P32_1 0x9E3779B1u
#define P32_2 0x85EBCA77u
#define P32_3 0xC2B2AE3Du
#define P32_4 0x27D4EB2Fu
#define P32_5 0x165667B1u

#define P64_1 0x9E3779B185EBCA87ull
#define P64_2 0xC2B2AE3D27D4EB4Full
#define P64_3 0x165667B19E3779F9ull
#define P64_4 0x85EBCA77C2B2AE63ull
#define P64_5 0x27D4EB2F165667C5ull

static inline uint32_t rotl32(uint32_t x, unsigned r)
{
	return (x << r) | (x >> (32 - r));
}

static inline uint64_t rotl64(uint64_t x, unsigned r)
{
	return (x << r) | (x >> (64 - r));
}

static inline uint32_t round32(uint32_t acc, uint32_t input)
{
	return rotl32(acc + input * P32_2, 13) * P32_1;
}

static inline uint64_t round64(uint64_t acc, uint64_t input)
{
	return rotl64(acc + input * P64_2, 31) * P64_1;
}

static void stripe32(uint32_t lane[4], const uint8_t *p)
{
	for (int i = 0; i < 4; i++)
		lane[i] = round32(lane[i], load_le32(p + 4 * i));
}

static void stripe64(uint64_t lane[4], const uint8_t *p)
{
	for (int i = 0; i < 4; i++)
		lane[i] = round64(lane[i], load_le64(p + 8 * i));
}

void xxh32_init(struct xxh32_state *s, uint32_t seed)
{
	s->lane[0] = seed + P32_1 + P32_2;
	s->lane[1] = seed + P32_2;
	s->lane[2] = seed;
	s->lane[3] = seed - P32_1;
	s->total_low = 0;
	s->large = 0;
	s->buffered_len = 0;
}

void xxh32_update(struct xxh32_state *s, const void *data, size_t len)
{
	const uint8_t *p = data;
	s->total_low += (uint32_t)len;
	if (s->buffered_len + len < XXH32_STRIPE) {
		for (size_t i = 0; i < len; i++)
			s->buffered[s->buffered_len++] = p[i];
		return;
	}
	s->large = 1;
	if (s->buffered_len) {
		while (s->buffered_len < XXH32_STRIPE) {
			s->buffered[s->buffered_len++] = *p++;
			len--;
		}
		stripe32(s->lane, s->buffered);
		s->buffered_len = 0;
	}
	for (; len >= XXH32_STRIPE; p += XXH32_STRIPE, len -= XXH32_STRIPE)
		stripe32(s->lane, p);
	for (size_t i = 0; i < len; i++)
		s->buffered[s->buffered_len++] = p[i];
}

uint32_t xxh32_digest(const struct xxh32_state *s)
{
	uint32_t acc;
	if (s->large)
		acc = rotl32(s->lane[0], 1) + rotl32(s->lane[1], 7) + rotl32(s->lane[2], 12) +
		      rotl32(s->lane[3], 18);
	else
		acc = s->lane[2] + P32_5; /* lane[2] still holds the seed */
	acc += s->total_low;
	const uint8_t *p = s->buffered;
	unsigned left = s->buffered_len;
	for (; left >= 4; p += 4, left -= 4)
		acc = rotl32(acc + load_le32(p) * P32_3, 17) * P32_4;
	for (; left; p++, left--)
		acc = rotl32(acc + *p * P32_5, 11) * P32_1;
	acc ^= acc >> 15;
	acc *= P32_2;
	acc ^= acc >> 13;
	acc *= P32_3;
	acc ^= acc >> 16;
	return acc;
}

uint32_t xxh32(const void *data, size_t len, uint32_t seed)
{
	struct xxh32_state s;
	xxh32_init(&s, seed);
	xxh32_update(&s, data, len);
	return xxh32_digest(&s);
}

void xxh64_init(struct xxh64_state *s, uint64_t seed)
{
	s->lane[0] = seed + P64_1 + P64_2;
	s->lane[1] = seed + P64_2;
	s->lane[2] = seed;
	s->lane[3] = seed - P64_1;
	s->total = 0;
	s->buffered_len = 0;
}

void xxh64_update(struct xxh64_state *s, const void *data, size_t len)
{
	const uint8_t *p = data;
	s->total += len;
	if (s->buffered_len + len < XXH64_STRIPE) {
		for (size_t i = 0; i < len; i++)
			s->buffered[s->buffered_len++] = p[i];
		return;
	}
	if (s->buffered_len) {
		while (s->buffered_len < XXH64_STRIPE) {
			s->buffered[s->buffered_len++] = *p++;
			len--;
		}
		stripe64(s->lane, s->buffered);
		s->buffered_len = 0;
	}
	for (; len >= XXH64_STRIPE; p += XXH64_STRIPE, len -= XXH64_STRIPE)
		stripe64(s->lane, p);
	for (size_t i = 0; i < len; i++)
		s->buffered[s->buffered_len++] = p[i];
}

uint64_t xxh64_digest(const struct xxh64_state *s)
{
	uint64_t acc;
	if (s->total >= XXH64_STRIPE) {
		acc = rotl64(s->lane[0], 1) + rotl64(s->lane[1], 7) + rotl64(s->lane[2], 12) +
		      rotl64(s->lane[3], 18);
		for (int i = 0; i < 4; i++)
			acc = (acc ^ round64(0, s->lane[i])) * P64_1 + P64_4;
	} else {
		acc = s->lane[2] + P64_5; /* lane[2] still holds the seed */
	}
	acc += s->total;
	const uint8_t *p = s->buffered;
	unsigned left = s->buffered_len;
	for (; left >= 8; p += 8, left -= 8)
		acc = rotl64(acc ^ round64(0, load_le64(p)), 27) * P64_1 + P64_4;
	if (left >= 4) {
		acc = rotl64(acc ^ (uint64_t)load_le32(p) * P64_1, 23) * P64_2 + P64_3;
		p += 4;
		left -= 4;
	}
	for (; left; p++, left--)
		acc = rotl64(acc ^ *p * P64_5, 11) * P64_1;
	acc ^= acc >> 33;
	acc *= P64_2;
	acc ^= acc >> 29;
	acc *= P64_3;
	acc ^= acc >> 32;
	return acc;
}

uint64_t xxh64(const void *data, size_t len, uint64_t seed)
{
	struct xxh64_state s;
	xxh64_init(&s, seed);
	xxh64_update(&s, data, len);
	return xxh64_digest(&s);
}
