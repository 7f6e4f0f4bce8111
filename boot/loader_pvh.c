/*
 * Started by a PVH monitor (QEMU's -kernel with an ELF, Firecracker, Cloud Hypervisor), which
 * loaded the image by the PT_LOAD of kslide-pack --format pvh and entered pvh_entry by the
 * note of boot/x86_64/pvh_header.S, with EBX = its hvm_start_info (boot/pvh.c). x86-64 only.
 */
#include "boot/loader.h"
#include "boot/pvh.h"

extern const uint32_t pvh_load_end[];
extern const uint8_t _image_start[];

/* PVH has no magic register: the entry names its protocol with the start info's magic, and
 * the parser checks the start info's own. Any other value came through another entry. */
static const char *check(const struct boot_entry *entry)
{
	return entry->magic == PVH_START_MAGIC ? NULL : "not started by a PVH loader";
}

static int parse(const struct phys_reader *mem, const struct boot_entry *entry,
		 struct boot_env *env)
{
	return pvh_parse(mem, entry->info, env); /* EBX, zero-extended */
}

/* The header's word says it (kslide-pack stretched it over the image, as the PT_LOAD); the
 * monitor loads at the link address, so both ends are link addresses. */
static uint64_t loaded_size(const struct boot_entry *entry)
{
	(void)entry;
	return pvh_load_end[0] - (uint32_t)(uintptr_t)_image_start;
}

const struct boot_loader loader_pvh = {
	.name = "pvh",
	.protocol = BOOT_PROTOCOL_PVH,
	.check = check,
	.parse = parse,
	.loaded_size = loaded_size,
};
