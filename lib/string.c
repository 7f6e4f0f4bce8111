/* The libc memory and string routines the stub and kernel need (gcc may emit calls to them).
 * Freestanding: built only for the boot targets, since the host tests use the real libc. */
#include <stddef.h>
#include <stdint.h>

#include "lib/string.h"

/* A word that may alias any object, so word-at-a-time copies keep strict-aliasing promises. */
typedef uint32_t __attribute__((may_alias)) word_t;
/* The same at any address: x86, the only target of this file, loads and stores words at any
 * alignment, at little or no cost; the decoders copy literals to and from odd addresses. */
typedef uint32_t __attribute__((may_alias, aligned(1))) unaligned_word_t;

#define WORD_BYTES sizeof(word_t)
#define WORD_MASK (WORD_BYTES - 1)

/* Words per round of the unrolled loops: the stub copies and zeroes whole kernels with them,
 * and one word per round spent more instructions on the loop than on the data. */
#define UNROLL 4

/* Copies n bytes forwards; safe for overlap when dst < src, which memmove relies on (each
 * round reads its words before writing them, and dst < src never meets an unread word). */
static void copy_forward(unsigned char *d, const unsigned char *s, size_t n)
{
	typedef unaligned_word_t uw;
	for (; n >= UNROLL * WORD_BYTES;
	     n -= UNROLL * WORD_BYTES, d += UNROLL * WORD_BYTES, s += UNROLL * WORD_BYTES) {
		uw w0 = ((const uw *)s)[0], w1 = ((const uw *)s)[1];
		uw w2 = ((const uw *)s)[2], w3 = ((const uw *)s)[3];
		((uw *)d)[0] = w0;
		((uw *)d)[1] = w1;
		((uw *)d)[2] = w2;
		((uw *)d)[3] = w3;
	}
	for (; n >= WORD_BYTES; n -= WORD_BYTES, d += WORD_BYTES, s += WORD_BYTES)
		*(uw *)d = *(const uw *)s;
	while (n--)
		*d++ = *s++;
}

/* Copies n bytes from the end down; safe for overlap when dst > src. */
static void copy_backward(unsigned char *d, const unsigned char *s, size_t n)
{
	d += n;
	s += n;
	while (n--)
		*--d = *--s;
}

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	copy_forward(dst, src, n);
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	/* Compare as integers: relational operators on unrelated pointers are undefined in C. */
	if ((uintptr_t)d <= (uintptr_t)s || (uintptr_t)d >= (uintptr_t)s + n)
		copy_forward(d, s, n);
	else
		copy_backward(d, s, n);
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	unsigned char byte = (unsigned char)c;
	if (((uintptr_t)d & WORD_MASK) == 0) {
		word_t word = byte * (word_t)0x01010101u; /* the byte in all four lanes */
		for (; n >= UNROLL * WORD_BYTES; n -= UNROLL * WORD_BYTES, d += UNROLL * WORD_BYTES) {
			((word_t *)d)[0] = word;
			((word_t *)d)[1] = word;
			((word_t *)d)[2] = word;
			((word_t *)d)[3] = word;
		}
		for (; n >= WORD_BYTES; n -= WORD_BYTES, d += WORD_BYTES)
			*(word_t *)d = word;
	}
	while (n--)
		*d++ = byte;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;
	for (; n > 0; n--, p++, q++)
		if (*p != *q)
			return *p < *q ? -1 : 1;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
	while (*p && *p == *q)
		p++, q++;
	return *p < *q ? -1 : *p > *q;
}
