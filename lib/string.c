/* The libc memory and string routines the stub and kernel need (gcc may emit calls to them).
 * Freestanding: built only for the boot targets, since the host tests use the real libc. */
#include <stddef.h>
#include <stdint.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);

/* A word that may alias any object, so word-at-a-time copies keep strict-aliasing promises. */
typedef uint32_t __attribute__((may_alias)) word_t;

#define WORD_BYTES sizeof(word_t)
#define WORD_MASK (WORD_BYTES - 1)

static int both_aligned(const void *a, const void *b)
{
	return (((uintptr_t)a | (uintptr_t)b) & WORD_MASK) == 0;
}

/* Copies n bytes forwards; safe for overlap when dst < src, which memmove relies on. */
static void copy_forward(unsigned char *d, const unsigned char *s, size_t n)
{
	if (both_aligned(d, s)) {
		for (; n >= WORD_BYTES; n -= WORD_BYTES, d += WORD_BYTES, s += WORD_BYTES)
			*(word_t *)d = *(const word_t *)s;
	}
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
