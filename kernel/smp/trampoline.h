/*
 * The AP trampoline (kernel/<arch>/trampoline.S): real-mode code that an application processor
 * runs from its start-up IPI, copied to a page below 1 MiB, with the data the boot CPU fills in
 * at TRAMPOLINE_DATA_OFFSET. It takes the CPU to protected mode (and on x86-64 to long mode
 * on a temporary root that maps the trampoline one to one and the kernel's upper half), loads
 * the stack and jumps to entry(cpu) in the kernel. Everything it needs is in the page, found
 * from CS at the start (the page's physical address is CS * 16), so the copy runs anywhere.
 *
 * Safe to include from assembly.
 */
#ifndef KSLIDE_KERNEL_SMP_TRAMPOLINE_H
#define KSLIDE_KERNEL_SMP_TRAMPOLINE_H

/* Offsets inside struct trampoline_data (checked against it in kernel/smp/smp.c). */
#define TD_GDT_PTR 0  /* limit (2 bytes), base (4): the trampoline's own GDT, physical */
#define TD_FAR32 8    /* offset (4), selector (2): the 32-bit code, physical */
#define TD_FAR64 16   /* the same for the 64-bit code (x86-64) */
#define TD_CR3 24     /* the root the trampoline turns paging on with, below 4 GiB */
#define TD_EFER 28    /* x86-64: EFER before paging (LME, and NXE when the kernel uses it) */
#define TD_ENTRY 32   /* the kernel's entry(cpu), virtual */
#define TD_STACK 40   /* the stack top entry starts on, virtual */
#define TD_CPU 48     /* the argument */
#define TD_GDT 56     /* the GDT: null, 32-bit code, data, 64-bit code */
#define TD_BYTES (TD_GDT + 4 * 8)

/* Where it may go: page aligned in [TRAMPOLINE_MIN, TRAMPOLINE_MAX), real mode's reach and a
 * start-up IPI's (a page number below 256), clear of the real-mode interrupt table. */
#define TRAMPOLINE_MIN 0x1000
#define TRAMPOLINE_MAX 0x100000

#define TRAMPOLINE_CS32 0x08
#define TRAMPOLINE_DS 0x10
#define TRAMPOLINE_CS64 0x18

#define CR0_PE 0x00000001
#define CR4_PAE 0x00000020
#define MSR_EFER 0xc0000080

#ifndef __ASSEMBLER__
#include <stdint.h>

struct __attribute__((packed)) trampoline_data {
	uint16_t gdt_limit;
	uint32_t gdt_base;
	uint16_t pad0;
	uint32_t far32_offset;
	uint16_t far32_selector, pad1;
	uint32_t far64_offset;
	uint16_t far64_selector, pad2;
	uint32_t cr3;
	uint32_t efer;
	uint64_t entry;
	uint64_t stack;
	uint32_t cpu, pad3;
	uint64_t gdt[4];
};

/* kernel/<arch>/trampoline.S; hidden, so that a PIE takes their addresses RIP-relative. */
extern __attribute__((visibility("hidden"))) const uint8_t trampoline_start[], trampoline_end[],
	trampoline_data[], trampoline_pm32[], trampoline_lm64[];

/* kernel/smp/trampoline.c, for every start through the trampoline (an AP's, kernel/smp/smp.c; the
 * boot CPU's wake from S3, kernel/acpi/suspend.c). The trampoline page and, after it, the scratch
 * pages for the temporary root: how many, in all. */
unsigned trampoline_pages(void);
/* Copies the trampoline to phys (page aligned, below 1 MiB, trampoline_pages() free pages),
 * fills in its GDT, far pointers, root (arch_trampoline_root) and EFER, and sets it to jump
 * to entry; returns its data for the caller's stack and cpu. */
struct trampoline_data *trampoline_place(uint64_t phys, uintptr_t entry);
/* Drops the temporary root and zeroes every page again: nothing of the kernel (its entry, a
 * stack, page tables) stays in low memory between starts. */
void trampoline_remove(uint64_t phys);
#endif

#endif
