/*
 * The PVH container: an ELF64 for the monitors that start a kernel through its PVH note
 * (QEMU's -kernel with an ELF, under -M pc and -M microvm; Firecracker and Cloud Hypervisor,
 * which load ELF64 only, hence ELF64 rather than ELF32, which QEMU alone would take too). One
 * PT_LOAD puts the packed image where the stub is linked; one PT_NOTE points at the note the
 * stub carries (boot/x86_64/pvh_header.S), which names its 32-bit entry. The ELF headers come
 * before the image in the file and are not loaded:
 *
 *   offset 0        PVH_PREFIX (one page, so that file offset and address agree modulo 4 KiB)
 *   | Ehdr | PT_LOAD | PT_NOTE | 0... | stub (its PVH note inside) | payload | relocs | data |
 *                                     ^ loaded at the stub's link address, p_filesz = p_memsz
 *
 * QEMU looks for a Multiboot header first and would load the file as a Multiboot image if it
 * found one in the first 8 KiB; GRUB looks in the first 32 KiB. The stub's own Multiboot
 * headers (outside the part it checks itself) are cleared here, so that nothing but PVH can
 * start the file, and the result is checked for any that is left.
 */
#include <elf.h>
#include <string.h>

#include "include/protocol/multiboot1.h"
#include "include/protocol/multiboot2.h"
#include "include/protocol/pvh.h"
#include "lib/unaligned.h"
#include "tools/pack/compress.h"
#include "tools/pack/container.h"
#include "tools/pack/fail.h"
#include "tools/pack/multiboot_header.h"

#define PVH_PREFIX 4096
#define PAGE 4096
/* The stub's note: three words, "Xen" with its NUL, a 64-bit address; then pvh_load_end. */
#define NOTE_HEADER 12
#define NOTE_DESC_SIZE 8
#define NOTE_SIZE (NOTE_HEADER + PVH_NOTE_NAME_SIZE + NOTE_DESC_SIZE)
#define NOTE_LOAD_END NOTE_SIZE
#define NOTE_ALIGN 4

/* Offset of the stub's PVH note in image (its first 'size' bytes), or -1. */
static long find_note(const uint8_t *image, size_t size)
{
	for (size_t off = 0; off + NOTE_SIZE + 4 <= size; off += NOTE_ALIGN) {
		const uint8_t *n = image + off;
		if (load_le32(n) == PVH_NOTE_NAME_SIZE && load_le32(n + 4) == NOTE_DESC_SIZE &&
		    load_le32(n + 8) == XEN_ELFNOTE_PHYS32_ENTRY &&
		    !memcmp(n + NOTE_HEADER, PVH_NOTE_NAME, PVH_NOTE_NAME_SIZE))
			return (long)off;
	}
	return -1;
}

static int check_stub(const uint8_t *stub, size_t stub_size, uint64_t *load_address, char *err,
		      size_t err_cap)
{
	long note = find_note(stub, stub_size);
	if (note < 0)
		return pack_fail(err, err_cap, "the i386 stub has no PVH entry: --format pvh is "
					       "for x86-64 kernels");
	/* pvh_load_end holds the stub's end as linked: the link address follows from it. */
	uint32_t end = load_le32(stub + note + NOTE_LOAD_END);
	uint64_t entry = load_le64(stub + note + NOTE_HEADER + PVH_NOTE_NAME_SIZE);
	if (end < stub_size || entry < end - stub_size || entry >= end)
		return pack_fail(err, err_cap,
				 "internal error: the embedded stub's PVH note names no entry in it");
	*load_address = end - stub_size;
	return 0;
}

/* Clear the magic of each Multiboot header a loader would find, so that none does. */
static void clear_multiboot(uint8_t *file, size_t size)
{
	for (long at; (at = multiboot1_header_find(file, size)) >= 0;)
		store_le32(file + at, 0);
	for (long at; (at = multiboot2_header_find(file, size)) >= 0;)
		store_le32(file + at, 0);
}

