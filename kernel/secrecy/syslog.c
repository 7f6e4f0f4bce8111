/* The syslog ring: 'written' counts every byte ever logged; the ring keeps the last ones. */
#include "kernel/secrecy/syslog.h"

static char ring[SYSLOG_BYTES];
static size_t written;

void syslog_putc(char c)
{
	ring[written % SYSLOG_BYTES] = c;
	written++;
}

size_t syslog_read(size_t offset, char *out, size_t len)
{
	size_t oldest = written > SYSLOG_BYTES ? written - SYSLOG_BYTES : 0;
	if (offset < oldest)
		offset = oldest;
	size_t n = 0;
	for (; n < len && offset + n < written; n++)
		out[n] = ring[(offset + n) % SYSLOG_BYTES];
	return n;
}

size_t syslog_written(void)
{
	return written;
}
