/*
 * SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF", 2012): a keyed hash
 * whose output reveals nothing about its input to anyone without the key. The kernel hashes
 * pointers with it so that %p output cannot be turned back into an address.
 */
#ifndef KSLIDE_LIB_SIPHASH_H
#define KSLIDE_LIB_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

#define SIPHASH_KEY_BYTES 16

struct siphash_key {
	uint64_t k0, k1; /* the 16 key bytes, little-endian */
};

void siphash_key_from_bytes(struct siphash_key *key, const uint8_t bytes[SIPHASH_KEY_BYTES]);
uint64_t siphash24(const struct siphash_key *key, const void *data, size_t len);

#endif