static int finish(uint8_t *file, size_t file_size, size_t stub_size,
		  const struct pack_options *opt, char *err, size_t err_cap)
{
	(void)opt; /* a Multiboot kernel's requests have no PVH field to go in */
	uint8_t *image = file + PVH_PREFIX;
	size_t image_size = file_size - PVH_PREFIX;
	uint64_t load;
	if (check_stub(image, stub_size, &load, err, err_cap))
		return -1;
	long note = find_note(image, stub_size);
	if (load + image_size > UINT32_MAX)
		return pack_fail(err, err_cap, "the image is too large for a PVH monitor to load "
					       "below 4 GiB");
	store_le32(image + note + NOTE_LOAD_END, (uint32_t)(load + image_size));
	clear_multiboot(file, file_size);

	Elf64_Ehdr eh = {
		.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB, EV_CURRENT },
		.e_type = ET_EXEC,
		.e_machine = EM_X86_64,
		.e_version = EV_CURRENT,
		/* The 32-bit entry; a monitor that ignores the note and enters here in long mode
		 * would not start the stub (docs/microvm.md). */
		.e_entry = load_le64(image + note + NOTE_HEADER + PVH_NOTE_NAME_SIZE),
		.e_phoff = sizeof(Elf64_Ehdr),
		.e_ehsize = sizeof(Elf64_Ehdr),
		.e_phentsize = sizeof(Elf64_Phdr),
		.e_phnum = 2,
	};
	Elf64_Phdr ph[2] = {
		{ .p_type = PT_LOAD, .p_flags = PF_R | PF_W | PF_X, .p_offset = PVH_PREFIX,
		  .p_vaddr = load, .p_paddr = load, .p_filesz = image_size, .p_memsz = image_size,
		  .p_align = PAGE },
		/* QEMU reads the descriptor after the name rounded up to p_align. */
		{ .p_type = PT_NOTE, .p_flags = PF_R, .p_offset = PVH_PREFIX + (uint64_t)note,
		  .p_vaddr = load + (uint64_t)note, .p_paddr = load + (uint64_t)note,
		  .p_filesz = NOTE_SIZE, .p_memsz = NOTE_SIZE, .p_align = NOTE_ALIGN },
	};
	memcpy(file, &eh, sizeof(eh));
	memcpy(file + sizeof(eh), ph, sizeof(ph));
	if (multiboot1_header_find(file, file_size) >= 0 ||
	    multiboot2_header_find(file, file_size) >= 0)
		return pack_fail(err, err_cap,
				 "internal error: a Multiboot header is left in the PVH image");
	return 0;
}

/* By the PT_LOAD of an ELF64 this container wrote: its address, and its offset in the file. */
static int64_t load_address(const uint8_t *file, size_t size, size_t *image_at)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	if (size < PVH_PREFIX || memcmp(file, ELFMAG, SELFMAG) || file[EI_CLASS] != ELFCLASS64)
		return -1;
	memcpy(&eh, file, sizeof(eh));
	if (eh.e_phoff != sizeof(eh) || eh.e_phnum < 1 || eh.e_phentsize != sizeof(ph))
		return -1;
	memcpy(&ph, file + eh.e_phoff, sizeof(ph));
	if (ph.p_type != PT_LOAD || ph.p_offset > size || ph.p_filesz > size - ph.p_offset)
		return -1;
	*image_at = (size_t)ph.p_offset;
	return (int64_t)ph.p_paddr;
}

const struct container container_pvh = {
	.name = "pvh",
	.what = "ELF64 with a PVH note, for microVM monitors (QEMU -kernel)",
	.prefix = PVH_PREFIX,
	/* MicroVM monitors keep kernels uncompressed to boot fast: so does this container. */
	.codec_default = KSLIDE_CODEC_NONE,
	.check_stub = check_stub,
	.finish = finish,
	.load_address = load_address,
};
