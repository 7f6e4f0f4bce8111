/* The UEFI memory map into struct boot_env (boot/uefi.h). */
#include "boot/uefi.h"
#include "include/kslide/bootinfo.h"
#include "lib/errors.h"
#include "lib/unaligned.h"

/* The kslide type of an EFI memory type, after ExitBootServices (Linux: setup_e820()). */
static uint32_t map_type(uint32_t efi)
{
	switch (efi) {
	case EFI_LOADER_CODE:
	case EFI_LOADER_DATA:
	case EFI_BOOT_SERVICES_CODE:
	case EFI_BOOT_SERVICES_DATA:
	case EFI_CONVENTIONAL_MEMORY: return KSLIDE_MEM_USABLE;
	case EFI_UNUSABLE_MEMORY: return KSLIDE_MEM_BAD;
	case EFI_ACPI_RECLAIM_MEMORY: return KSLIDE_MEM_ACPI_RECLAIMABLE;
	case EFI_ACPI_MEMORY_NVS: return KSLIDE_MEM_ACPI_NVS;
	}
	return KSLIDE_MEM_RESERVED; /* runtime services, MMIO, persistent, unknown */
}

int uefi_parse_memory_map(const uint8_t *map, uint64_t map_size, uint64_t desc_size,
			  struct boot_env *env)
{
	if (desc_size < EFI_MD_SIZE) {
		env->why = "EFI memory descriptors smaller than the specification's";
		return KS_EFORMAT;
	}
	env->map_source = "EFI memory map";
	for (uint64_t at = 0; map_size - at >= desc_size; at += desc_size) {
		const uint8_t *d = map + at;
		uint64_t base = load_le64(d + EFI_MD_PHYSICAL_START);
		uint64_t pages = load_le64(d + EFI_MD_NUMBER_OF_PAGES);
		if (pages > (UINT64_MAX - base) / EFI_PAGE_SIZE) {
			env->why = "EFI memory descriptor wraps around";
			return KS_EFORMAT;
		}
		uint32_t type = map_type(load_le32(d + EFI_MD_TYPE));
		/* Merged with the entry before when it continues it with the same type, as
		 * Linux's setup_e820 does: OVMF's hundred-odd descriptors become a few entries,
		 * well within the 128 of Linux's zero page. */
		struct kslide_mem_entry *last = env->map_count ? &env->map[env->map_count - 1] : 0;
		if (last && last->type == type && last->base + last->length == base)
			last->length += pages * EFI_PAGE_SIZE;
		else
			bootenv_add_map(env, base, pages * EFI_PAGE_SIZE, type);
	}
	return KS_OK;
}
