/* The packer's one error path (tools/pack/fail.h). */
#include <stdarg.h>
#include <stdio.h>

#include "tools/pack/fail.h"

int pack_fail(char *err, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, cap, fmt, ap);
	va_end(ap);
	return -1;
}
