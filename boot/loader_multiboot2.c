/*
 * Started by a Multiboot2 loader (GRUB's multiboot2 command, BIOS or UEFI), which loaded the
 * image by the address tag of boot/x86/multiboot2_header.S.
 */
#include "boot/loader.h"
#include "boot/multiboot2.h"

extern const uint32_t multiboot2_address_tag[];
#define MB2_ADDRESS_LOAD_ADDR 3 /* words of the address tag: type|flags, size, header_addr, ... */
#define MB2_ADDRESS_LOAD_END 4

static uint64_t loaded_size(void)
{
	return multiboot2_address_tag[MB2_ADDRESS_LOAD_END] -
	       multiboot2_address_tag[MB2_ADDRESS_LOAD_ADDR];
}

const struct boot_loader loader_multiboot2 = {
	.name = "multiboot2",
	.magic = MULTIBOOT2_BOOTLOADER_MAGIC,
	.parse = multiboot2_parse,
	.loaded_size = loaded_size,
};
