/*
 * The backward bit reader of Zstandard's Huffman and FSE streams (RFC 8878, 4.1 and 4.2.2):
 * a stream is read from its last byte towards its first, and the highest set bit of the
 * last byte marks where the useful bits begin. 'word' holds the machine word ending at 'ptr'
 * + sizeof(word); its top 'consumed' bits are used up. A refill moves 'ptr' back by whole
 * consumed bytes but never before 'start', so reading on past the first bit stays inside the
 * stream (it yields garbage and 'consumed' grows past the word size: bits_overflowed()).
 * After a refill at least BITS_AFTER_REFILL bits can be read (while the stream lasts).
 *
 *   stream: start                                   ptr          ptr + sizeof(word)
 *           | ...... bits not loaded yet ....... | word: [consumed | unread bits] |
 */
#ifndef KSLIDE_LIB_ZSTD_BITS_H
#define KSLIDE_LIB_ZSTD_BITS_H

#include <stddef.h>
#include <stdint.h>

#include "lib/errors.h"
#include "lib/unaligned.h"

#define BITS_WORD	  (8 * sizeof(uintptr_t))
#define BITS_AFTER_REFILL (BITS_WORD - 7)
#define BITS_WIDE	  (BITS_WORD == 64) /* one refill per sequence suffices */

struct bits {
	const uint8_t *start;
	const uint8_t *ptr;
	uintptr_t word;
	unsigned consumed;
};

/* KS_EFORMAT for an empty stream or one whose last byte is 0 (no end marker). */
static inline int bits_init(struct bits *b, const uint8_t *src, size_t len)
{
	if (len == 0 || src[len - 1] == 0)
		return KS_EFORMAT;
	unsigned marker_skip = (unsigned)__builtin_clz(src[len - 1]) - (32 - 8) + 1;
	b->start = src;
	if (len >= sizeof(uintptr_t)) {
		b->ptr = src + len - sizeof(uintptr_t);
		b->word = load_word(b->ptr);
		b->consumed = marker_skip;
	} else {
		/* A short stream: its bytes at the bottom of the word, the missing ones used up. */
		uintptr_t w = 0;
		for (size_t i = 0; i < len; i++)
			w |= (uintptr_t)src[i] << (8 * i);
		b->ptr = src;
		b->word = w;
		b->consumed = (unsigned)(8 * (sizeof(uintptr_t) - len)) + marker_skip;
	}
	return KS_OK;
}

/* The next n bits (0 <= n < BITS_WORD), not consumed. */
static inline uintptr_t bits_peek(const struct bits *b, unsigned n)
{
	return ((b->word << (b->consumed & (BITS_WORD - 1))) >> 1) >> (BITS_WORD - 1 - n);
}

/* The same for 1 <= n < BITS_WORD, one shift shorter. */
static inline uintptr_t bits_peek_nonzero(const struct bits *b, unsigned n)
{
	return (b->word << (b->consumed & (BITS_WORD - 1))) >> (BITS_WORD - n);
}

static inline void bits_skip(struct bits *b, unsigned n)
{
	b->consumed += n;
}

static inline uintptr_t bits_read(struct bits *b, unsigned n)
{
	uintptr_t v = bits_peek(b, n);
	b->consumed += n;
	return v;
}

/* The same for 1 <= n < BITS_WORD. */
static inline uintptr_t bits_read_nonzero(struct bits *b, unsigned n)
{
	uintptr_t v = bits_peek_nonzero(b, n);
	b->consumed += n;
	return v;
}

static inline void bits_refill(struct bits *b)
{
	size_t step = b->consumed >> 3;
	size_t room = (size_t)(b->ptr - b->start);
	if (step > room)
		step = room;
	if (step) {
		b->ptr -= step;
		b->consumed -= (unsigned)(8 * step);
		b->word = load_word(b->ptr);
	}
}

/* The same, for a caller that knows at least consumed / 8 bytes precede ptr: no clamping. */
static inline void bits_refill_far(struct bits *b)
{
	b->ptr -= b->consumed >> 3;
	b->consumed &= 7;
	b->word = load_word(b->ptr);
}

/* Whether more bits were read than the stream holds (meaningful right after a refill). */
static inline int bits_overflowed(const struct bits *b)
{
	return b->consumed > BITS_WORD;
}

/* Whether every bit was read, and not one more (call right after a refill). */
static inline int bits_finished(const struct bits *b)
{
	return b->ptr == b->start && b->consumed == BITS_WORD;
}

#endif
