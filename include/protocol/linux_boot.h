/*
 * Linux's x86 boot protocol: the zero page, struct boot_params, as far as the stub fills it
 * (boot/handoff_linux.c), and the setup header a bzImage carries at the same offsets, as far
 * as kslide-pack reads it (tools/pack/bzimage.c). Offsets from Linux's
 * Documentation/arch/x86/zero-page.rst and boot.rst ("The real-mode kernel header"). The
 * setup header, at ZP_SETUP_HEADER, is the bzImage's own, copied from its offset 0x1f1.
 *
 *   0x000 | screen_info ... | 0x070 acpi_rsdp_addr | ... | 0x1c0 efi_info | 0x1e8 e820_entries
 *   0x1f1 | setup header (hdr): ... type_of_loader, loadflags, ... ramdisk, cmd_line_ptr ...
 *   0x2d0 | e820_table[128], 20 bytes each | ... | 4096
 */
#ifndef KSLIDE_PROTOCOL_LINUX_BOOT_H
#define KSLIDE_PROTOCOL_LINUX_BOOT_H

#define ZP_SIZE		     4096
#define ZP_ACPI_RSDP_ADDR    0x070 /* u64 */
#define ZP_EXT_RAMDISK_IMAGE 0x0c0 /* u32: bits 32..63 of ramdisk_image */
#define ZP_EXT_RAMDISK_SIZE  0x0c4
#define ZP_EXT_CMD_LINE_PTR  0x0c8
#define ZP_E820_ENTRIES	     0x1e8 /* u8 */
#define ZP_SETUP_HEADER	     0x1f1 /* where the setup header starts */
#define ZP_SENTINEL	     0x1ef /* u8: boot loaders that copy the header set it to 0 */
#define ZP_E820_TABLE	     0x2d0
#define ZP_E820_MAX	     128 /* entries the zero page holds */
#define ZP_E820_ENTRY_SIZE   20	 /* u64 addr, u64 size, u32 type */

/* efi_info (struct efi_info), as Linux's EFI stub fills it (setup_efi_info): u32 each. */
#define ZP_EFI_LOADER_SIGNATURE 0x1c0
#define ZP_EFI_SYSTAB		0x1c4
#define ZP_EFI_MEMDESC_SIZE	0x1c8
#define ZP_EFI_MEMDESC_VERSION	0x1cc
#define ZP_EFI_MEMMAP		0x1d0
#define ZP_EFI_MEMMAP_SIZE	0x1d4
#define ZP_EFI_SYSTAB_HI	0x1d8
#define ZP_EFI_MEMMAP_HI	0x1dc
#define EFI64_LOADER_SIGNATURE	0x34364c45 /* "EL64" */
#define ZP_SECURE_BOOT		0x1ec	   /* u8: enum efi_secureboot_mode */

/* Setup header fields, by their offset in the zero page and in the bzImage file alike. */
#define HDR_SETUP_SECTS	       0x1f1 /* u8: 512-byte setup sectors after the boot sector */
#define HDR_BOOT_FLAG	       0x1fe /* u16 0xAA55 */
#define HDR_JUMP	       0x200 /* u8 0xEB, s8: the header ends at 0x202 plus this */
#define HDR_HEADER	       0x202 /* u32 "HdrS" */
#define HDR_VERSION	       0x206 /* u16 boot protocol version */
#define HDR_KERNEL_VERSION     0x20e /* u16: its version string lies at 0x200 + this, or 0 */
#define HDR_TYPE_OF_LOADER     0x210 /* u8 */
#define HDR_LOADFLAGS	       0x211 /* u8 */
#define HDR_RAMDISK_IMAGE      0x218 /* u32 */
#define HDR_RAMDISK_SIZE       0x21c /* u32 */
#define HDR_CMD_LINE_PTR       0x228 /* u32 */
#define HDR_INITRD_ADDR_MAX    0x22c /* u32: highest address the initrd may end at, inclusive */
#define HDR_KERNEL_ALIGNMENT   0x230 /* u32 (2.05+) */
#define HDR_RELOCATABLE	       0x234 /* u8 (2.05+) */
#define HDR_MIN_ALIGNMENT      0x235 /* u8, log2 (2.10+) */
#define HDR_XLOADFLAGS	       0x236 /* u16 (2.12+) */
#define HDR_CMDLINE_SIZE       0x238 /* u32: longest command line, without its NUL (2.06+) */
#define HDR_PAYLOAD_OFFSET     0x248 /* u32 (2.08+) */
#define HDR_PAYLOAD_LENGTH     0x24c /* u32 (2.08+) */
#define HDR_SETUP_DATA	       0x250 /* u64 */
#define HDR_PREF_ADDRESS       0x258 /* u64 (2.10+) */
#define HDR_INIT_SIZE	       0x260 /* u32 (2.10+) */
#define HDR_END_MIN	       0x264 /* the header up to init_size: boot protocol 2.10 */
#define HDR_HANDOVER_OFFSET    0x264 /* u32 (2.11+) */
#define HDR_KERNEL_INFO_OFFSET 0x268 /* u32 (2.15+) */

#define BOOT_FLAG_MAGIC		   0xaa55
#define HDRS_MAGIC		   0x53726448 /* "HdrS" */
#define SHORT_JUMP_OPCODE	   0xeb
#define SETUP_SECTS_LEGACY	   4	/* setup_sects 0 means 4 (boot.rst, note 1) */
#define LOADER_UNDEFINED	   0xff /* type_of_loader for a loader without an assigned number */
#define LOADFLAGS_LOADED_HIGH	   (1u << 0)
#define LOADFLAGS_KASLR		   (1u << 1) /* KASLR_FLAG: the kernel was placed at random */
#define XLF_KERNEL_64		   (1u << 0) /* xloadflags: a 64-bit entry at the load address + 0x200 */
#define XLF_CAN_BE_LOADED_ABOVE_4G (1u << 1)

#endif
