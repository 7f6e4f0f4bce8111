/* The boot's serial lines, parsed as key=value words (see lines.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools/stat/lines.h"

#define BASE_PREFIX   "kslide: base="
#define USABLE_PREFIX "kernel: usable="
#define RANDOM_PREFIX "kslide: random="

/* The value of " key=" (or "key=" at the line's start) as a string of up to 'cap' - 1 bytes. */
static int word_value(const char *line, const char *key, char *out, size_t cap)
{
	size_t klen = strlen(key);
	for (const char *p = line; (p = strstr(p, key)); p++) {
		if ((p != line && p[-1] != ' ') || p[klen] != '=')
			continue;
		const char *v = p + klen + 1;
		size_t n = strcspn(v, " \r\n");
		if (n == 0 || n >= cap)
			return -1;
		memcpy(out, v, n);
		out[n] = '\0';
		return 0;
	}
	return -1;
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		return -1;
	*out = v;
	return 0;
}

static int word_u64(const char *line, const char *key, uint64_t *out)
{
	char buf[32];
	return word_value(line, key, buf, sizeof(buf)) ? -1 : parse_u64(buf, out);
}

int line_parse_base(const char *line, struct base_line *out)
{
	uint64_t credited;
	if (strncmp(line, BASE_PREFIX, strlen(BASE_PREFIX)))
		return -1;
	line += strlen("kslide: ");
	if (word_u64(line, "base", &out->virt) || word_u64(line, "phys", &out->phys) ||
	    word_u64(line, "slots", &out->slots) || word_u64(line, "align", &out->align) ||
	    word_u64(line, "credited", &credited) || credited > 0xffffffffu ||
	    word_value(line, "entropy", out->entropy, sizeof(out->entropy)))
		return -1;
	out->credited = (unsigned)credited;
	out->has_vslots = word_u64(line, "vslots", &out->vslots) == 0;
	if (out->has_vslots) {
		/* the stub omits valign when it equals align */
		if (word_u64(line, "valign", &out->valign))
			out->valign = out->align;
	} else {
		out->vslots = out->slots;
		out->valign = out->align;
	}
	return 0;
}

int line_parse_usable(const char *line, struct mem_span *spans, size_t cap, size_t *count)
{
	if (strncmp(line, USABLE_PREFIX, strlen(USABLE_PREFIX)))
		return -1;
	const char *p = line + strlen(USABLE_PREFIX);
	size_t n = 0;
	while (*p && *p != '\r' && *p != '\n') {
		char *end;
		errno = 0;
		uint64_t start = strtoull(p, &end, 0);
		if (errno || end == p || *end != '-' || n == cap)
			return -1;
		p = end + 1;
		uint64_t stop = strtoull(p, &end, 0);
		if (errno || end == p || stop < start)
			return -1;
		spans[n].start = start;
		spans[n].end = stop;
		n++;
		p = end;
		if (*p == ',')
			p++;
		else if (*p && *p != '\r' && *p != '\n')
			return -1;
	}
	*count = n;
	return 0;
}

int line_parse_random(const char *line, const char **hex, size_t *len)
{
	if (strncmp(line, RANDOM_PREFIX, strlen(RANDOM_PREFIX)))
		return -1;
	const char *p = line + strlen(RANDOM_PREFIX);
	size_t n = strspn(p, "0123456789abcdef");
	if (n == 0 || n % 2 || (p[n] && p[n] != '\r' && p[n] != '\n'))
		return -1;
	*hex = p;
	*len = n;
	return 0;
}
