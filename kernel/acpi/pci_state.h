/*
 * The configuration of the PCI functions on bus 0, kept across S3 (kernel/acpi/suspend.h). The
 * wake is a reset: every function comes back with its reset configuration, and the firmware
 * programs again only part of what it set at boot. SeaBIOS sets the PIIX4 power-management
 * function's I/O base again on `pc`, but on `q35` leaves the ICH9 LPC bridge's PMBASE and
 * ACPI control at their reset values, so the PM1 registers the kernel sleeps through are gone
 * (they read as all ones). An OS's drivers restore their devices; this kernel has none, so it
 * restores every function as it found it before sleeping, as Linux's PCI core does for the
 * standard header, and the device-specific part (offsets 0x40 and up) too.
 *
 * Configuration mechanism #1 (I/O ports 0xcf8 and 0xcfc, PCI Local Bus 3.0, 3.2.2.3.2).
 */
#ifndef KSLIDE_KERNEL_ACPI_PCI_STATE_H
#define KSLIDE_KERNEL_ACPI_PCI_STATE_H

/* Reads every present function's configuration space (256 bytes); how many functions. */
unsigned pci_state_save(void);
/* Writes back each saved register (the base address registers on, then the command
 * register) whose value the reset changed; how many it wrote. */
unsigned pci_state_restore(void);

#endif
