/*
 * i386 descriptor tables (kernel/cpu/cpu_tables.h has the design): 8-byte gates for all 256
 * vectors, the GDT and the 32-bit TSS in one page. Include kernel/cpu/cpu_tables.h.
 */
#ifndef KSLIDE_KERNEL_I386_CPU_TABLES_H
#define KSLIDE_KERNEL_I386_CPU_TABLES_H

#include <stdint.h>

#include "kernel/layout.h"
#include "kernel/smp/smp_limits.h"

#define IDT_ENTRIES 256
#define GDT_ENTRIES 6
#define SEG_FLAGS_FLAT 0xc /* 4 KiB granularity, 32-bit: a flat segment's flags nibble */
#define TRAP_STACK_BYTES 8192 /* the kernel stack of traps from ring 3 */

/* The 32-bit TSS (Intel SDM Vol. 3A, 8.2.1); only esp0, ss0 and iomap_base matter here. */
struct tss32 {
	uint32_t link, esp0, ss0, esp1, ss1, esp2, ss2, cr3, eip, eflags;
	uint32_t eax, ecx, edx, ebx, esp, ebp, esi, edi;
	uint32_t es, cs, ss, ds, fs, gs, ldt;
	uint16_t trap, iomap_base;
};

typedef uint64_t gate_t; /* SDM Vol. 3A, 6.11: a 32-bit interrupt gate */

typedef struct tss32 cpu_tss_t;

/* An application processor's own GDT and TSS (kernel/smp/smp.h), after the boot CPU's. */
struct cpu_gdt_tss {
	uint64_t gdt[GDT_ENTRIES];
	struct tss32 tss;
};

struct cpu_tables {
	gate_t idt[IDT_ENTRIES]; /* shared by every CPU */
	uint64_t gdt[GDT_ENTRIES];
	struct tss32 tss;
	struct cpu_gdt_tss ap[CPU_AP_MAX];
};

/* The page directory the kernel runs on (kernel/i386/head.S). */
extern uint32_t boot_page_dir[];

#endif
