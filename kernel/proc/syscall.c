/*
 * The system calls (kernel/proc/uapi.h). Every pointer from user mode is checked against the
 * process's user window before the kernel touches it; every value handed back is either the
 * process's own data or passes through the pointer policy (kptr_restrict, dmesg_restrict).
 */
#include <stddef.h>

#include "kernel/arch.h"
#include "kernel/cpu/user_access.h"
#include "kernel/proc/proc.h"
#include "kernel/proc/syscall.h"
#include "kernel/secrecy/kallsyms.h"
#include "kernel/secrecy/sysctl.h"
#include "kernel/secrecy/syslog.h"
#include "lib/string.h"

#define WRITE_MAX 4096
#define SYSLOG_CHUNK 256

static int copy_in(void *dst, uintptr_t src, size_t len)
{
	if (!arch_user_range(src, len))
		return -EFAULT;
	user_access_begin();
	memcpy(dst, (const void *)src, len);
	user_access_end();
	return 0;
}

static int copy_out(uintptr_t dst, const void *src, size_t len)
{
	if (!arch_user_range(dst, len))
		return -EFAULT;
	user_access_begin();
	memcpy((void *)dst, src, len);
	user_access_end();
	return 0;
}

/* A NUL-terminated name shorter than cap bytes. */
static int copy_name(char *dst, uintptr_t src, size_t cap)
{
	for (size_t i = 0; i < cap; i++) {
		if (copy_in(&dst[i], src + i, 1) != 0)
			return -EFAULT;
		if (dst[i] == '\0')
			return 0;
	}
	return -EINVAL;
}

static long sys_write(uintptr_t buf, size_t len)
{
	if (len > WRITE_MAX)
		return -EINVAL;
	if (!arch_user_range(buf, len))
		return -EFAULT;
	user_access_begin();
	proc_write((const char *)buf, len);
	user_access_end();
	return (long)len;
}

static long sys_syslog(uintptr_t buf, size_t len, size_t offset)
{
	if (sysctl_dmesg_restrict && !capable(proc_current_cred(), CAP_SYSLOG))
		return -EPERM;
	char chunk[SYSLOG_CHUNK];
	size_t n = syslog_read(offset, chunk, len < sizeof(chunk) ? len : sizeof(chunk));
	int err = copy_out(buf, chunk, n);
	return err ? err : (long)n;
}

static long sys_kallsyms(unsigned index, uintptr_t out, unsigned view)
{
	struct ksym sym;
	if (view != KSYM_VIEW_RUNTIME && view != KSYM_VIEW_UNSLID)
		return -EINVAL;
	if (!kallsyms_show(index, view, proc_current_cred(), &sym))
		return -ENOENT;
	return copy_out(out, &sym, sizeof(sym));
}

static long sys_sysctl_read(uintptr_t name_ptr)
{
	char name[SYSCTL_NAME_BYTES];
	int err = copy_name(name, name_ptr, sizeof(name));
	if (err)
		return err;
	int value;
	err = sysctl_read(name, &value);
	return err ? err : value;
}

static long sys_sysctl_write(uintptr_t name_ptr, int value)
{
	char name[SYSCTL_NAME_BYTES];
	int err = copy_name(name, name_ptr, sizeof(name));
	return err ? err : sysctl_write(name, value, proc_current_cred());
}

static syscall_observer_fn observer;
static void *observer_ctx;

void syscall_observe(syscall_observer_fn fn, void *ctx)
{
	observer = fn;
	observer_ctx = ctx;
}

static long dispatch(unsigned nr, uintptr_t a0, uintptr_t a1, uintptr_t a2)
{
	switch (nr) {
	case SYS_EXIT:
		proc_exit((int)a0);
	case SYS_WRITE:
		return sys_write(a0, a1);
	case SYS_SYSLOG:
		return sys_syslog(a0, a1, a2);
	case SYS_KALLSYMS:
		return sys_kallsyms((unsigned)a0, a1, (unsigned)a2);
	case SYS_SYSCTL_READ:
		return sys_sysctl_read(a0);
	case SYS_SYSCTL_WRITE:
		return sys_sysctl_write(a0, (int)a1);
	case SYS_DROP_CAPS:
		return (long)proc_drop_caps((uint32_t)a0);
	case SYS_GETCAPS:
		return (long)proc_current_cred()->caps;
	case SYS_GETPID:
		return (long)proc_current_pid();
	}
	return -ENOSYS;
}

long syscall_dispatch(unsigned nr, uintptr_t a0, uintptr_t a1, uintptr_t a2)
{
	long result = dispatch(nr, a0, a1, a2);
	if (observer)
		observer(observer_ctx, nr, result);
	return result;
}
