#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "tools/common/die.h"

void tool_die(const char *program, const char *file, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", program);
	if (file)
		fprintf(stderr, "%s: ", file);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}
