/*
 * The stub's two tables: the ways in (boot loaders, by the protocol their entry code named in
 * struct boot_entry) and the ways out (kernel handoffs, by the image header's handoff field).
 * A new way in adds its loader here, beside its entry and its protocol number (docs/design.md,
 * "Adding a boot protocol", lists every file it needs).
 */
#include <stddef.h>

#include "boot/handoff.h"
#include "boot/loader.h"

static const struct boot_loader *const loaders[] = {
	&loader_multiboot1,
	&loader_multiboot2,
#ifdef __x86_64__
	/* PVH monitors start x86-64 kernels, from an ELF64 (boot/x86_64/pvh_header.S). */
	&loader_pvh,
	/* UEFI firmware starts the PE of kslide-pack --format efi in long mode. */
	&loader_uefi,
#endif
};

static const struct kernel_handoff *const handoffs[] = {
	&handoff_kslide,
	&handoff_linux,
	/* The Multiboot machine state is 32-bit protected mode: the i386 stub runs in it, the
	 * x86-64 stub leaves long mode for it (boot/mode32.h). Both run x86-64 Multiboot kernels,
	 * moved by a single slide (kslide-pack); the x86-64 stub those packed --format efi. */
	&handoff_multiboot,
};

#define COUNT(table) (sizeof(table) / sizeof((table)[0]))

const struct boot_loader *boot_loader_for(const struct boot_entry *entry)
{
	for (size_t i = 0; i < COUNT(loaders); i++)
		if (loaders[i]->protocol == entry->protocol)
			return loaders[i];
	return NULL;
}

const struct kernel_handoff *kernel_handoff_for(uint32_t id)
{
	for (size_t i = 0; i < COUNT(handoffs); i++)
		if (handoffs[i]->id == id)
			return handoffs[i];
	return NULL;
}
