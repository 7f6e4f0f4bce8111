/*
 * Started by UEFI firmware as an EFI application (kslide-pack --format efi): the PE's entry
 * (boot/x86_64/efi_entry.S, boot/efi_main.c) hands over the image handle and the system
 * table (struct efi_handover, boot/efi.h). The memory map is the one ExitBootServices is
 * called with, so the parser leaves the firmware first (boot/uefi.c reads the map). Until
 * then a refusal returns an error to the firmware. x86-64 only.
 */
#include "boot/efi.h"
#include "boot/loader.h"
#include "boot/uefi.h"
#include "lib/errors.h"
#include "lib/unaligned.h"

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

static int parse(const struct phys_reader *mem, const struct boot_entry *entry,
		 struct boot_env *env)
{
	(void)mem; /* the map is read from the stub's own buffer */
	struct efi_handover *h = (struct efi_handover *)(uintptr_t)entry->info;
	int rc = efi_leave_firmware(h, &env->why);
	if (rc != KS_OK)
		return rc;
	env->loader_name = "UEFI";
	env->efi_system_table = h->system_table;
	env->efi_bits = 64;
	env->efi_boot_services = false;
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
