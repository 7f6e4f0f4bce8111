/* System-call dispatch: the arch's trap handler passes the number and three arguments. */
#ifndef KSLIDE_KERNEL_SYSCALL_H
#define KSLIDE_KERNEL_SYSCALL_H

#include <stdint.h>

long syscall_dispatch(unsigned nr, uintptr_t a0, uintptr_t a1, uintptr_t a2);

#endif
