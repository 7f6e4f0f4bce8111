/*
 * The Multiboot 2 information GRUB's multiboot2 gives an x86-64 kernel on UEFI after it has
 * left the firmware (grub-core/loader/multiboot_mbi2.c, GRUB_MACHINE_EFI, boot services
 * exited), built from what the stub's UEFI way in learned (boot/loader_uefi.c), for a
 * Multiboot kernel packed --format efi.
 */
#ifndef KSLIDE_BOOT_MULTIBOOT2_UEFI_H
#define KSLIDE_BOOT_MULTIBOOT2_UEFI_H

#include <stdint.h>

#include "boot/bootenv.h"
#include "boot/mapping.h"

/*
 * Build in memory from lend (below 4 GiB, 8-byte aligned) the Multiboot 2 information for
 * env, filled by the UEFI way in after ExitBootServices (env->efi_memmap set), for a kernel
 * at physical base kernel_phys, tags in GRUB's order, each 8-byte aligned:
 *
 *   image load base (21) kernel_phys (GRUB gives it to every kernel, relocatable or not)
 *   cmdline (1)          env->cmdline as it is now (the stub's words already taken off), or ""
 *   boot loader name (2) env->loader_name
 *   module (3)           one per env module: start, end, its string or ""
 *   mmap (6)             env's map, 24-byte entries (kslide's types are Multiboot's numbers)
 *   basic meminfo (4)    KiB of the usable entry from 0 (at most 640) and of the one from 1 MiB
 *   EFI 64-bit system table (12)   env->efi_system_table
 *   ACPI old (14)        the RSDP's first 20 bytes (its ACPI 1.0 part), when there is one
 *   ACPI new (15)        the whole RSDP, when its revision is 2 or more
 *   EFI memory map (17)  descriptor size, version, then ExitBootServices' map as it is
 *   end (0)
 *
 * KS_OK with *out its address, or an error with *why.
 */
int multiboot2_from_uefi(const struct boot_env *env, uint64_t kernel_phys, memory_lender lend,
			 uint64_t *out, const char **why);

#endif
