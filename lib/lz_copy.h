/*
 * The copies of an LZ77 decoder (literals, and back-references into the output already
 * written), shared by lib/lz4.c and the zstd sequence executor. The "wild" forms move 16
 * bytes at a time and may write up to LZ_COPY_OVERRUN bytes past the end they were given (and
 * read as far past their source; wild_match writes at most 15): callers use them only when
 * that much room is left in both buffers, and the exact forms near the ends.
 */
#ifndef KSLIDE_LIB_LZ_COPY_H
#define KSLIDE_LIB_LZ_COPY_H

#include <stddef.h>
#include <stdint.h>

#define LZ_COPY_CHUNK	16
#define LZ_COPY_OVERRUN 32 /* bytes a wild copy may touch past its end: one chunk, rounded up */
#define RUN_ROUND	64 /* bytes wild_run writes a round */

static inline void copy_chunk(uint8_t *d, const uint8_t *s)
{
	uint64_t a, b;
	__builtin_memcpy(&a, s, 8);
	__builtin_memcpy(&b, s + 8, 8);
	__builtin_memcpy(d, &a, 8);
	__builtin_memcpy(d + 8, &b, 8);
}

/* Copy n bytes from s to d (separate buffers, or d at least a chunk past s). */
static inline void wild_copy(uint8_t *d, const uint8_t *s, size_t n)
{
	copy_chunk(d, s); /* most literal runs are this short */
	for (size_t done = LZ_COPY_CHUNK; done < n; done += LZ_COPY_CHUNK)
		copy_chunk(d + done, s + done);
}

/*
 * Append n bytes that repeat the output 'distance' bytes back (1 <= distance <= written).
 * Chunks never read bytes they have not yet written: 16-byte chunks need a distance of 16,
 * 8-byte ones of 8. A shorter distance is first written out byte by byte for 8 bytes; the
 * pattern then also repeats at the smallest multiple of the distance that is at least 8.
 */
static inline void wild_match(uint8_t *op, size_t distance, size_t n)
{
	uint8_t *end = op + n;
	if (distance >= LZ_COPY_CHUNK) {
		copy_chunk(op, op - distance); /* most matches are this short */
		for (op += LZ_COPY_CHUNK; op < end; op += LZ_COPY_CHUNK)
			copy_chunk(op, op - distance);
		return;
	}
	if (distance < 8) {
		static const uint8_t widened[8] = {0, 8, 8, 9, 8, 10, 12, 14};
		const uint8_t *match = op - distance;
		for (unsigned i = 0; i < 8; i++)
			op[i] = match[i];
		op += 8;
		distance = widened[distance];
	}
	while (op < end) {
		uint64_t v;
		__builtin_memcpy(&v, op - distance, 8);
		__builtin_memcpy(op, &v, 8);
		op += 8;
	}
}

/*
 * wild_match for distance 1, a run of the byte before op: the zeros between a kernel's
 * sections, megabytes of them, so 64 bytes a round. Writes at most 7 bytes past op + n.
 */
static inline void wild_run(uint8_t *op, size_t n)
{
	uint8_t *end = op + n;
	uint64_t run = op[-1] * (uint64_t)0x0101010101010101u;
	for (; (size_t)(end - op) >= RUN_ROUND; op += RUN_ROUND) {
		__builtin_memcpy(op, &run, 8);
		__builtin_memcpy(op + 8, &run, 8);
		__builtin_memcpy(op + 16, &run, 8);
		__builtin_memcpy(op + 24, &run, 8);
		__builtin_memcpy(op + 32, &run, 8);
		__builtin_memcpy(op + 40, &run, 8);
		__builtin_memcpy(op + 48, &run, 8);
		__builtin_memcpy(op + 56, &run, 8);
	}
	for (; op < end; op += 8)
		__builtin_memcpy(op, &run, 8);
}

/* wild_match for a match that may be long: a run of one byte goes to wild_run. */
static inline void wild_long_match(uint8_t *op, size_t distance, size_t n)
{
	if (distance == 1)
		wild_run(op, n);
	else
		wild_match(op, distance, n);
}

/*
 * The same, touching exactly [op, op + n): wild but for its last LZ_COPY_OVERRUN bytes, whose
 * room a wild copy of the rest may use (it writes there what the exact tail writes again).
 * Long matches end near the buffer's end: the last of a block that repeats one pattern is
 * nearly the whole block (docs/results.md, the stub's boot cost).
 */
static inline void exact_match(uint8_t *op, size_t distance, size_t n)
{
	if (n > LZ_COPY_OVERRUN) {
		size_t wild = n - LZ_COPY_OVERRUN;
		wild_long_match(op, distance, wild);
		op += wild;
		n = LZ_COPY_OVERRUN;
	}
	const uint8_t *match = op - distance;
	for (size_t i = 0; i < n; i++)
		op[i] = match[i];
}

/* n bytes from s to d, separate buffers, touching exactly [d, d + n). */
static inline void exact_copy(uint8_t *d, const uint8_t *s, size_t n)
{
	__builtin_memcpy(d, s, n);
}

#endif
