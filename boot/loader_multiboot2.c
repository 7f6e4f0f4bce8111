/*
 * Started by a Multiboot2 loader (GRUB's multiboot2 command, BIOS or UEFI), which loaded the
 * image by the address tag of boot/x86/multiboot2_header.S.
 */
#include "boot/loader.h"
#include "boot/multiboot2.h"

extern const uint32_t multiboot2_address_tag[];

static uint64_t loaded_size(void)
{
	return multiboot2_address_tag[MB2_ADDRESS_LOAD_END / 4] -
	       multiboot2_address_tag[MB2_ADDRESS_LOAD_ADDR / 4];
}

const struct boot_loader loader_multiboot2 = {
	.name = "multiboot2",
	.magic = MB2_BOOTLOADER_MAGIC,
	.parse = multiboot2_parse,
	.loaded_size = loaded_size,
};
