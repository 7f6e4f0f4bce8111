/*
 * The descriptor tables (IDT, GDT, TSS): the entry area's first page (kernel/secrecy/entry_area.h),
 * written by the kernel through the direct map and read by the CPU only through the area's
 * read-only alias, so that SIDT, SGDT and STR show nothing tied to the image. The layout is
 * each arch's (kernel/<arch>/cpu_tables.h); the order of loading is shared
 * (kernel/cpu/cpu_tables.c).
 */
#ifndef KSLIDE_KERNEL_CPU_CPU_TABLES_H
#define KSLIDE_KERNEL_CPU_CPU_TABLES_H

#include <stdint.h>

#include "kernel/secrecy/entry_area.h"

#ifdef __x86_64__
#include "kernel/x86_64/cpu_tables.h"
#else
#include "kernel/i386/cpu_tables.h"
#endif

/* The writable original, at its direct-map address (kernel only). */
extern struct cpu_tables *cpu_tables;

/* Where the CPU sees them: in the entry area. */
uintptr_t cpu_idt_alias(void);
uintptr_t cpu_gdt_alias(void);
uintptr_t cpu_tss_alias(void);

/* Application processor ap (0 .. CPU_AP_MAX - 1) takes its own GDT and TSS and the shared
 * IDT, all through the alias, by the boot CPU's path; it sets CR4.UMIP when it has UMIP. */
void cpu_ap_load(unsigned ap);
uintptr_t cpu_ap_gdt_alias(unsigned ap);

/* The boot CPU woken from S3 (kernel/acpi/suspend.c), on the kernel's root with its control
 * registers back: it takes its GDT, TSS and the IDT again through the aliases, as at boot,
 * with CR4.UMIP when it has UMIP. */
void cpu_boot_resume(void);

/* CPUs by number: 0 is the boot CPU, 1 + ap application processor ap. Each has its own
 * entry_percpu (what its stubs and traps use) and its own slice of the entry stack page, whose
 * top its TSS names. */
struct entry_percpu *cpu_entry_percpu(unsigned cpu);
uintptr_t cpu_entry_stack_top(unsigned cpu);
uintptr_t cpu_gdt_alias_of(unsigned cpu); /* what SGDT shows on it */

/* The kernel stack a trap from ring 3 is moved to on this CPU (kernel/<arch>/vectors.S). */
uintptr_t trap_stack_top(void);

/* What each arch provides to kernel/cpu/cpu_tables.c. */
gate_t cpu_gate(uintptr_t handler, uint8_t type);
uintptr_t cpu_gate_handler(gate_t gate);
uintptr_t cpu_tss_ring0_stack(const struct cpu_tables *t); /* and 0 if any other stack is set */
/* The GDT's flat segments and TSS descriptor, and the TSS with its ring-0 stack. */
void cpu_tables_build_gdt_tss(uint64_t *gdt, cpu_tss_t *tss, uintptr_t tss_alias,
			      uintptr_t stack_top);
void cpu_load_segments(void); /* CS, then the data segments, from the GDT just loaded */
void cpu_tss_descriptor_clear(uint64_t *gdt);
/* Put the one value the stubs need, the CPU's entry_percpu, into the register they read it
 * from (x86-64: the GS base; i386: DR0), never into memory the entry area leads to; and read
 * it back, in the kernel. */
void cpu_entry_register_init(const struct entry_percpu *percpu);
struct entry_percpu *cpu_entry_register_read(void);

#endif
