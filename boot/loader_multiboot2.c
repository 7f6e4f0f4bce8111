/*
 * Started by a Multiboot2 loader (GRUB's multiboot2 command, BIOS or UEFI), which loaded the
 * image by the address tag of boot/x86/multiboot2_header.S.
 */
#include "boot/loader.h"
#include "boot/multiboot2.h"

extern const uint32_t multiboot2_address_tag[];

/* The entry chose this protocol by the magic; checked again so that the rule lives here. */
static const char *check(const struct boot_entry *entry)
{
	return entry->magic == MB2_BOOTLOADER_MAGIC ? NULL : "not started by a Multiboot loader";
}

static int parse(const struct phys_reader *mem, const struct boot_entry *entry,
		 struct boot_env *env)
{
	return multiboot2_parse(mem, (uint32_t)entry->info, env); /* EBX, zero-extended */
}

/* The address tag's words say it (kslide-pack stretched load_end over the image); where the
 * image lies changes neither. */
static uint64_t loaded_size(const struct boot_entry *entry)
{
	(void)entry;
	return multiboot2_address_tag[MB2_ADDRESS_LOAD_END / 4] -
	       multiboot2_address_tag[MB2_ADDRESS_LOAD_ADDR / 4];
}

const struct boot_loader loader_multiboot2 = {
	.name = "multiboot2",
	.protocol = BOOT_PROTOCOL_MULTIBOOT2,
	.check = check,
	.parse = parse,
	.loaded_size = loaded_size,
};
