/*
 * Where the x86-64 stub's EFI entry is, for kslide-pack --format efi to write as the PE's
 * AddressOfEntryPoint (tools/pack/container_efi.c): a mark, the entry's link address and the
 * stub's. The
 * PE wraps the image as the PVH ELF does, so the mark stays outside the self-checked part.
 */
#include "include/protocol/uefi.h"

	.section .efi, "a"
	.p2align 3
	.globl efi_mark
efi_mark:
	.asciz KSLIDE_EFI_MARK
	.quad efi_entry
	.quad _image_start
