/* System-call wrappers and printf for user programs. */
#include <stdarg.h>

#include "kernel/user/ulib.h"
#include "lib/format.h"

#define LINE_BYTES 256

void sys_exit_status(int status)
{
	syscall3(SYS_EXIT, status, 0, 0);
	for (;;)
		;
}

long sys_write(const char *buf, size_t len)
{
	return syscall3(SYS_WRITE, (long)buf, (long)len, 0);
}

long sys_syslog(char *buf, size_t len, size_t offset)
{
	return syscall3(SYS_SYSLOG, (long)buf, (long)len, (long)offset);
}

long sys_kallsyms(unsigned index, struct ksym *out, unsigned view)
{
	return syscall3(SYS_KALLSYMS, (long)index, (long)out, (long)view);
}

long sys_sysctl_read(const char *name)
{
	return syscall3(SYS_SYSCTL_READ, (long)name, 0, 0);
}

long sys_sysctl_write(const char *name, int value)
{
	return syscall3(SYS_SYSCTL_WRITE, (long)name, value, 0);
}

long sys_drop_caps(uint32_t mask)
{
	return syscall3(SYS_DROP_CAPS, (long)mask, 0, 0);
}

long sys_getcaps(void)
{
	return syscall3(SYS_GETCAPS, 0, 0, 0);
}

long sys_getpid(void)
{
	return syscall3(SYS_GETPID, 0, 0, 0);
}

struct line {
	char buf[LINE_BYTES];
	size_t len;
};

static void line_putc(void *ctx, char c)
{
	struct line *l = ctx;
	l->buf[l->len++] = c;
	if (c == '\n' || l->len == sizeof(l->buf)) {
		sys_write(l->buf, l->len);
		l->len = 0;
	}
}

void printf(const char *fmt, ...)
{
	struct line l = { .len = 0 };
	va_list ap;
	va_start(ap, fmt);
	format_v(line_putc, &l, fmt, ap);
	va_end(ap);
	if (l.len)
		sys_write(l.buf, l.len);
}
