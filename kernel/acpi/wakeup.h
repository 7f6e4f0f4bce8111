/*
 * The boot CPU's way back from S3 (kernel/acpi/suspend.c), the part only assembly can do
 * (kernel/<arch>/wakeup.S):
 *
 *   wake_save()   saves in wake_context the stack pointer, the return address, the
 *                 callee-saved registers and the control registers the kernel set (CR0, CR3;
 *                 on x86-64 CR4 without UMIP, and EFER), and returns 0, like setjmp;
 *   wake_entry    is where the trampoline (kernel/smp/trampoline.h) jumps once the firmware hands
 *                 the woken machine back: in the kernel's mode, on the trampoline's root and
 *                 wake_stack, its control registers as a reset and the trampoline left them.
 *                 It puts back what wake_save saved and returns 1 from wake_save, like
 *                 longjmp.
 *
 * The descriptor tables, CR4.UMIP and the per-CPU register are C's to restore after that, by
 * the path every CPU takes them (kernel/cpu/cpu_tables.h). Safe to include from assembly.
 */
#ifndef KSLIDE_KERNEL_ACPI_WAKEUP_H
#define KSLIDE_KERNEL_ACPI_WAKEUP_H

/* Word offsets in wake_context. */
#define WC_SP 0
#define WC_IP 1
#define WC_CR0 2
#define WC_CR3 3
#define WC_CR4 4   /* x86-64 */
#define WC_EFER 5  /* x86-64 */
#define WC_SAVED 6 /* i386: EBX ESI EDI EBP; x86-64: RBX RBP R12 R13 R14 R15 */
#define WC_WORDS 12

#ifdef __x86_64__
#define WC(n) ((n) * 8)
#else
#define WC(n) ((n) * 4)
#endif

#ifndef __ASSEMBLER__
#include <stdint.h>

struct wake_context {
	uintptr_t word[WC_WORDS];
};

/* Hidden, so that a PIE reaches them RIP-relative. */
extern __attribute__((visibility("hidden"))) struct wake_context wake_context;
__attribute__((visibility("hidden"), returns_twice)) int wake_save(void);
__attribute__((visibility("hidden"))) void wake_entry(unsigned unused);
#endif

#endif
