/*
 * Where every way into the stub converges. Each entry (boot/<arch>/entry.S for the Multiboot
 * ones) does only what its loader's machine state demands, fills one struct boot_entry and
 * calls stub_main with it; the loader table (boot/protocols.c) is chosen by its protocol, and
 * nothing after that asks which entry ran.
 */
#ifndef KSLIDE_BOOT_ENTRY_H
#define KSLIDE_BOOT_ENTRY_H

/* The ways in. Numbers, not an enum, so that the entry code can store them. */
#define BOOT_PROTOCOL_MULTIBOOT1 1
#define BOOT_PROTOCOL_MULTIBOOT2 2
#define BOOT_PROTOCOL_UEFI	 3 /* x86-64 only: the PE's entry (boot/x86_64/efi_entry.S) */
#define BOOT_PROTOCOL_PVH 4 /* x86-64 only: the PVH ELF note's entry (boot/x86_64/pvh_header.S) */

/* Offsets of struct boot_entry, for the entry code. */
#define BOOT_ENTRY_PROTOCOL    0
#define BOOT_ENTRY_MAGIC       4
#define BOOT_ENTRY_INFO	       8
#define BOOT_ENTRY_IMAGE_START 16
#define BOOT_ENTRY_SIZE	       24

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>

enum boot_protocol {
	boot_protocol_multiboot1 = BOOT_PROTOCOL_MULTIBOOT1,
	boot_protocol_multiboot2 = BOOT_PROTOCOL_MULTIBOOT2,
	boot_protocol_uefi = BOOT_PROTOCOL_UEFI,
	boot_protocol_pvh = BOOT_PROTOCOL_PVH,
};

/*
 * What an entry hands stub_main. 64-bit fields throughout, so that an entry in long mode (UEFI,
 * whose tables may lie above 4 GiB) fills the same structure as the 32-bit ones.
 */
struct boot_entry {
	uint32_t protocol; /* enum boot_protocol: decides the loader (boot/protocols.c) */
	/* The loader's magic register as it was (Multiboot: EAX), for its protocol to check and
	 * for a handoff that passes it on; PVH has none, and its entry stores its protocol's
	 * magic here (boot/x86_64/entry.S), the start info's own being the parser's to check. */
	uint32_t magic;
	/* What the loader gave: Multiboot's information, PVH's start info (EBX); UEFI's image
	 * handle and system table, in struct efi_handover (boot/efi.h). */
	uint64_t info;
	uint64_t image_start; /* where the stub image's first byte lies in memory */
};

_Static_assert(offsetof(struct boot_entry, magic) == BOOT_ENTRY_MAGIC, "entry.S offsets");
_Static_assert(offsetof(struct boot_entry, info) == BOOT_ENTRY_INFO, "entry.S offsets");
_Static_assert(offsetof(struct boot_entry, image_start) == BOOT_ENTRY_IMAGE_START,
	       "entry.S offsets");
_Static_assert(sizeof(struct boot_entry) == BOOT_ENTRY_SIZE, "entry.S offsets");

#endif /* __ASSEMBLER__ */
#endif
