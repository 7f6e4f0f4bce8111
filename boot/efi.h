/*
 * The stub as an EFI application (x86-64): what the PE entry (boot/x86_64/efi_entry.S) hands
 * the C side, and the few firmware calls the stub makes. The firmware's functions follow the
 * Microsoft x64 ABI (UEFI 2.10, 2.3.4.2), hence ms_abi on every pointer: gcc then passes
 * RCX, RDX, R8, R9, reserves the 32 bytes of shadow space and keeps RSP 16-byte aligned at
 * each call. Offsets into the firmware's tables come from include/protocol/uefi.h.
 */
#ifndef KSLIDE_BOOT_EFI_H
#define KSLIDE_BOOT_EFI_H

#include <stddef.h>
#include <stdint.h>

#include "boot/bootenv.h"
#include "boot/handoff.h"
#include "include/protocol/uefi.h"

#define EFIAPI __attribute__((ms_abi))

typedef uint64_t EFIAPI (*efi_get_memory_map_fn)(uint64_t *map_size, void *map, uint64_t *key,
						 uint64_t *desc_size, uint32_t *desc_version);
typedef uint64_t EFIAPI (*efi_exit_boot_services_fn)(uint64_t image_handle, uint64_t key);
typedef uint64_t EFIAPI (*efi_handle_protocol_fn)(uint64_t handle, const void *guid,
						  void **interface);
typedef uint64_t EFIAPI (*efi_locate_protocol_fn)(const void *guid, void *registration,
						  void **interface);
typedef uint64_t EFIAPI (*efi_get_rng_fn)(void *rng, const void *algorithm, uint64_t length,
					  void *value);

/* The firmware's boot services the stub calls; host tests put fakes here. */
struct efi_calls {
	efi_get_memory_map_fn get_memory_map;
	efi_exit_boot_services_fn exit_boot_services;
	efi_handle_protocol_fn handle_protocol;
};

/* What the UEFI way in carries from the entry to its loader (boot/loader_uefi.c): struct
 * boot_entry's info points here. The map fields are filled when boot services exit. */
struct efi_handover {
	uint64_t image_handle;
	uint64_t system_table;
	struct efi_calls calls;
	const uint8_t *map; /* the memory map ExitBootServices was called with */
	uint64_t map_size;
	uint64_t desc_size;
	uint32_t desc_version;
};

/* Set once ExitBootServices has succeeded: from then on a refusal cannot return to the
 * firmware, and the entry resets the machine instead (efi_entry.S reads it). */
extern uint8_t efi_boot_services_exited;

/* Called by efi_entry.S on the stub's own stack, the stub moved to where it runs: fill the
 * handover and the boot_entry and run stub_main. NULL when the kernel must not run. */
const struct entry_regs *efi_main(uint64_t image_handle, uint64_t system_table);

/* Read the firmware's EFI_RNG_PROTOCOL, if it has one, into the words the entropy source
 * efirng serves (arch/x86/arch_ops.h); while boot services run. Nothing when it has none. */
void efi_rng_read(uint64_t system_table);

/*
 * The size bytes of UTF-16LE load options at options (NULL: none) into out as a
 * NUL-terminated ASCII command line of at most cap - 1 characters: up to the first NUL or
 * newline, every character outside ASCII (a surrogate pair counts as one) replaced by '?',
 * the rest cut off when out is full. Returns its length. (boot/efi_cmdline.c)
 */
size_t efi_options_to_ascii(const uint8_t *options, uint32_t size, char *out, size_t cap);

/*
 * Linux's initrd, while boot services run, as Linux's EFI stub finds it (efi_load_initrd):
 * from the initrd device path (LINUX_EFI_INITRD_MEDIA_GUID, LoadFile2) when a handle has it,
 * else from the files the command line's initrd= words name, read in order from the image's
 * own device and concatenated (each start 4-byte aligned). Loaded into loader data below
 * EFI_INITRD_MAX and recorded as env's first module, an avoided range. KS_OK with no initrd
 * at all too; else an error and env->why (a missing file is named). (boot/efi_initrd.c)
 */
#define EFI_INITRD_MAX 0x7fffffffull /* x86-64 Linux's initrd_addr_max (boot.rst, 2.03+) */
int efi_load_initrd(const struct efi_handover *h, const char *cmdline, struct boot_env *env);

/*
 * Linux's boot_params.secure_boot (enum efi_secureboot_mode): disabled when SecureBoot is
 * absent or 0 or SetupMode is 1, enabled otherwise, unknown when they cannot be read. While
 * boot services run. (boot/efi_secure_boot.c)
 */
#define EFI_SECURE_BOOT_UNKNOWN	 1
#define EFI_SECURE_BOOT_DISABLED 2
#define EFI_SECURE_BOOT_ENABLED	 3
uint8_t efi_secure_boot_mode(uint64_t system_table);

/*
 * Measured boot, while boot services run: when the firmware has EFI_TCG2_PROTOCOL, the kernel
 * as the image carries it (payload, relocation table and handoff facts as stored: the same
 * bytes at every base), the load options as the firmware gave them and the initrd as loaded
 * are hashed into PCR 9 with event-log entries (the latter two as Linux's EFI stub logs
 * them), then Linux's copy of the event log is installed as a configuration table. Prints
 * "kslide: measured pcr=9 events=N"; nothing without a TPM. (boot/efi_measure.c)
 */
#define EFI_MEASURED_KERNEL "kslide kernel" /* the EV_IPL event's data, its NUL included */
struct efi_measured {
	uint64_t kernel, kernel_size;
	uint64_t options, options_size; /* UTF-16LE, LoadOptionsSize bytes */
	uint64_t initrd, initrd_size;
};
void efi_measure_boot(uint64_t system_table, const struct efi_measured *m);

/*
 * GetMemoryMap into 'buffer' (capacity bytes), then ExitBootServices with its key; when the
 * firmware answers EFI_INVALID_PARAMETER (the map changed since it was read: UEFI 2.10, 7.4
 * ExitBootServices), read the map again and retry, up to EFI_EXIT_ATTEMPTS times. On success
 * fills h's map fields and returns KS_OK; else a negative error and *why.
 */
#define EFI_EXIT_ATTEMPTS 4
int efi_exit_boot_services(struct efi_handover *h, uint8_t *buffer, uint64_t capacity,
			   const char **why);

/*
 * Leave the firmware for good: efi_exit_boot_services into the stub's own buffer, inside its
 * image (so the image's avoided range covers it), then interrupts off and the stub's own
 * identity map of the first 4 GiB, so that nothing the firmware owned is still in use when
 * the stub hands its memory out.
 */
int efi_leave_firmware(struct efi_handover *h, const char **why);

/*
 * kslide.trial (boot/efi_trial.c): whether the command line asks for a trial draw and the
 * image, packed with --debug-placement, honours it (on any other image the word is named and
 * ignored). A trial reads the memory map without leaving the firmware (efi_read_memory_map),
 * and the entry returns EFI_SUCCESS (efi_return_status) instead of starting the kernel: the
 * draw repeated many times in one firmware session, for the uniformity test of the UEFI way
 * in (tests/boot/uniform-uefi.sh).
 */
#define EFI_TRIAL_OPTION "kslide.trial"
bool efi_trial_requested(const char *cmdline);
int efi_read_memory_map(struct efi_handover *h, const char **why);
/* What efi_entry.S returns when the stub comes back with boot services running:
 * EFI_LOAD_ERROR for a refusal, EFI_SUCCESS after a trial. */
extern uint64_t efi_return_status;

#endif
