/* Kernel console output over COM1. */
#include <stdarg.h>

#include "arch/x86/serial.h"
#include "kernel/console.h"
#include "lib/format.h"

void console_init(void)
{
	serial_init();
}

void kprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	format_v(serial_putc, 0, fmt, ap);
	va_end(ap);
}
