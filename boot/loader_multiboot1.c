/*
 * Started by a Multiboot 1 loader (QEMU's -kernel, GRUB's multiboot command), which loaded the
 * image by the a.out-kludge fields of boot/x86/multiboot1_header.S.
 */
#include "boot/loader.h"
#include "boot/multiboot1.h"

extern const uint32_t multiboot_header[];

static uint64_t loaded_size(void)
{
	return multiboot_header[MB1_HEADER_LOAD_END / 4] - multiboot_header[MB1_HEADER_LOAD_ADDR / 4];
}

const struct boot_loader loader_multiboot1 = {
	.name = "multiboot1",
	.magic = MB1_BOOTLOADER_MAGIC,
	.parse = multiboot1_parse,
	.loaded_size = loaded_size,
};
