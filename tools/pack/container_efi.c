/*
 * The EFI container: a PE32+ EFI application (x86-64, subsystem 10) around the packed image, for
 * UEFI firmware to load and call (BOOTX64.EFI on an ESP, a boot entry, a boot manager's
 * chainload). The PE headers come before the image in the file and are not part of it; one
 * section holds the image, read, write and execute (the stub writes its own addresses):
 *
 *   offset 0     EFI_PREFIX (one page)          EFI_PREFIX + image, padded to PE_FILE_ALIGN
 *   | MZ | PE | COFF | optional | .text hdr | 0 | stub (its EFI mark inside) | payload | ... |
 *                                            ^ RVA = link address - ImageBase
 *
 * ImageBase is the stub's link address rounded down to 64 KiB (the PE rule), so that a loader
 * that honours it puts the stub where it is linked. Most do not (OVMF loads an application
 * wherever AllocatePages gives it room), and no .reloc is written: the stub moves its own
 * addresses by the distance between where it runs and where it is linked
 * (boot/x86/self_relocate.h), as Linux's EFI stub does since it dropped its .reloc (6.7), and
 * IMAGE_FILE_RELOCS_STRIPPED stays clear, so that a loader may put it anywhere. The entry is
 * the stub's EFI entry (boot/x86_64/efi_entry.S), found by the mark the stub carries.
 *
 * The file is a Multiboot image too, as Linux's bzImage is both a BIOS and an EFI image: the
 * stub's Multiboot headers (the first at file offset EFI_PREFIX, inside Multiboot 1's 8 KiB and
 * Multiboot 2's 32 KiB) are stretched over the image as in a flat one (container_multiboot.c).
 * Their address fields say where in memory the header lies relative to the load, so a loader
 * loads from the header's file offset less that distance: from EFI_PREFIX, the image, without
 * the PE's headers. QEMU's -kernel and GRUB's multiboot2 start the same file.
 */
#include <string.h>

#include "include/protocol/uefi.h"
#include "lib/unaligned.h"
#include "tools/pack/compress.h"
#include "tools/pack/container.h"
#include "tools/pack/fail.h"

#define EFI_PREFIX  4096
#define PE_AT	    0x40 /* the PE signature, right after the DOS header */
#define COFF_AT	    (PE_AT + 4)
#define OPT_AT	    (COFF_AT + PE_COFF_SIZE)
#define SECTION_AT  (OPT_AT + PE_OPT_SIZE)
#define HEADERS_END (SECTION_AT + PE_SECTION_SIZE)
_Static_assert(HEADERS_END <= EFI_PREFIX, "the PE headers fit before the image");

/* The stub's mark: KSLIDE_EFI_MARK, the entry's address, the stub's own (as linked). */
#define MARK_ENTRY KSLIDE_EFI_MARK_SIZE
#define MARK_LINK  (MARK_ENTRY + 8)
#define MARK_SIZE  (MARK_LINK + 8)

#define ROUND_UP(x, a) (((x) + (a)-1) / (a) * (a))

/* Offset of the stub's EFI mark in image (its first 'size' bytes), or -1. */
static long find_mark(const uint8_t *image, size_t size)
{
	for (size_t off = 0; off + MARK_SIZE <= size; off += 8)
		if (!memcmp(image + off, KSLIDE_EFI_MARK, KSLIDE_EFI_MARK_SIZE))
			return (long)off;
	return -1;
}

static int check_stub(const uint8_t *stub, size_t stub_size, uint64_t *load_address, char *err,
		      size_t err_cap)
{
	long mark = find_mark(stub, stub_size);
	if (mark < 0)
		return pack_fail(err, err_cap,
				 "the i386 stub has no EFI entry: --format efi is "
				 "for x86-64 kernels");
	uint64_t entry = load_le64(stub + mark + MARK_ENTRY);
	uint64_t load = load_le64(stub + mark + MARK_LINK);
	if (entry < load || entry - load >= stub_size || load < EFI_PREFIX ||
	    load % PE_SECTION_ALIGN)
		return pack_fail(
			err, err_cap,
			"internal error: the embedded stub's EFI mark names no entry in it");
	*load_address = load;
	return 0;
}

/* The PE checksum (as Windows' CheckSumMappedFile): the file's 16-bit words summed with their
 * carries folded back, the checksum field itself read as 0, plus the file's length. */
static uint32_t pe_checksum(const uint8_t *file, size_t size, size_t field)
{
	uint64_t sum = 0;
	for (size_t i = 0; i < size; i += 2) {
		uint32_t word = i + 1 < size ? load_le16(file + i) : file[i];
		if (i >= field && i < field + 4)
			word = 0;
		sum += word;
		sum = (sum & 0xffff) + (sum >> 16);
	}
	return (uint32_t)(sum + size);
}

