/* Kernel tunables by name, as Linux's /proc/sys/kernel/: read by anyone, written by admins. */
#ifndef KSLIDE_KERNEL_SECRECY_SYSCTL_H
#define KSLIDE_KERNEL_SECRECY_SYSCTL_H

#include <stdbool.h>

#include "kernel/proc/cred.h"

extern int sysctl_kptr_restrict;  /* 0 raw, 1 zeros unless CAP_SYSLOG, 2 always zeros */
extern int sysctl_dmesg_restrict; /* 1: reading the syslog needs CAP_SYSLOG */
extern int sysctl_panic_on_oops;
extern int sysctl_oops_limit; /* panic at this many oopses; 0 never */
extern int oops_count;        /* read-only: oopses since boot */

/* Boot defaults: restricted whenever the base was randomized (a secret worth keeping). */
void sysctl_init(bool randomized);

/* 0 and *value, or -ENOENT. */
int sysctl_read(const char *name, int *value);
/* 0, -ENOENT, -EPERM (no CAP_SYS_ADMIN, or read-only) or -EINVAL (out of range). */
int sysctl_write(const char *name, int value, const struct cred *who);

#endif
