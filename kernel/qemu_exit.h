/* Ending a QEMU run with a verdict through the isa-debug-exit device. */
#ifndef KSLIDE_KERNEL_QEMU_EXIT_H
#define KSLIDE_KERNEL_QEMU_EXIT_H

/* QEMU exits with status (code << 1) | 1: pass (0) gives 1, fail (1) gives 3. */
#define QEMU_EXIT_PASS 0
#define QEMU_EXIT_FAIL 1

__attribute__((noreturn)) void qemu_exit(unsigned code);

#endif
