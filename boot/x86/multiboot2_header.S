/*
 * The Multiboot2 header (Multiboot2 Specification 2.0, section 3.1), shared by the i386 and
 * x86-64 stubs: GRUB's multiboot2 command loads the flat image by the address tag, as the
 * Multiboot 1 a.out kludge does, and enters stub_entry in 32-bit protected mode with
 * EAX = 0x36d76289 and EBX = the boot information.
 *
 * It must lie 8-byte aligned in the image's first 32 KiB. The including stub defines
 * _image_start, _stub_end and stub_entry; kslide-pack stretches load_end_addr and bss_end_addr
 * over the payload it appends, exactly as in the Multiboot 1 header. When a packed Multiboot 2
 * kernel asks its loader for something (a framebuffer, console flags, more information),
 * kslide-pack writes those tags in place of the end tag, into the room reserved after it, and
 * moves the end tag after them (header_length and checksum follow).
 */
#include "include/kslide/image.h"
#include "include/protocol/multiboot2.h"

#define MB2_STUB_MAX_END 0x80000000
#define MB2_STUB_ALIGN 4096

	.section .multiboot2, "a"
	.p2align 3
	.globl multiboot2_header
multiboot2_header:
	.long MB2_HEADER_MAGIC
	.long MB2_ARCH_I386
	.long multiboot2_header_end - multiboot2_header
	.long 0x100000000 - (MB2_HEADER_MAGIC + MB2_ARCH_I386 + \
		(multiboot2_header_end - multiboot2_header))

	.p2align 3
	.short MB2_HEADER_TAG_INFO_REQUEST, 0 /* not optional: refuse to boot without a map */
	.long 12
	.long MB2_INFO_TAG_MMAP /* the memory map: without it no kernel can be placed */

	.p2align 3
	.globl multiboot2_address_tag
multiboot2_address_tag:
	.short MB2_HEADER_TAG_ADDRESS, 0
	.long 24
	.long multiboot2_header /* header_addr */
	.long _image_start      /* load_addr */
	.long _stub_end         /* load_end_addr: kslide-pack extends it over the payload */
	.long _stub_end         /* bss_end_addr: likewise */

	.p2align 3
	.short MB2_HEADER_TAG_ENTRY, 0
	.long 12
	.long stub_entry

	/*
	 * Anywhere from the link address up, page-aligned (x86-64's page tables are in the bss),
	 * lowest first, ending below 2 GiB, where x86-64's 32-bit sign-extended addresses reach:
	 * the entry moves the stub's addresses there (boot/x86/self_relocate.h). Optional, so a
	 * loader that cannot move images loads it at the address tag's load_addr, as before.
	 */
	.p2align 3
	.short MB2_HEADER_TAG_RELOCATABLE, MB2_TAG_OPTIONAL
	.long MB2_RELOCATABLE_SIZE
	.long _image_start              /* min_addr */
	.long MB2_STUB_MAX_END          /* max_addr: the image's end, as GRUB reads it */
	.long MB2_STUB_ALIGN            /* align */
	.long MB2_RELOCATABLE_PREFER_LOW /* preference */

	/* Page-aligned modules; GRUB aligns them anyway, other loaders may not. */
	.p2align 3
	.short MB2_HEADER_TAG_MODULE_ALIGN, 0
	.long 8

	.p2align 3
	.short MB2_HEADER_TAG_END, 0
	.long 8
multiboot2_header_end:
	.skip KSLIDE_MB2_KERNEL_TAGS_ROOM
