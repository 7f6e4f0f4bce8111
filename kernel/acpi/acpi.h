/*
 * Finding the CPUs from ACPI (ACPI 6.5, chapter 5): the RSDP in the BIOS areas, the RSDT or
 * XSDT it leads to, and the MADT's local APIC entries. Every table is checksummed before use;
 * a table that fails is ignored, as if absent.
 */
#ifndef KSLIDE_KERNEL_ACPI_ACPI_H
#define KSLIDE_KERNEL_ACPI_ACPI_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/smp/smp_limits.h"

/* The most CPUs the kernel starts; more in the MADT are counted but left in reset. */
#define ACPI_CPU_MAX CPU_MAX

struct acpi_cpus {
	uint64_t rsdp;             /* physical, 0 when none was found */
	uint64_t madt;             /* physical, 0 when none was found */
	uint32_t lapic_phys;       /* the local APIC's MMIO base the MADT names */
	unsigned count;            /* usable CPUs listed, may exceed ACPI_CPU_MAX */
	uint32_t apic_id[ACPI_CPU_MAX]; /* in MADT order; the boot CPU is among them */
};

/* Reads the tables into *out; false when there is no valid RSDP or no valid MADT. Tables are
 * reached through kernel/mm/phys_map.h, wherever in the first 4 GiB (i386) the firmware put them.
 */
bool acpi_find_cpus(struct acpi_cpus *out);

/* The physical address of the first table with this 4-byte signature the root table lists,
 * checksum valid; 0 when there is none (kernel/acpi/acpi_sleep.c looks for the FADT). */
uint64_t acpi_table_find(const char *signature);
/* The table at phys, mapped for as long as the kernel runs (kernel/mm/phys_map.h), when its
 * header and checksum are valid; NULL otherwise (for tables the root does not list, such as
 * the DSDT). */
const void *acpi_table_checked(uint64_t phys);
#define ACPI_HEADER_BYTES 36

#endif
