/* The reference kernel's memory layout, per architecture. */
#ifndef KSLIDE_KERNEL_LAYOUT_H
#define KSLIDE_KERNEL_LAYOUT_H

#ifdef __x86_64__
#include "kernel/x86_64/layout.h"
#else
#include "kernel/i386/layout.h"
#endif

#endif
