/* try_write32 and try_read32 (kernel/cpu/trap.h): one store or load with a known address, for
 * trap() to resume past. */
#include "kernel/cpu/trap.h"

/* Never inlined or cloned: the two labels must exist once. */
__attribute__((noinline, noclone)) bool try_write32(uintptr_t addr, uint32_t value)
{
	uint32_t stored;
	__asm__ volatile(".globl try_write32_store, try_write32_fixup\n\t"
			 ".hidden try_write32_store, try_write32_fixup\n"
			 "try_write32_store:\n\t"
			 "movl %2, (%1)\n\t"
			 "movl $1, %0\n\t"
			 "jmp 1f\n"
			 "try_write32_fixup:\n\t"
			 "movl $0, %0\n"
			 "1:"
			 : "=&r"(stored)
			 : "r"(addr), "r"(value)
			 : "memory");
	return stored;
}

__attribute__((noinline, noclone)) bool try_read32(uintptr_t addr, uint32_t *value)
{
	uint32_t loaded, v = 0;
	__asm__ volatile(".globl try_read32_load, try_read32_fixup\n\t"
			 ".hidden try_read32_load, try_read32_fixup\n"
			 "try_read32_load:\n\t"
			 "movl (%2), %1\n\t"
			 "movl $1, %0\n\t"
			 "jmp 1f\n"
			 "try_read32_fixup:\n\t"
			 "movl $0, %0\n"
			 "1:"
			 : "=&r"(loaded), "+r"(v)
			 : "r"(addr)
			 : "memory");
	*value = v;
	return loaded;
}
