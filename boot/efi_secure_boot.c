/*
 * The Secure Boot state for Linux's boot_params.secure_boot (boot/efi.h), decided as Linux's
 * EFI stub decides it (drivers/firmware/efi/libstub/secureboot.c, efi_get_secureboot) from
 * the SecureBoot and SetupMode variables, read with the runtime services' GetVariable while
 * boot services still run. Unlike Linux, shim's MokSBState is not read: a shim put in
 * insecure mode is reported as enabled.
 */
#include "boot/efi.h"
#include "lib/unaligned.h"

typedef uint64_t EFIAPI (*efi_get_variable_fn)(const uint16_t *name, const void *vendor,
					       uint32_t *attributes, uint64_t *size, void *data);

uint8_t efi_secure_boot_mode(uint64_t system_table)
{
	static const uint16_t secure_boot[] = u"SecureBoot", setup_mode[] = u"SetupMode";
	static const uint64_t guid[2] = {EFI_GLOBAL_VARIABLE_GUID_LOW,
					 EFI_GLOBAL_VARIABLE_GUID_HIGH};
	const uint8_t *st = (const uint8_t *)(uintptr_t)system_table;
	const uint8_t *rt = (const uint8_t *)(uintptr_t)load_le64(st + EFI_ST_RUNTIME_SERVICES);
	efi_get_variable_fn get_variable =
		(efi_get_variable_fn)(uintptr_t)load_le64(rt + EFI_RT_GET_VARIABLE);
	uint8_t secure = 0, setup = 0;
	uint64_t size = sizeof(secure);
	uint64_t status = get_variable(secure_boot, guid, NULL, &size, &secure);
	if (status == EFI_NOT_FOUND)
		return EFI_SECURE_BOOT_DISABLED;
	if (status != EFI_SUCCESS)
		return EFI_SECURE_BOOT_UNKNOWN;
	size = sizeof(setup);
	if (get_variable(setup_mode, guid, NULL, &size, &setup) != EFI_SUCCESS)
		return EFI_SECURE_BOOT_UNKNOWN;
	return secure == 0 || setup == 1 ? EFI_SECURE_BOOT_DISABLED : EFI_SECURE_BOOT_ENABLED;
}
