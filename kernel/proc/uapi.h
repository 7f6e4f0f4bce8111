/*
 * The reference kernel's system-call interface, shared by the kernel and the user programs in
 * kernel/user/. Every field has a fixed width so i386 and x86-64 agree on the layout.
 *
 * Calling convention: the arch's system-call instruction with the number and up to three
 * arguments in registers (i386: int $0x80, EAX = number, EBX, ECX, EDX = arguments, result in
 * EAX; x86-64: int $0x80, RAX = number, RDI, RSI, RDX = arguments, result in RAX). A
 * negative result is -errno.
 */
#ifndef KSLIDE_KERNEL_PROC_UAPI_H
#define KSLIDE_KERNEL_PROC_UAPI_H

#include <stdint.h>

enum {
	SYS_EXIT = 1,         /* (status): never returns */
	SYS_WRITE = 2,        /* (buf, len): to the console; returns len */
	SYS_SYSLOG = 3,       /* (buf, len, offset): ring bytes from offset; returns the count */
	SYS_KALLSYMS = 4,     /* (index, struct ksym *, KSYM_VIEW_*): 0, or -ENOENT past the end */
	SYS_SYSCTL_READ = 5,  /* (name): the value (>= 0) */
	SYS_SYSCTL_WRITE = 6, /* (name, value): 0; needs CAP_SYS_ADMIN */
	SYS_DROP_CAPS = 7,    /* (mask): drops those capabilities for good; returns what is left */
	SYS_GETCAPS = 8,      /* (): the capabilities held */
	SYS_GETPID = 9,       /* (): the process id */
};

/* Capabilities, after Linux's CAP_SYSLOG and CAP_SYS_ADMIN. */
#define CAP_SYSLOG (1u << 0)    /* read kernel addresses (kptr_restrict=1) and the syslog */
#define CAP_SYS_ADMIN (1u << 1) /* change sysctls */
#define CAP_ALL (CAP_SYSLOG | CAP_SYS_ADMIN)

/* errno values, Linux's numbers */
#define EPERM 1
#define ENOENT 2
#define EFAULT 14
#define EINVAL 22
#define ENOSYS 38

/* kallsyms views (docs/security.md has the policy) */
#define KSYM_VIEW_RUNTIME 0 /* the address as it is now, shown per kptr_restrict */
#define KSYM_VIEW_UNSLID 1  /* the link-time address: the slide subtracted */

#define KSYM_NAME_BYTES 52

struct ksym {
	uint64_t addr;
	uint32_t type; /* nm's letter: T, t, D, d, R, r, B, b */
	char name[KSYM_NAME_BYTES];
};

#define SYSCTL_NAME_BYTES 40

#endif
