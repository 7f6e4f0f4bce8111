/*
 * A progress hook (lib/decompress.h) that holds a decoder to its contract, for the fuzz
 * targets and unit tests: watermarks never go back nor past the buffer, and the bytes below
 * one are never read again; 'written' (zstd) never goes back, below a watermark nor past the
 * buffer. The hook flips every byte it is told is final; a decoder that later copied from one
 * would produce wrong output, and the checksum covers only unflipped bytes.
 * progress_restore() flips them back once decoding is over.
 */
#ifndef KSLIDE_TESTS_FUZZ_PROGRESS_CHECK_H
#define KSLIDE_TESTS_FUZZ_PROGRESS_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "lib/decompress.h"

#define PROGRESS_FLIP 0xA5

struct progress_check {
	uint8_t *dst;
	size_t capacity;
	size_t last; /* the highest watermark so far */
	size_t written; /* the highest 'written' so far */
	size_t calls;
	int broken; /* a watermark went back or past the buffer */
};

static int progress_check_final(void *ctx, size_t final)
{
	struct progress_check *p = ctx;
	if (final < p->last || final > p->capacity) {
		p->broken = 1;
		return 0;
	}
	for (size_t i = p->last; i < final; i++)
		p->dst[i] ^= PROGRESS_FLIP;
	p->last = final;
	p->calls++;
	return 0;
}

static int progress_check_written(void *ctx, size_t written)
{
	struct progress_check *p = ctx;
	if (written < p->written || written < p->last || written > p->capacity)
		p->broken = 1;
	p->written = written;
	return 0;
}

static inline struct decode_progress progress_check_hook(struct progress_check *p, uint8_t *dst,
							 size_t capacity)
{
	*p = (struct progress_check){dst, capacity, 0, 0, 0, 0};
	return (struct decode_progress){progress_check_final, p, progress_check_written};
}

/* Undo the flips; whether the contract held (after success: the last watermark is the end). */
static inline int progress_restore(struct progress_check *p, int rc, size_t out_len)
{
	for (size_t i = 0; i < p->last; i++)
		p->dst[i] ^= PROGRESS_FLIP;
	if (p->broken)
		return 0;
	return rc != 0 || p->last == out_len;
}

#endif
