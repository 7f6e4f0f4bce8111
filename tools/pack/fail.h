/*
 * The packer's one error path: each reader and writer formats what went wrong into the
 * caller's buffer and returns -1, and kslide-pack prints the message.
 */
#ifndef KSLIDE_TOOLS_PACK_FAIL_H
#define KSLIDE_TOOLS_PACK_FAIL_H

#include <stddef.h>

/* vsnprintf into err (cap bytes, always NUL-terminated when cap > 0); returns -1. */
int pack_fail(char *err, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
