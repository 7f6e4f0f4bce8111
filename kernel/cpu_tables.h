/*
 * The descriptor tables (IDT, GDT, TSS): one page-aligned page of .bss, reached by the CPU only
 * through a read-only alias at FIXMAP_VIRT, so that SIDT, SGDT and the TSS base show fixed
 * addresses whatever the slide. The layout is each arch's (kernel/<arch>/cpu_tables.h); the
 * order of loading is shared (kernel/cpu_tables.c).
 */
#ifndef KSLIDE_KERNEL_CPU_TABLES_H
#define KSLIDE_KERNEL_CPU_TABLES_H

#include <stdint.h>

#ifdef __x86_64__
#include "kernel/x86_64/cpu_tables.h"
#else
#include "kernel/i386/cpu_tables.h"
#endif

/* The writable original (kernel only). */
extern struct cpu_tables *const cpu_tables;

/* Where the CPU puts a trap from ring 3: the top of the trap stack, which the TSS names. */
uintptr_t trap_stack_top(void);

/* What each arch provides to kernel/cpu_tables.c. */
gate_t cpu_gate(uintptr_t handler, uint8_t type);
void cpu_tables_build_gdt_tss(struct cpu_tables *t);
void cpu_load_segments(void); /* CS, then the data segments, from the GDT just loaded */
void cpu_tables_map_alias(uint64_t tables_phys); /* read-only, supervisor, at FIXMAP_VIRT */
uintptr_t tss_descriptor_base(const struct cpu_tables *t);

#endif
