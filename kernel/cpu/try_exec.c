/* try_exec (kernel/cpu/trap.h): one call from ring 0 whose instruction fetch may fault, for
 * trap() to resume past. */
#include "kernel/cpu/trap.h"

uintptr_t try_exec_target;

#ifdef __x86_64__
#define POP_RETURN_ADDRESS "addq $8, %%rsp\n\t"
#else
#define POP_RETURN_ADDRESS "addl $4, %%esp\n\t"
#endif

/* The fetch at addr faults with the CALL's return address pushed and the saved ip at addr:
 * trap() resumes at try_exec_fixup, which drops that return address. The code at addr must
 * change no register (a RET, as the selftests use). */
__attribute__((noinline, noclone)) bool try_exec(uintptr_t addr)
{
	uint32_t ran;
	try_exec_target = addr;
	__asm__ volatile(".globl try_exec_fixup\n\t"
			 ".hidden try_exec_fixup\n\t"
			 "call *%1\n\t"
			 "movl $1, %0\n\t"
			 "jmp 1f\n"
			 "try_exec_fixup:\n\t" POP_RETURN_ADDRESS
			 "movl $0, %0\n"
			 "1:"
			 : "=&r"(ran)
			 : "r"(addr)
			 : "memory", "cc");
	try_exec_target = 0;
	return ran;
}
