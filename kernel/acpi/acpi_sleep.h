/*
 * What ACPI says about sleeping in S3 (ACPI 6.5, chapters 4.8, 5.2.9, 5.2.10, 7.4 and 16):
 * the PM1 control and status registers from the FADT, the sleep type values SLP_TYPa/b from
 * the DSDT's \_S3 package, and the FACS, whose firmware waking vector tells the firmware
 * where to jump, in real mode, when the machine wakes. Tables come through kernel/acpi/acpi.h.
 *
 * The DSDT's AML is scanned, not interpreted (kernel/acpi/acpi_aml.h, which says what it finds).
 */
#ifndef KSLIDE_KERNEL_ACPI_ACPI_SLEEP_H
#define KSLIDE_KERNEL_ACPI_ACPI_SLEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct acpi_sleep {
	uint64_t fadt, dsdt, facs;        /* physical */
	uint8_t *facs_mapped;		  /* the FACS, where kernel/mm/phys_map.h mapped it */
	uint16_t pm1a_evt, pm1b_evt;      /* PM1 event blocks (status, then enable): I/O ports */
	uint16_t pm1a_cnt, pm1b_cnt;      /* PM1 control: I/O ports; the b ones 0 when absent */
	uint8_t slp_typ_a, slp_typ_b;     /* \_S3's first two elements */
};

/* Fills *out; NULL, or a sentence saying what is missing (nothing is written then). */
const char *acpi_sleep_find(struct acpi_sleep *out);

/* The FACS's 32-bit firmware waking vector: where the firmware jumps in real mode on waking
 * (CS = vector >> 4, IP = vector & 0xf); the 64-bit one is cleared, so firmware that knows it
 * does not prefer it. 0 means no vector: the firmware boots afresh. */
void acpi_sleep_set_waking_vector(const struct acpi_sleep *s, uint32_t phys);
uint32_t acpi_sleep_waking_vector(const struct acpi_sleep *s);
/* The FACS hardware signature: firmware changes it when the hardware changed while asleep. */
uint32_t acpi_sleep_hardware_signature(const struct acpi_sleep *s);

/* Clears WAK_STS, writes SLP_TYP, flushes the caches and sets SLP_EN in PM1a (and PM1b).
 * On a machine that sleeps the CPU loses its context here and this never returns; it
 * returns false when WAK_STS did not come up within a few seconds (the machine ignored the
 * request), true when it did without a reset (a sleep state that keeps the CPU's context). */
bool acpi_sleep_enter(const struct acpi_sleep *s);
/* After the wake: true when PM1a status says the machine woke from a sleep state (WAK_STS),
 * which is then cleared; false too when nothing answers at the port (all ones). */
bool acpi_sleep_woke(const struct acpi_sleep *s);

#endif
