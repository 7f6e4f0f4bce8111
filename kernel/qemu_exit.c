/* isa-debug-exit at iobase 0xf4 (-device isa-debug-exit,iobase=0xf4,iosize=0x04). */
#include "arch/x86/x86.h"
#include "kernel/qemu_exit.h"

#define DEBUG_EXIT_PORT 0xf4

void qemu_exit(unsigned code)
{
	outl(DEBUG_EXIT_PORT, code);
	/* Without the device (real hardware, other emulators) there is nothing left to do. */
	halt_forever();
}
