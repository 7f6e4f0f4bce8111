/* The real hardware behind lib/arch.h, for code running on an x86 CPU. */
#ifndef KSLIDE_ARCH_X86_ARCH_OPS_H
#define KSLIDE_ARCH_X86_ARCH_OPS_H

#include "lib/arch.h"

extern const struct arch_ops x86_arch_ops;

#endif
