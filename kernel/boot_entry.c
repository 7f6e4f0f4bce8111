/* Finding kslide's boot info at entry (boot_entry.h). */
#include "include/kslide/kernel.h"
#include "include/kslide/multiboot.h"
#include "kernel/boot_entry.h"
#include "kernel/memory.h"

/* Where this kernel can run (kernel/<arch>/layout.h): kslide-pack's defaults and bounds. */
KSLIDE_KERNEL_NOTE_LIMITS(KSLIDE_HANDOFF_KSLIDE, KERNEL_PHYS_LIMIT, 0, KERNEL_VIRT_MIN, KERNEL_VIRT_END);

#define MULTIBOOT1_BOOTLOADER_MAGIC 0x2BADB002u
#define MULTIBOOT2_BOOTLOADER_MAGIC 0x36d76289u
#define MB2_INFO_HEADER 8 /* total_size, reserved (Multiboot2 2.0, 3.6) */
#define MB2_TAG_HEADER 8
#define MB2_TAG_ALIGN 8
#define MB2_TAG_END 0

struct mb2_tag {
	uint32_t type, size;
};

/* kslide's tag in the Multiboot 2 information at info: its payload's address, or 0. */
static uintptr_t find_mb2_tag(uintptr_t info)
{
	uint32_t total = *(const uint32_t *)phys_to_virt(info);
	for (uint32_t off = MB2_INFO_HEADER; off + MB2_TAG_HEADER <= total;) {
		const struct mb2_tag *t = phys_to_virt(info + off);
		if (t->type == MB2_TAG_END || t->size < MB2_TAG_HEADER)
			return 0;
		if (t->type == KSLIDE_MULTIBOOT2_TAG_BOOTINFO &&
		    t->size >= MB2_TAG_HEADER + sizeof(struct kslide_bootinfo))
			return info + off + MB2_TAG_HEADER;
		off += (t->size + MB2_TAG_ALIGN - 1) & ~(uint32_t)(MB2_TAG_ALIGN - 1);
	}
	return 0;
}

uintptr_t boot_info_locate(uint32_t eax, uintptr_t ebx, const char **how)
{
	*how = "kslide's handoff (EBX)";
	if (eax == KSLIDE_BOOT_MAGIC)
		return ebx;
	if (eax == MULTIBOOT2_BOOTLOADER_MAGIC) {
		*how = "kslide's tag in the Multiboot 2 information";
		return find_mb2_tag(ebx);
	}
	*how = "ECX, with EDX = KSLIDE_BOOT_MAGIC, under Multiboot 1";
	if (eax == MULTIBOOT1_BOOTLOADER_MAGIC && boot_edx == KSLIDE_BOOT_MAGIC)
		return boot_ecx;
	return 0;
}

uintptr_t boot_info_second_copy(uint32_t eax)
{
	return eax == MULTIBOOT2_BOOTLOADER_MAGIC && boot_edx == KSLIDE_BOOT_MAGIC ? boot_ecx : 0;
}
