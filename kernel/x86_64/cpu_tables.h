/*
 * x86-64 descriptor tables: the IDT, GDT and TSS share one page-aligned page of .bss, reached
 * by the CPU only through a read-only alias at FIXMAP_VIRT (the first page of FIXED_AREA).
 * SIDT, SGDT and the TSS base therefore show fixed addresses whatever the slide; the kernel
 * writes the TSS through the image's own mapping.
 *
 * 64-bit gates are 16 bytes, so a full IDT would fill the page alone: the IDT ends at the
 * system-call vector (its limit says so; a vector past it is a #GP, and no interrupt is ever
 * enabled).
 */
#ifndef KSLIDE_KERNEL_X86_64_CPU_TABLES_H
#define KSLIDE_KERNEL_X86_64_CPU_TABLES_H

#include <stdint.h>

#include "kernel/x86_64/layout.h"

#define SYSCALL_VECTOR 0x80
#define IDT_ENTRIES (SYSCALL_VECTOR + 1)
#define GDT_ENTRIES 7 /* null, kernel code, kernel data, user data, user code, TSS (2) */

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

struct gate64 {
	uint64_t low, high;
};

struct cpu_tables {
	struct gate64 idt[IDT_ENTRIES];
	uint64_t gdt[GDT_ENTRIES];
	struct tss64 tss;
};

/* The fixed aliases (constant: these are what user mode may learn). */
#define IDT_ALIAS (FIXMAP_VIRT + 0)
#define GDT_ALIAS (FIXMAP_VIRT + IDT_ENTRIES * 16)
#define TSS_ALIAS (GDT_ALIAS + GDT_ENTRIES * 8)

/* The writable original, in the image (kernel only). */
extern struct cpu_tables *const cpu_tables;

#endif
