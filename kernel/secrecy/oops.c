/*
 * The article's brute-force answer: a wrong guess at the kernel's address must cost the
 * attacker. Each one kills the guessing process and counts as an oops; with panic_on_oops the
 * first one stops the machine, and oops_limit bounds how many guesses a boot allows at all.
 */
#include <stdarg.h>

#include "arch/x86/serial.h"
#include "kernel/console.h"
#include "kernel/printk.h"
#include "kernel/qemu_exit.h"
#include "kernel/secrecy/oops.h"
#include "kernel/secrecy/sysctl.h"
#include "lib/format.h"

void oops_user(unsigned pid)
{
	oops_count++;
	if (sysctl_panic_on_oops)
		panic("oops in pid %u with panic_on_oops set", pid);
	if (sysctl_oops_limit && oops_count >= sysctl_oops_limit)
		panic("oops limit reached (%d)", sysctl_oops_limit);
}

void panic(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kprintf("kernel panic: ");
	format_v(serial_putc, 0, fmt, ap);
	kprintf("\n");
	va_end(ap);
	qemu_exit(QEMU_EXIT_FAIL);
}
