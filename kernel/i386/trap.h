/* The i386 trap frame, as kernel/i386/vectors.S builds it (lowest address first). */
#ifndef KSLIDE_KERNEL_I386_TRAP_H
#define KSLIDE_KERNEL_I386_TRAP_H

#include <stdbool.h>
#include <stdint.h>

#define T_PAGE_FAULT 14
#define T_GENERAL_PROTECTION 13
#define T_SYSCALL 0x80

struct trapframe {
	uint32_t edi, esi, ebp, esp_ignored, ebx, edx, ecx, eax; /* pushal */
	uint32_t gs, fs, es, ds;
	uint32_t trapno, err;
	uint32_t eip, cs, eflags; /* pushed by the CPU */
	uint32_t esp, ss;         /* and these only when coming from ring 3 */
};

void trap(struct trapframe *tf);

/* kernel/i386/try_write.S */
bool try_write32(uintptr_t addr, uint32_t value);
void try_write32_store(void), try_write32_fixup(void);
int user_enter(struct trapframe *tf);

#endif
