/*
 * Suspend to RAM (ACPI S3) and resume. The APs are taken offline (kernel/smp/smp.h); the boot CPU
 * saves what the reset on waking loses (kernel/acpi/wakeup.h), puts the trampoline below 1 MiB
 * with the kernel's wake entry, points the FACS waking vector at it and sleeps
 * (kernel/acpi/acpi_sleep.h). On waking the firmware jumps to the vector in real mode; the
 * trampoline brings the boot CPU back to the kernel's mode, wake_entry to its root, stack and
 * control registers, and the boot CPU takes its tables through the aliases as at boot
 * (kernel/cpu/cpu_tables.h). Then the trampoline is wiped, the vector cleared, and every AP that
 * was online is started again by the bring-up path. docs/security.md has the design.
 */
#ifndef KSLIDE_KERNEL_ACPI_SUSPEND_H
#define KSLIDE_KERNEL_ACPI_SUSPEND_H

#include <stdbool.h>
#include <stdint.h>

#include "include/kslide/bootinfo.h"
#include "kernel/acpi/acpi_sleep.h"

/* What one cycle did, for the selftest (kernel/selftest/suspend.c). */
struct suspend_cycle {
	struct acpi_sleep acpi;
	uint64_t trampoline_phys;
	unsigned aps_offline, aps_back; /* taken offline before, online again after */
	unsigned ap_restarts;           /* starts that timed out and were tried again */
	bool woke_by_acpi;              /* PM1 status said WAK_STS after the wake */
	uint32_t signature_before, signature_after; /* the FACS hardware signature */
	unsigned pci_functions, pci_restored; /* functions saved, registers written back */
};

/* Sleeps in S3 and returns once the machine woke and every CPU is back: NULL, or why it did
 * not sleep (nothing left changed then) or what failed on the way back. */
const char *suspend_to_ram(const struct kslide_bootinfo *bi, struct suspend_cycle *out);

#endif
