/* The user programs' small C library: system calls and printf to the console. */
#ifndef KSLIDE_KERNEL_USER_ULIB_H
#define KSLIDE_KERNEL_USER_ULIB_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/proc/uapi.h"
#include "lib/string.h"

long syscall3(long nr, long a0, long a1, long a2);
/* The same, with every other register set to a marker first; *changed gets a bit for each
 * register (or flag word) that did not come back as it went in (kernel/user/<arch>/crt0.S). */
long syscall3_checked(long nr, long a0, long a1, long a2, unsigned long *changed);
#ifndef __x86_64__
/* System call nr (no arguments) with DS and ES both holding selector; *seen gets DS (low 16
 * bits) and ES (high 16) as the call left them (kernel/user/i386/crt0.S). */
long syscall_on_segment(long nr, unsigned selector, unsigned *seen);
#endif

__attribute__((noreturn)) void sys_exit_status(int status);
long sys_write(const char *buf, size_t len);
long sys_syslog(char *buf, size_t len, size_t offset);
long sys_kallsyms(unsigned index, struct ksym *out, unsigned view);
long sys_sysctl_read(const char *name);
long sys_sysctl_write(const char *name, int value);
long sys_drop_caps(uint32_t mask);
long sys_getcaps(void);
long sys_getpid(void);

/* printf through SYS_WRITE, a line at a time. */
void printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

int strcmp(const char *a, const char *b);

#endif
