/*
 * kslide.trial (boot/efi.h): the UEFI way in's draw, repeated without a reboot. On an image
 * packed with --debug-placement the stub reads the memory map without leaving the firmware,
 * counts the slots and draws the bases as any boot does, reports them, and returns
 * EFI_SUCCESS to the shell that started it, which may start it again: the uniformity of
 * hundreds of UEFI draws costs one firmware boot, not hundreds (tests/boot/uniform-uefi.sh).
 * Gated like kslide.phys= (boot/placement.h), so an image in use never takes it.
 */
#include "boot/console.h"
#include "boot/efi.h"
#include "boot/stub_parts.h"
#include "lib/cmdline.h"
#include "lib/string.h"

uint64_t efi_return_status = EFI_LOAD_ERROR;

bool efi_trial_requested(const char *cmdline)
{
	if (!cmdline || !cmdline_has_flag(cmdline, strlen(cmdline), EFI_TRIAL_OPTION))
		return false;
	if (image_header.flags & KSLIDE_IMAGE_DEBUG_PLACEMENT)
		return true;
	console_print("kslide: %s ignored: this image was not packed with --debug-placement\n",
		      EFI_TRIAL_OPTION);
	return false;
}
