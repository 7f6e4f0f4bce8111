/*
 * x86-64 descriptor tables (kernel/cpu/cpu_tables.h has the design) in long mode's formats.
 * Include kernel/cpu/cpu_tables.h.
 *
 * 64-bit gates are 16 bytes, so a full IDT would fill the page alone: the IDT ends at the
 * system-call vector (its limit says so; a vector past it is a #GP, and no interrupt is ever
 * enabled).
 */
#ifndef KSLIDE_KERNEL_X86_64_CPU_TABLES_H
#define KSLIDE_KERNEL_X86_64_CPU_TABLES_H

#include <stdint.h>

#include "kernel/cpu/trap.h"
#include "kernel/layout.h"
#include "kernel/smp/smp_limits.h"

#define IDT_ENTRIES (T_SYSCALL + 1)
#define GDT_ENTRIES 7 /* null, kernel code, kernel data, user data, user code, TSS (2) */
#define TRAP_STACK_BYTES 16384 /* the kernel stack of traps from ring 3 */

/* The 64-bit TSS (Intel SDM Vol. 3A, 8.7); only rsp0 and iomap_base matter here. */
struct __attribute__((packed)) tss64 {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3, iomap_base;
};
_Static_assert(sizeof(struct tss64) == 104, "64-bit TSS layout");

/* SDM Vol. 3A, 6.14.1: a 64-bit interrupt gate, the offset's high half in the second word. */
typedef struct {
	uint64_t low, high;
} gate_t;

typedef struct tss64 cpu_tss_t;

/* An application processor's own GDT and TSS (kernel/smp/smp.h), after the boot CPU's. */
struct cpu_gdt_tss {
	uint64_t gdt[GDT_ENTRIES];
	struct tss64 tss;
};

struct cpu_tables {
	gate_t idt[IDT_ENTRIES]; /* shared by every CPU */
	uint64_t gdt[GDT_ENTRIES];
	struct tss64 tss;
	struct cpu_gdt_tss ap[CPU_AP_MAX];
};

#endif
