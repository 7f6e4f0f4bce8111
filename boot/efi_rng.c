/*
 * The firmware's random numbers (boot/efi.h): EFI_RNG_PROTOCOL's default algorithm, read
 * once while boot services run into the words the efirng entropy source serves; lib/entropy.c
 * mixes and credits them with the others.
 */
#include "arch/x86/arch_ops.h"
#include "boot/efi.h"
#include "lib/unaligned.h"

void efi_rng_read(uint64_t system_table)
{
	static const uint64_t guid[2] = {EFI_RNG_GUID_LOW, EFI_RNG_GUID_HIGH};
	const uint8_t *st = (const uint8_t *)(uintptr_t)system_table;
	if (!st || load_le64(st) != EFI_ST_SIGNATURE)
		return; /* the loader's check() refuses it, and says so */
	const uint8_t *services = (const uint8_t *)(uintptr_t)load_le64(st + EFI_ST_BOOT_SERVICES);
	efi_locate_protocol_fn locate =
		(efi_locate_protocol_fn)(uintptr_t)load_le64(services + EFI_BS_LOCATE_PROTOCOL);
	void *rng = NULL;
	if (locate(guid, NULL, &rng) != EFI_SUCCESS || !rng)
		return;
	efi_get_rng_fn get_rng =
		(efi_get_rng_fn)(uintptr_t)load_le64((const uint8_t *)rng + EFI_RNG_GET_RNG);
	if (get_rng(rng, NULL, sizeof(arch_firmware_rng), arch_firmware_rng) == EFI_SUCCESS)
		arch_firmware_rng_words = ARCH_FIRMWARE_RNG_WORDS;
}
