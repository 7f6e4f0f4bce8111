/*
 * Started by UEFI firmware as an EFI application (kslide-pack --format efi): the PE's entry
 * (boot/x86_64/efi_entry.S, boot/efi_main.c) hands over the image handle and the system
 * table (struct efi_handover, boot/efi.h). What only boot services can give is read first:
 * the load options as the command line, Linux's initrd (boot/efi_initrd.c), the ACPI RSDP,
 * the Secure Boot state (boot/efi_secure_boot.c).
 * The memory map is the one ExitBootServices is called with, so the parser then leaves the
 * firmware (boot/uefi.c reads the map). Until then a refusal returns an error to the
 * firmware. x86-64 only. A trial (kslide.trial, boot/efi_trial.c) reads the map and stays.
 */
#include "boot/efi.h"
#include "boot/loader.h"
#include "boot/stub_parts.h"
#include "boot/uefi.h"
#include "include/protocol/acpi_rsdp.h"
#include "lib/errors.h"
#include "lib/unaligned.h"

/* Linux's COMMAND_LINE_SIZE on x86: the most its EFI stub takes from the load options. In
 * the image, so already avoided; the handoff edits it in place. */
#define EFI_CMDLINE_BYTES 2048
static char cmdline[EFI_CMDLINE_BYTES];

static const struct efi_handover *handover(const struct boot_entry *entry)
{
	return (const struct efi_handover *)(uintptr_t)entry->info;
}

/* UEFI has no magic register: the system table's signature stands for one. */
static const char *check(const struct boot_entry *entry)
{
	const struct efi_handover *h = handover(entry);
	if (!h || !h->system_table ||
	    load_le64((const uint8_t *)(uintptr_t)h->system_table) != EFI_ST_SIGNATURE)
		return "not started by UEFI firmware (no EFI system table)";
	return NULL;
}

static uint64_t word_at(uint64_t address)
{
	return load_le64((const uint8_t *)(uintptr_t)address);
}

/* The load options as the command line (boot/efi_cmdline.c), passed on whole: the UEFI
 * shell puts the image's path first and firmware boot entries do not, and Linux's EFI stub
 * leaves the path where it is too (the kernel hands such a word to init). */
static void read_load_options(const struct efi_handover *h, struct boot_env *env,
			      struct efi_measured *measured)
{
	static const uint64_t guid[2] = {EFI_LOADED_IMAGE_GUID_LOW, EFI_LOADED_IMAGE_GUID_HIGH};
	efi_handle_protocol_fn handle_protocol = (efi_handle_protocol_fn)(uintptr_t)word_at(
		word_at(h->system_table + EFI_ST_BOOT_SERVICES) + EFI_BS_HANDLE_PROTOCOL);
	void *image = NULL;
	if (handle_protocol(h->image_handle, guid, &image) != EFI_SUCCESS || !image)
		return;
	const uint8_t *li = image;
	measured->options = load_le64(li + EFI_LI_LOAD_OPTIONS);
	measured->options_size = measured->options ? load_le32(li + EFI_LI_LOAD_OPTIONS_SIZE) : 0;
	efi_options_to_ascii((const uint8_t *)(uintptr_t)load_le64(li + EFI_LI_LOAD_OPTIONS),
			     load_le32(li + EFI_LI_LOAD_OPTIONS_SIZE), cmdline, sizeof(cmdline));
	env->cmdline = cmdline;
	env->cmdline_phys = (uintptr_t)cmdline;
}

/* The ACPI RSDP from the configuration table: ACPI 2.0's entry, else 1.0's (as Linux's
 * efi_get_rsdp_addr). Its length is the structure's own from revision 2 on. */
