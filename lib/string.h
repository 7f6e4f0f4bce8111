/*
 * The libc memory and string routines of the stub, the kernel and its user programs
 * (lib/string.c; gcc may emit calls to them too). Host builds use the real libc's instead.
 */
#ifndef KSLIDE_LIB_STRING_H
#define KSLIDE_LIB_STRING_H

#include <stddef.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);

#endif
