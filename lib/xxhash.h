/*
 * XXH32 and XXH64 (Yann Collet's xxHash, seed 0 or any): the checksums of the LZ4 frame
 * format (XXH32: header, blocks, content) and of Zstandard frames (low 32 bits of XXH64).
 * One-shot functions, and streaming states for content that arrives block by block.
 */
#ifndef KSLIDE_LIB_XXHASH_H
#define KSLIDE_LIB_XXHASH_H

#include <stddef.h>
#include <stdint.h>

#define XXH32_STRIPE 16 /* bytes consumed by one round of the four 32-bit lanes */
#define XXH64_STRIPE 32 /* bytes consumed by one round of the four 64-bit lanes */

struct xxh32_state {
	uint32_t lane[4];
	uint32_t total_low; /* the length mod 2^32, which is all the digest uses */
	int large;	    /* at least one stripe was consumed */
	uint8_t buffered[XXH32_STRIPE];
	unsigned buffered_len;
};

struct xxh64_state {
	uint64_t lane[4];
	uint64_t total;
	uint8_t buffered[XXH64_STRIPE];
	unsigned buffered_len;
};

uint32_t xxh32(const void *data, size_t len, uint32_t seed);
uint64_t xxh64(const void *data, size_t len, uint64_t seed);

void xxh32_init(struct xxh32_state *s, uint32_t seed);
void xxh32_update(struct xxh32_state *s, const void *data, size_t len);
uint32_t xxh32_digest(const struct xxh32_state *s);

void xxh64_init(struct xxh64_state *s, uint64_t seed);
void xxh64_update(struct xxh64_state *s, const void *data, size_t len);
uint64_t xxh64_digest(const struct xxh64_state *s);

#endif
