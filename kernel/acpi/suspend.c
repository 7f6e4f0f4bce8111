/* kernel/acpi/suspend.h: one S3 cycle, from taking the APs offline to starting them again. */
#include <stddef.h>

#include "kernel/acpi/pci_state.h"
#include "kernel/acpi/suspend.h"
#include "kernel/acpi/wakeup.h"
#include "kernel/cpu/cpu_tables.h"
#include "kernel/mm/frames.h"
#include "kernel/smp/smp.h"
#include "kernel/smp/trampoline.h"

/* wake_entry only loads the saved stack pointer: a few words for the trampoline's pushes. */
#define WAKE_STACK_BYTES 64
#define AP_START_ATTEMPTS 3

struct wake_context wake_context;
static uint8_t wake_stack[WAKE_STACK_BYTES] __attribute__((aligned(16)));
/* Static, not on the stack: wake_save returns twice, and what lies in registers between the
 * two returns is not kept. */
static struct suspend_cycle cycle;
static bool ap_was_online[CPU_AP_MAX];

static void aps_offline(void)
{
	const struct smp_state *s = smp_state();
	for (unsigned ap = 0; ap < s->aps_wanted; ap++) {
		ap_was_online[ap] = s->ap[ap].started;
		if (ap_was_online[ap]) {
			smp_cpu_offline(ap);
			cycle.aps_offline++;
		}
	}
}

/* The reset that woke the machine put every AP in wait-for-SIPI, as INIT does. An AP that
 * does not check in within smp_cpu_online's wait gets the whole sequence again, INIT first
 * (which also stops it if it came late, into the wiped page): after a wake that happens
 * under TCG on a loaded host (docs/security.md, "Suspend to RAM"). */
static void aps_online(void)
{
	smp_boot_cpu_resume();
	for (unsigned ap = 0; ap < smp_state()->aps_wanted; ap++) {
		if (!ap_was_online[ap])
			continue;
		for (unsigned attempt = 0; attempt < AP_START_ATTEMPTS; attempt++) {
			if (smp_cpu_online(ap)) {
				cycle.aps_back++;
				break;
			}
			cycle.ap_restarts++;
		}
	}
}

const char *suspend_to_ram(const struct kslide_bootinfo *bi, struct suspend_cycle *out)
{
	cycle = (struct suspend_cycle){ 0 };
	const char *why = acpi_sleep_find(&cycle.acpi);
	if (why)
		return why;
	cycle.trampoline_phys =
		frames_low_free(bi, TRAMPOLINE_MIN, TRAMPOLINE_MAX, trampoline_pages());
	if (!cycle.trampoline_phys)
		return "no free page below 1 MiB for the wake-up trampoline";
	cycle.signature_before = acpi_sleep_hardware_signature(&cycle.acpi);
	cycle.pci_functions = pci_state_save();
	aps_offline();

	if (wake_save() == 0) {
		struct trampoline_data *d =
			trampoline_place(cycle.trampoline_phys, (uintptr_t)wake_entry);
		d->stack = (uintptr_t)(wake_stack + WAKE_STACK_BYTES);
		acpi_sleep_set_waking_vector(&cycle.acpi, (uint32_t)cycle.trampoline_phys);
		bool woke = acpi_sleep_enter(&cycle.acpi);
		/* Still here: the machine did not sleep, or slept without losing the CPU. */
		acpi_sleep_set_waking_vector(&cycle.acpi, 0);
		trampoline_remove(cycle.trampoline_phys);
		aps_online();
		*out = cycle;
		return woke ? "the machine woke without a reset: not S3"
			    : "the machine did not sleep (WAK_STS never set)";
	}

	/* Woken: back in the kernel's mode, root and stack, on no table of its own yet. */
	cpu_boot_resume();
	cycle.pci_restored = pci_state_restore();
	trampoline_remove(cycle.trampoline_phys);
	acpi_sleep_set_waking_vector(&cycle.acpi, 0);
	cycle.woke_by_acpi = acpi_sleep_woke(&cycle.acpi);
	cycle.signature_after = acpi_sleep_hardware_signature(&cycle.acpi);
	aps_online();
	*out = cycle;
	return NULL;
}