static int finish(uint8_t *file, size_t file_size, size_t stub_size, const struct pack_options *opt,
		  char *err, size_t err_cap)
{
	uint8_t *image = file + EFI_PREFIX;
	size_t raw_size = file_size - EFI_PREFIX; /* the image, padded to PE_FILE_ALIGN */
	uint64_t load;
	if (check_stub(image, stub_size, &load, err, err_cap))
		return -1;
	/* A Multiboot image as well, the padding loaded with it (and a Multiboot kernel's
	 * requests in its headers: a PE has no field for them). */
	if (container_multiboot.finish(image, raw_size, stub_size, opt, err, err_cap))
		return -1;
	if (raw_size % PE_FILE_ALIGN)
		return pack_fail(err, err_cap, "internal error: the PE section is not padded");
	uint64_t entry = load_le64(image + find_mark(image, stub_size) + MARK_ENTRY);
	uint64_t base = (load - EFI_PREFIX) / PE_IMAGE_BASE_ALIGN * PE_IMAGE_BASE_ALIGN;
	uint64_t rva = load - base;
	uint64_t image_size = ROUND_UP(rva + raw_size, PE_SECTION_ALIGN);
	if (image_size > UINT32_MAX)
		return pack_fail(err, err_cap, "the image is too large for a PE (4 GiB)");

	store_le16(file, PE_DOS_MAGIC);
	store_le32(file + PE_DOS_LFANEW, PE_AT);
	store_le32(file + PE_AT, PE_SIGNATURE);

	uint8_t *coff = file + COFF_AT;
	store_le16(coff + 0, PE_MACHINE_AMD64);
	store_le16(coff + 2, 1); /* sections */
	/* TimeDateStamp, symbol table and count 0: the same input packs to the same bytes. */
	store_le16(coff + 16, PE_OPT_SIZE);
	store_le16(coff + 18,
		   PE_FILE_EXECUTABLE_IMAGE | PE_FILE_LARGE_ADDRESS | PE_FILE_DEBUG_STRIPPED);

	uint8_t *o = file + OPT_AT;
	store_le16(o + 0, PE_OPT_MAGIC_PE32PLUS);
	store_le32(o + 4, (uint32_t)raw_size);	      /* SizeOfCode */
	store_le32(o + 8, (uint32_t)raw_size);	      /* SizeOfInitializedData */
	store_le32(o + 16, (uint32_t)(entry - base)); /* AddressOfEntryPoint */
	store_le32(o + 20, (uint32_t)rva);	      /* BaseOfCode */
	store_le64(o + 24, base);		      /* ImageBase */
	store_le32(o + 32, PE_SECTION_ALIGN);
	store_le32(o + 36, PE_FILE_ALIGN);
	store_le32(o + 56, (uint32_t)image_size); /* SizeOfImage */
	/* SizeOfHeaders reaches the section's first byte: Authenticode hashes the headers up
	 * to SizeOfHeaders and then the sections, so bytes between the two would be in no
	 * signature (sbsign warns of such a gap and hashes it otherwise than the firmware). */
	store_le32(o + 60, EFI_PREFIX); /* SizeOfHeaders */
	store_le16(o + 68, PE_SUBSYSTEM_EFI_APPLICATION);
	/* DllCharacteristics 0: no NX_COMPAT, the one section is written and run. Stack and
	 * heap sizes 0: UEFI gives an application the firmware's stack. */
	store_le32(o + 108, PE_OPT_DIRECTORIES); /* all empty: no imports, no .reloc */

	uint8_t *s = file + SECTION_AT;
	memcpy(s, ".text", 5);
	store_le32(s + 8, (uint32_t)raw_size);	/* VirtualSize */
	store_le32(s + 12, (uint32_t)rva);	/* VirtualAddress */
	store_le32(s + 16, (uint32_t)raw_size); /* SizeOfRawData */
	store_le32(s + 20, EFI_PREFIX);		/* PointerToRawData */
	store_le32(s + 36, PE_SCN_CODE | PE_SCN_INITIALIZED_DATA | PE_SCN_EXECUTE | PE_SCN_READ |
				   PE_SCN_WRITE);
	return 0;
}

/* The checksum covers the whole file, the kslide header's sums included: last of all. */
static void seal(uint8_t *file, size_t file_size)
{
	size_t field = OPT_AT + PE_OPT_CHECKSUM;
	store_le32(file + field, pe_checksum(file, file_size, field));
}

/* By the one section of a PE this container wrote: its address, and its offset in the file. */
static int64_t load_address(const uint8_t *file, size_t size, size_t *image_at)
{
	if (size < EFI_PREFIX || load_le16(file) != PE_DOS_MAGIC ||
	    load_le32(file + PE_DOS_LFANEW) != PE_AT || load_le32(file + PE_AT) != PE_SIGNATURE ||
	    load_le16(file + OPT_AT) != PE_OPT_MAGIC_PE32PLUS || load_le16(file + COFF_AT + 2) < 1)
		return -1;
	uint32_t at = load_le32(file + SECTION_AT + 20);
	if (at > size || load_le32(file + SECTION_AT + 16) > size - at)
		return -1;
	*image_at = at;
	return (int64_t)(load_le64(file + OPT_AT + 24) + load_le32(file + SECTION_AT + 12));
}

const struct container container_efi = {
	.name = "efi",
	.what = "PE32+ EFI application, for UEFI firmware (BOOTX64.EFI)",
	.prefix = EFI_PREFIX,
	.file_align = PE_FILE_ALIGN,
	.codec_default = PACK_CODEC_AUTO,
	.check_stub = check_stub,
	.finish = finish,
	.seal = seal,
	.load_address = load_address,
};
