/*
 * Booting under UEFI firmware (kslide-stat --uefi): Debian's OVMF with a private copy of its
 * variable store, and an EFI system partition that QEMU serves from a host directory (its
 * fat: driver), as tests/boot/qemu-boot.sh -E and -B build them. The image is the firmware's
 * removable-media path, \EFI\BOOT\BOOTX64.EFI, or, when it needs load options or an initrd,
 * systemd-boot is, and it starts the image by a Type #1 entry whose options are the command
 * line and whose initrd reaches the kernel through Linux's initrd device path (LoadFile2): the
 * same way for a kslide PE and for a bzImage through its own EFI stub.
 */
#ifndef KSLIDE_TOOLS_STAT_ESP_H
#define KSLIDE_TOOLS_STAT_ESP_H

#include <stdbool.h>
#include <stddef.h>

/* Debian's ovmf and systemd-boot-efi, where tests/boot/qemu-boot.sh finds them. */
#define ESP_OVMF_DIR	 "/usr/share/OVMF"
#define ESP_OVMF_CODE	 "OVMF_CODE_4M.fd"
#define ESP_OVMF_VARS	 "OVMF_VARS_4M.fd"
#define ESP_SYSTEMD_BOOT "/usr/lib/systemd/boot/efi/systemd-bootx64.efi"
/* The firmware's machine: the tests boot OVMF on q35. */
#define ESP_MACHINE "q35"

struct uefi_plan {
	char code[4096], vars[4096]; /* the firmware and the template of its variables */
	const char *boot_manager;    /* systemd-boot's EFI binary */
};

/* The firmware in 'ovmf_dir' (NULL: ESP_OVMF_DIR), and systemd-boot when 'boot_manager': 0,
 * or 1 with a message in err when a file is missing. */
int esp_plan(struct uefi_plan *u, const char *ovmf_dir, bool boot_manager, char *err,
	     size_t err_cap);

/* Whether the file at 'path' is a PE32+ image for x86-64 (an MZ header whose e_lfanew points
 * at "PE\0\0" and machine 0x8664): what OVMF can start. */
bool esp_is_x86_64_pe(const char *path);

/*
 * One boot's ESP in the new directory 'dir' and its variable store at 'vars' (a copy of the
 * template): IMAGE as BOOTX64.EFI when 'append' is empty and there is no initrd, else
 * systemd-boot with an entry for IMAGE. 0, or -1 with a message in err (what was made is
 * removed).
 */
int esp_make(const struct uefi_plan *u, const char *dir, const char *vars, const char *image,
	     const char *initrd, const char *append, char *err, size_t err_cap);

/* Remove what esp_make made, and whatever the firmware wrote there. */
void esp_remove(const char *dir, const char *vars);

/* Whether a boot with these options goes through systemd-boot (see esp_make). */
bool esp_uses_boot_manager(const char *initrd, const char *append);

#endif
