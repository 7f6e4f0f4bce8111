/* kslide-pack's numbers and ranges on the command line (numbers.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tools/pack/numbers.h"

int pack_parse_size(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || end == s || *s == '-')
		return -1;
	unsigned shift = 0;
	switch (*end) {
	case 'K': case 'k': shift = 10; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'G': case 'g': shift = 30; end++; break;
	case 'T': case 't': shift = 40; end++; break;
	}
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

/* "MIN:END", END exclusive, 0 for the top of the address space. */
int pack_parse_range(const char *s, uint64_t *min, uint64_t *last)
{
	const char *colon = strchr(s, ':');
	if (!colon || colon == s)
		return -1;
	char first[64];
	size_t n = (size_t)(colon - s);
	if (n >= sizeof(first))
		return -1;
	memcpy(first, s, n);
	first[n] = '\0';
	uint64_t end;
	if (pack_parse_size(first, min) || pack_parse_size(colon + 1, &end))
		return -1;
	*last = end - 1; /* 0 - 1: the last byte of the address space */
	return *min <= *last ? 0 : -1;
}
