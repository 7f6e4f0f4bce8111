/*
 * Starting the application processors (APs) the MADT lists (kernel/acpi/acpi.h): INIT, then two
 * start-up IPIs through the xAPIC (Intel SDM Vol. 3A, 8.4.4) to a trampoline below 1 MiB
 * (kernel/smp/trampoline.h), one AP at a time. Each AP takes its own GDT and TSS and the shared
 * IDT, all through the entry area's read-only alias, by the boot CPU's cpu_load()
 * (kernel/cpu/cpu_tables.c), reports what SIDT, SGDT, SLDT and STR show it, and waits for work
 * (interrupts off, HLT; kernel/smp/smp_call.c) until it is taken offline (INIT) or the machine
 * ends. The trampoline is wiped once every AP has started.
 */
#ifndef KSLIDE_KERNEL_SMP_SMP_H
#define KSLIDE_KERNEL_SMP_SMP_H

#include <stdbool.h>
#include <stdint.h>

#include "include/kslide/bootinfo.h"
#include "kernel/acpi/acpi.h"
#include "kernel/smp/smp_limits.h"

/* What an AP saw once it had taken its tables, in ring 0. */
struct smp_ap_view {
	bool started;
	uint32_t apic_id;
	uintptr_t idt_base, gdt_base;
	uint16_t idt_limit, gdt_limit, ldt, tr;
	bool has_umip, umip_on;
	bool has_smep, has_smap; /* what CPUID says */
	uintptr_t cr0, cr4;
};

struct smp_state {
	bool acpi_ok;
	struct acpi_cpus cpus;
	uint32_t boot_apic_id;
	uintptr_t boot_cr0;
	unsigned aps_wanted, aps_started;
	uint64_t trampoline_phys; /* 0 when no AP was started */
	unsigned trampoline_pages;
	struct smp_ap_view ap[CPU_AP_MAX];
};

/* Finds the CPUs and starts every AP the kernel has room for (at most CPU_AP_MAX); after
 * arch_cpu_init. Does nothing more than read the tables on a machine with one CPU. */
void smp_init(const struct kslide_bootinfo *bi);
const struct smp_state *smp_state(void);
/* CPU hotplug, in the guest: take AP ap (0 .. aps_wanted - 1) offline (INIT: it stops using
 * every table and waits for a start-up IPI), and bring it online through the same path as at
 * boot; true when it checked in. */
void smp_cpu_offline(unsigned ap);
bool smp_cpu_online(unsigned ap);
/* After a wake from S3 (kernel/acpi/suspend.c), before any AP starts again: the boot CPU's local
 * APIC enabled once more (the reset disabled it), as smp_init left it. */
void smp_boot_cpu_resume(void);
/* True when every trampoline page is zero again. */
bool smp_trampoline_wiped(void);
/* An NMI to the CPU with this local APIC ID: how smp_call wakes a halted CPU. */
void smp_nmi(uint32_t apic_id);
uint32_t smp_ap_apic_id(unsigned ap);
/* One turn of a loop waiting for another CPU. Not PAUSE: under QEMU's TCG each PAUSE leaves
 * the translated code and takes the global lock that the awaited vCPU needs to wake or to do
 * I/O, and a CPU spinning on it makes the other's every step wait. */
static inline void smp_spin(void)
{
	__asm__ volatile("" : : : "memory");
}

/* Waits until *word holds value (true), or about cycles TSC cycles passed (false). */
bool smp_wait_for(const unsigned *word, unsigned value, uint64_t cycles);

/* kernel/<arch>/smp.c: the local APIC's registers, mapped uncached for the kernel only. */
volatile uint32_t *arch_lapic_map(uint32_t phys);
/* The root the trampoline turns paging on with (below 4 GiB, mapping the trampoline page one
 * to one and the kernel), built in the scratch pages given (x86-64 needs 3; i386 none: it
 * maps the low 4 MiB in the kernel's own directory until arch_trampoline_root_drop). */
#define TRAMPOLINE_ROOT_PAGES_MAX 3
unsigned arch_trampoline_root_pages(void);
uint32_t arch_trampoline_root(uint64_t scratch_phys);
void arch_trampoline_root_drop(void);
/* What the trampoline writes to EFER before paging (x86-64), 0 on i386. */
uint32_t arch_trampoline_efer(void);
/* The first thing an AP does in the kernel: on the kernel's root, with its control registers
 * as the boot CPU's (without UMIP, which cpu_load sets). */
void arch_ap_enter(void);

#endif
