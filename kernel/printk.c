/* printk: one formatter, two sinks. */
#include <stdarg.h>

#include "arch/x86/serial.h"
#include "kernel/printk.h"
#include "kernel/secrecy/kptr.h"
#include "kernel/secrecy/syslog.h"
#include "lib/format.h"

static void printk_putc(void *ctx, char c)
{
	serial_putc(ctx, c);
	syslog_putc(c);
}

void printk(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	format_vp(printk_putc, kptr_format, 0, fmt, ap);
	va_end(ap);
}
