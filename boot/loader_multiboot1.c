/*
 * Started by a Multiboot 1 loader (QEMU's -kernel, GRUB's multiboot command), which loaded the
 * image by the a.out-kludge fields of boot/x86/multiboot1_header.S.
 */
#include "boot/loader.h"
#include "boot/multiboot1.h"

extern const uint32_t multiboot_header[];

/* The Multiboot entry (boot/<arch>/entry.S) takes every magic but Multiboot 2's for this
 * protocol, so that a loader which is neither is refused here, by name. */
static const char *check(const struct boot_entry *entry)
{
	return entry->magic == MB1_BOOTLOADER_MAGIC ? NULL : "not started by a Multiboot loader";
}

static int parse(const struct phys_reader *mem, const struct boot_entry *entry,
		 struct boot_env *env)
{
	return multiboot1_parse(mem, (uint32_t)entry->info, env); /* EBX, zero-extended */
}

/* The header's words say it (kslide-pack stretched load_end over the image); where the image
 * lies changes neither. */
static uint64_t loaded_size(const struct boot_entry *entry)
{
	(void)entry;
	return multiboot_header[MB1_HEADER_LOAD_END / 4] -
	       multiboot_header[MB1_HEADER_LOAD_ADDR / 4];
}

const struct boot_loader loader_multiboot1 = {
	.name = "multiboot1",
	.protocol = BOOT_PROTOCOL_MULTIBOOT1,
	.check = check,
	.parse = parse,
	.loaded_size = loaded_size,
};
