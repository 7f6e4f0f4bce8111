/* ExitBootServices with the retry the specification requires (boot/efi.h). */
#include "boot/efi.h"
#include "lib/errors.h"

int efi_exit_boot_services(struct efi_handover *h, uint8_t *buffer, uint64_t capacity,
			   const char **why)
{
	for (int attempt = 0; attempt < EFI_EXIT_ATTEMPTS; attempt++) {
		uint64_t size = capacity, key = 0, desc_size = 0;
		uint32_t version = 0;
		uint64_t status =
			h->calls.get_memory_map(&size, buffer, &key, &desc_size, &version);
		if (status == EFI_BUFFER_TOO_SMALL) {
			*why = "the EFI memory map is larger than the stub's buffer";
			return KS_ENOSPC;
		}
		if (status != EFI_SUCCESS) {
			*why = "GetMemoryMap failed";
			return KS_EINVAL;
		}
		status = h->calls.exit_boot_services(h->image_handle, key);
		if (status == EFI_SUCCESS) {
			h->map = buffer;
			h->map_size = size;
			h->desc_size = desc_size;
			h->desc_version = version;
			return KS_OK;
		}
		/* Only a stale key may be retried; after a failed exit, GetMemoryMap is still
		 * allowed (UEFI 2.10, 7.4). */
		if (status != EFI_INVALID_PARAMETER) {
			*why = "ExitBootServices failed";
			return KS_EINVAL;
		}
	}
	*why = "the EFI memory map kept changing under ExitBootServices";
	return KS_EINVAL;
}
