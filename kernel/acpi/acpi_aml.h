/*
 * The SLP_TYP values of a sleep state from AML (ACPI 6.5, 7.4.2), without an interpreter: the
 * bytes are scanned for a Name (NameOp) called _Sn_, with or without the root prefix, whose
 * value is a package of at least two elements, the first two integer constants (ZeroOp,
 * OneOp, or a byte, word, dword or qword prefix) of at most 7. That is how firmware writes it
 * (QEMU's `Name (\_S3, Package (0x04) {One, One, Zero, Zero})`, SeaBIOS's, most PCs'); a
 * \_Sn in an SSDT, inside an If, as a method or computed at run time is not found.
 *
 * Pure: bytes in, values out (host unit test: tests/unit/test_acpi_aml.c).
 */
#ifndef KSLIDE_KERNEL_ACPI_ACPI_AML_H
#define KSLIDE_KERNEL_ACPI_ACPI_AML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Scans aml[0, len) (a DSDT's body, after its header) for Name(_Sn_, Package() {a, b, ...})
 * with n = state (0..5); true with SLP_TYPa in *a and SLP_TYPb in *b when found. */
bool acpi_aml_sleep_type(const uint8_t *aml, size_t len, unsigned state, uint8_t *a, uint8_t *b);

#endif
