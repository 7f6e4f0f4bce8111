/* What the reference kernel tells the host about the machine it landed on. */
#ifndef KSLIDE_KERNEL_REPORT_H
#define KSLIDE_KERNEL_REPORT_H

#include "include/kslide/bootinfo.h"

/*
 * "kernel: usable=0x0-0x9fc00,0x100000-0x3ffe0000": the usable RAM of the memory map the stub
 * handed over, each range [start-end). kslide-stat recounts the slots from it.
 */
void report_usable_memory(const struct kslide_bootinfo *bi);

#endif
