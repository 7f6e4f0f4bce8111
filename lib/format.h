/*
 * printf-style formatting into a caller-supplied sink, for the stub and the kernel consoles.
 * Supports %s %c %d %u %x %lx %llx %llu %lld %zu %zx %% with optional '0' flag and width,
 * plus %p (pointer as 0x + hex digits of uintptr_t). Unknown conversions print verbatim.
 *
 * %pK and %px are the kernel's restricted and raw pointers: without a pointer hook all three
 * print the pointer as it is; format_vp lets the kernel decide what each one shows.
 */
#ifndef KSLIDE_LIB_FORMAT_H
#define KSLIDE_LIB_FORMAT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

typedef void (*format_putc_fn)(void *ctx, char c);

/* What a pointer conversion prints instead of the pointer p; kind is 'p', 'K' or 'x'. */
typedef uintptr_t (*format_ptr_fn)(void *ctx, char kind, uintptr_t p);

/* Returns the number of characters emitted. */
size_t format_v(format_putc_fn putc, void *ctx, const char *fmt, va_list ap);
/* The same, with every %p, %pK and %px passed through ptr (when not NULL). */
size_t format_vp(format_putc_fn putc, format_ptr_fn ptr, void *ctx, const char *fmt, va_list ap);
size_t format(format_putc_fn putc, void *ctx, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* snprintf-like: always NUL-terminates when cap > 0; returns the length it wanted. */
size_t format_buf(char *buf, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
