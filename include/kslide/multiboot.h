/*
 * A Multiboot kernel packed with `kslide-pack --handoff multiboot` (the default for a kernel
 * with a Multiboot header) is entered as its own loader would have entered it had it loaded
 * the kernel at the random base: EAX = the loader's magic (0x2BADB002 or 0x36d76289), EBX =
 * the loader's boot information, 32-bit protected mode, paging off, flat segments, A20 on,
 * interrupts off (Multiboot 0.6.96 section 3.2; Multiboot2 2.0 section 3.3). Only what the
 * move made false changes (docs/kernel-authors.md):
 *
 *   - the command line loses the stub's own words (nokaslr, kaslr, kslide.*);
 *   - Multiboot 1: the a.out and ELF symbol fields (flags bits 4 and 5), which described the
 *     packed image, are cleared;
 *   - Multiboot 2: EBX points to a copy of the loader's information in memory the stub set
 *     aside, without ELF-sections tags, with the load base tag (if any) giving the kernel's
 *     new physical base, and with the tag below added if the image was packed with
 *     kslide-pack --kslide-tag;
 *   - a kernel with a Multiboot 2 header only, started through the image's Multiboot 1
 *     header (every image has one, for QEMU's -kernel): EAX = 0x36d76289 and EBX = Multiboot
 *     2 information translated from the loader's (boot/multiboot1_to_2.h), then as above.
 *
 * A kernel that wants to know what kslide did finds struct kslide_bootinfo
 * (include/kslide/bootinfo.h) two ways, both of which a kernel unaware of kslide can ignore
 * (the tag only if it skips tags it does not know, so it is asked for):
 *
 *   - in registers the Multiboot specifications leave undefined: EDX = KSLIDE_BOOT_MAGIC and
 *     ECX = the physical address of struct kslide_bootinfo (Multiboot 1 and 2);
 *   - Multiboot 2 only, packed with --kslide-tag: a tag of type KSLIDE_MULTIBOOT2_TAG_BOOTINFO (far above the types the
 *     specification and GRUB use) whose payload, 8 bytes after the tag's start, is the struct.
 */
#ifndef KSLIDE_MULTIBOOT_H
#define KSLIDE_MULTIBOOT_H

#include "bootinfo.h"

#define KSLIDE_MULTIBOOT2_TAG_BOOTINFO 0x6b534c44u /* "DLSk", as KSLIDE_BOOT_MAGIC */

#endif
