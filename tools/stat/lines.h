/*
 * Parsing the serial lines a boot prints: the stub's "kslide: base=..." line, its
 * "kslide: random=<hex>" diagnostic and the reference kernel's "kernel: usable=..." map.
 * Pure functions over one NUL-terminated line (trailing \r and \n allowed).
 */
#ifndef KSLIDE_TOOLS_STAT_LINES_H
#define KSLIDE_TOOLS_STAT_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LINE_SOURCES_MAX 64 /* "rdseed,rdrand,rdtsc,pit,rtc" and room to spare */

/* "kslide: base=0x<virt> phys=0x<phys> slots=N [vslots=N] align=0x<A> [valign=0x<A>]
 *  entropy=SRC,SRC credited=K" */
struct base_line {
	uint64_t virt, phys;
	uint64_t slots, align;
	bool has_vslots;	 /* x86-64: the virtual base is drawn on its own */
	uint64_t vslots, valign; /* without vslots=: slots and align; without valign=: align */
	char entropy[LINE_SOURCES_MAX];
	unsigned credited;
};

struct mem_span {
	uint64_t start, end; /* [start, end) */
};

/* 0 and *out filled for a complete base line; -1 for any other line or a malformed one. */
int line_parse_base(const char *line, struct base_line *out);

/* "kernel: usable=0x0-0x9fc00,0x100000-0x3ffe0000": 0 with up to 'cap' spans, else -1. */
int line_parse_usable(const char *line, struct mem_span *spans, size_t cap, size_t *count);

/*
 * "kslide: random=<hex>": 0 with *hex pointing at the digits and *len their count (even),
 * else -1.
 */
int line_parse_random(const char *line, const char **hex, size_t *len);

#endif
