/* Who a process is to the kernel: the capabilities it holds (kernel/proc/uapi.h CAP_*). */
#ifndef KSLIDE_KERNEL_PROC_CRED_H
#define KSLIDE_KERNEL_PROC_CRED_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/proc/uapi.h"

struct cred {
	uint32_t caps;
};

/* NULL (no process: kernel work on nobody's behalf) holds nothing. */
static inline bool capable(const struct cred *c, uint32_t cap)
{
	return c && (c->caps & cap) == cap;
}

#endif
