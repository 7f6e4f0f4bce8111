/*
 * What the stub learned from its boot loader, in one loader-neutral form: the memory map,
 * the command line, the modules, and every range of memory that must survive the kernel's
 * move. Protocol parsers (multiboot1.c, multiboot2.c) fill it; policy (stub.c) reads it.
 */
#ifndef KSLIDE_BOOT_BOOTENV_H
#define KSLIDE_BOOT_BOOTENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "include/kslide/bootinfo.h"
#include "lib/slots.h"

#define BOOTENV_MAP_MAX 256    /* memory map entries kept; more are dropped (and reported) */
#define BOOTENV_MODULES_MAX 32 /* more modules is an error: we could not protect them */
/* Per module: its bytes and its command line; plus the loader's own structures. */
#define BOOTENV_AVOID_MAX (2 * BOOTENV_MODULES_MAX + 16)

/*
 * Reads physical memory: returns a pointer to len readable bytes at addr, or NULL when the
 * range is not readable. The stub maps physical addresses one to one; tests and fuzzers
 * serve a buffer.
 */
struct phys_reader {
	const void *(*read)(void *ctx, uint64_t addr, uint64_t len);
	void *ctx;
};

struct boot_env {
	/* As the Multiboot loader left them in EAX and EBX (struct boot_entry's magic and info),
	 * for a handoff that passes them on. */
	uint32_t loader_magic;
	uint32_t loader_info;

	struct kslide_mem_entry map[BOOTENV_MAP_MAX];
	uint32_t map_count;
	uint32_t map_dropped; /* entries beyond BOOTENV_MAP_MAX */

	struct kslide_module modules[BOOTENV_MODULES_MAX];
	uint32_t module_count;
	uint32_t modules_given; /* how many the loader listed; above the maximum, an error */

	struct mem_range avoid[BOOTENV_AVOID_MAX];
	uint32_t avoid_count;

	const char *cmdline; /* NUL-terminated, or NULL */
	uint64_t cmdline_phys;
	const char *loader_name; /* or NULL */
	const char *map_source;  /* which of the loader's tables the map came from, or NULL */

	/* UEFI, as Multiboot2 reports it: the system table (0 if none) and its width, and whether
	 * the firmware's boot services still run (then its memory map is only a snapshot). */
	uint64_t efi_system_table;
	uint32_t efi_bits; /* 32 or 64; 0 without UEFI */
	bool efi_boot_services;
	/* The EFI memory map ExitBootServices succeeded with, where it stays for the kernel
	 * (UEFI way in only; 0 otherwise), for Linux's efi_info. */
	uint64_t efi_memmap;
	uint64_t efi_memmap_size;
	uint32_t efi_memdesc_size;
	uint32_t efi_memdesc_version;
	uint8_t efi_secure_boot; /* Linux's boot_params.secure_boot; 0: not read ("unset") */
	/* kslide.trial on an image packed with --debug-placement, under a loader the stub can
	 * return to (UEFI, boot/efi_trial.c): the bases are drawn and reported over the map as it
	 * is now, and the stub returns without moving or starting the kernel. */
	bool trial;

	/* The loader's copy of the ACPI RSDP (Multiboot 2: the new-RSDP tag, else the old one):
	 * its physical address and length; 0, 0 when the loader gave none. */
	uint64_t acpi_rsdp_copy;
	uint32_t acpi_rsdp_size;
	/* The RSDP is the firmware's own (UEFI's configuration table, a PVH monitor's), in memory
	 * the map keeps from the kernel: Linux is given its address as it is, as Linux's own EFI
	 * and PVH entries do. Otherwise it lies in the loader's information (Multiboot 2), which
	 * Linux may overwrite, and is copied to a lent page. */
	bool acpi_rsdp_kept;

	const char *why; /* after a parse error: what was wrong, for the console; or NULL */
};

/* Record a range that must not be overwritten. KS_ENOSPC when the table is full. */
int bootenv_avoid(struct boot_env *env, uint64_t start, uint64_t length);

/* Append a memory map entry (silently counted as dropped when full). */
void bootenv_add_map(struct boot_env *env, uint64_t base, uint64_t length, uint32_t type);

/*
 * Read a NUL-terminated string at addr of at most max_len bytes (NUL included); returns it and
 * its length without the NUL, or NULL if it is unreadable or unterminated.
 */
const char *bootenv_string(const struct phys_reader *mem, uint64_t addr, uint64_t max_len,
			   uint64_t *len);

#endif