static void find_rsdp(uint64_t system_table, struct boot_env *env)
{
	uint64_t entries = word_at(system_table + EFI_ST_TABLE_ENTRIES);
	uint64_t table = word_at(system_table + EFI_ST_CONFIG_TABLE), found = 0;
	for (uint64_t i = 0; table && i < entries; i++) {
		uint64_t e = table + i * EFI_CONFIG_ENTRY_SIZE;
		uint64_t low = word_at(e), high = word_at(e + 8);
		if (low == EFI_ACPI_20_GUID_LOW && high == EFI_ACPI_20_GUID_HIGH) {
			found = word_at(e + 16);
			break;
		}
		if (low == EFI_ACPI_10_GUID_LOW && high == EFI_ACPI_10_GUID_HIGH)
			found = word_at(e + 16);
	}
	if (!found)
		return;
	const uint8_t *rsdp = (const uint8_t *)(uintptr_t)found;
	env->acpi_rsdp_copy = found;
	env->acpi_rsdp_kept = true;
	env->acpi_rsdp_size = rsdp[ACPI_RSDP_REVISION] >= 2 ? load_le32(rsdp + ACPI_RSDP_LENGTH)
							    : ACPI_RSDP_V1_BYTES;
}

static int parse(const struct phys_reader *mem, const struct boot_entry *entry,
		 struct boot_env *env)
{
	(void)mem; /* the map is read from the stub's own buffer */
	struct efi_handover *h = (struct efi_handover *)(uintptr_t)entry->info;
	/* What only boot services can give, before they exit. */
	struct efi_measured measured = {0};
	read_load_options(h, env, &measured);
	int rc = efi_load_initrd(h, env->cmdline, env);
	if (rc != KS_OK)
		return rc;
	/* The kernel as stored, from the payload to the image's end (image_check verified the
	 * header before this parse runs). */
	measured.kernel = (uintptr_t)stub_image + image_header.payload_offset;
	measured.kernel_size = image_header.image_file_size - image_header.payload_offset;
	if (env->module_count) {
		measured.initrd = env->modules[0].start;
		measured.initrd_size = env->modules[0].end - env->modules[0].start;
	}
	/* A trial starts no kernel: nothing to record, and no log table left per draw. */
	env->trial = efi_trial_requested(env->cmdline);
	if (!env->trial)
		efi_measure_boot(h->system_table, &measured);
	find_rsdp(h->system_table, env);
	env->efi_secure_boot = efi_secure_boot_mode(h->system_table);
	rc = env->trial ? efi_read_memory_map(h, &env->why) : efi_leave_firmware(h, &env->why);
	if (rc != KS_OK)
		return rc;
	env->loader_name = "UEFI";
	env->efi_system_table = h->system_table;
	env->efi_bits = 64;
	env->efi_boot_services = env->trial;
	env->efi_memmap = (uintptr_t)h->map;
	env->efi_memmap_size = h->map_size;
	env->efi_memdesc_size = (uint32_t)h->desc_size;
	env->efi_memdesc_version = h->desc_version;
	return uefi_parse_memory_map(h->map, h->map_size, h->desc_size, env);
}

/* What the firmware loaded: from the stub to the end of the PE's image, as its loaded-image
 * protocol says (ImageBase + SizeOfImage), 0 if it says nothing or something else. */
static uint64_t loaded_size(const struct boot_entry *entry)
{
	static const uint64_t guid[2] = {EFI_LOADED_IMAGE_GUID_LOW, EFI_LOADED_IMAGE_GUID_HIGH};
	struct efi_handover *h = (struct efi_handover *)(uintptr_t)entry->info;
	uint64_t services =
		load_le64((const uint8_t *)(uintptr_t)(h->system_table + EFI_ST_BOOT_SERVICES));
	h->calls.handle_protocol = (efi_handle_protocol_fn)(uintptr_t)load_le64(
		(const uint8_t *)(uintptr_t)(services + EFI_BS_HANDLE_PROTOCOL));
	void *image = NULL;
	if (h->calls.handle_protocol(h->image_handle, guid, &image) != EFI_SUCCESS || !image)
		return 0;
	uint64_t base = load_le64((const uint8_t *)image + EFI_LI_IMAGE_BASE);
	uint64_t size = load_le64((const uint8_t *)image + EFI_LI_IMAGE_SIZE);
	if (entry->image_start < base || entry->image_start - base > size)
		return 0;
	return size - (entry->image_start - base);
}

const struct boot_loader loader_uefi = {
	.name = "uefi",
	.protocol = BOOT_PROTOCOL_UEFI,
	.check = check,
	.parse = parse,
	.loaded_size = loaded_size,
};
