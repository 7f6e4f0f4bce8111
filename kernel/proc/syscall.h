/* System-call dispatch: the arch's trap handler passes the number and three arguments. */
#ifndef KSLIDE_KERNEL_PROC_SYSCALL_H
#define KSLIDE_KERNEL_PROC_SYSCALL_H

#include <stdint.h>

long syscall_dispatch(unsigned nr, uintptr_t a0, uintptr_t a1, uintptr_t a2);

/* A selftest's look at every system call as it returns to ring 3, in the process's context
 * (its page tables still live): the number and the result. NULL stops it. */
typedef void (*syscall_observer_fn)(void *ctx, unsigned nr, long result);
void syscall_observe(syscall_observer_fn fn, void *ctx);

#endif
