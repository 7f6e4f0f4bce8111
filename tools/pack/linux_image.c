/*
 * bzImage to kernel_elf (tools/pack/linux_image.h): parse the setup header, decompress the
 * payload, read the vmlinux ELF at its start, and turn the relocation lists after it into
 * fixups, checking that the ELF is the kernel the header describes.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "include/kslide/image.h"
#include "tools/pack/fail.h"
#include "tools/pack/linux_image.h"

/* A decompressed payload larger than this is no kernel: kernel_elf.c allows a kernel to span
 * 1 GiB, and Debian's vmlinux and lists are 16 to 53 MB. Bounds what a size trailer can make
 * kslide-pack allocate. */
#define PAYLOAD_MAX_BYTES (1ull << 30)

/* The ELF must be the kernel the header describes: its arch, and linked where it prefers. */
static int check_matches_header(const struct bzimage_header *h, const struct kernel_elf *k,
				char *err, size_t err_cap)
{
	bool header_64 = h->xloadflags & XLF_KERNEL_64;
	bool elf_64 = k->arch == KSLIDE_ARCH_X86_64;
	/* XLF_KERNEL_64 came with xloadflags; before them the header does not say. */
	if (h->version >= BZIMAGE_PROTOCOL_XLOADFLAGS && header_64 != elf_64)
		return pack_fail(err, err_cap,
				 "the setup header describes %s kernel but the payload's "
				 "ELF is %s",
				 header_64 ? "a 64-bit (XLF_KERNEL_64)" : "a 32-bit",
				 elf_64 ? "x86-64" : "i386");
	if (k->pie)
		return pack_fail(err, err_cap, "the payload's ELF is a PIE, not a Linux vmlinux");
	if (h->pref_address && h->pref_address != k->link_phys)
		return pack_fail(err, err_cap,
				 "the payload's ELF is linked at physical 0x%llx but the "
				 "setup header's pref_address is 0x%llx",
				 (unsigned long long)k->link_phys,
				 (unsigned long long)h->pref_address);
	return 0;
}

/* The ELF part of a decompressed payload: segments and entry into k. */
static int read_vmlinux(const uint8_t *payload, size_t len, struct linux_image *li,
			struct kernel_elf *k, char *err, size_t err_cap)
{
	li->vmlinux_bytes = kernel_elf_file_extent(payload, len);
	if (li->vmlinux_bytes == 0)
		return pack_fail(err, err_cap,
				 "the decompressed payload is not an ELF file (it starts "
				 "%02x %02x %02x %02x)",
				 payload[0], len > 1 ? payload[1] : 0, len > 2 ? payload[2] : 0,
				 len > 3 ? payload[3] : 0);
	if (li->vmlinux_bytes > len)
		return pack_fail(err, err_cap,
				 "the payload's ELF needs %llu bytes, but the payload has "
				 "only %zu",
				 (unsigned long long)li->vmlinux_bytes, len);
	char why[400];
	if (kernel_elf_read_segments(payload, (size_t)li->vmlinux_bytes, k, why, sizeof(why)))
		return pack_fail(err, err_cap, "the payload's vmlinux: %s", why);
	return 0;
}

int linux_image_read(const uint8_t *file, size_t len, struct linux_image *li,
		     struct kernel_elf *k, char *err, size_t err_cap)
{
	memset(li, 0, sizeof(*li));
	memset(k, 0, sizeof(*k));
	if (bzimage_parse(file, len, &li->header, err, err_cap))
		return -1;
	const uint8_t *packed = file + li->header.payload_offset;
	size_t packed_len = (size_t)li->header.payload_length;
	li->codec = payload_codec_detect(packed, packed_len);
	uint8_t *payload;
	size_t payload_len;
	if (payload_decompress(packed, packed_len, PAYLOAD_MAX_BYTES, &payload, &payload_len, err,
			       err_cap))
		return -1;
	li->payload_bytes = payload_len;
	struct linux_relocs lists;
	int rc = read_vmlinux(payload, payload_len, li, k, err, err_cap);
	rc = rc ? rc : check_matches_header(&li->header, k, err, err_cap);
	rc = rc ? rc
		: linux_relocs_split(payload + li->vmlinux_bytes,
				     payload_len - (size_t)li->vmlinux_bytes,
				     k->arch == KSLIDE_ARCH_X86_64, &lists, err, err_cap);
	rc = rc ? rc : linux_relocs_fixups(&lists, k, err, err_cap);
	free(payload);
	if (rc) {
		kernel_elf_free(k);
		return -1;
	}
	memcpy(li->relocs, lists.count, sizeof(li->relocs));
	/* The range Linux needs from its load address before it reads the memory map. */
	li->memory_size = li->header.init_size > k->mem_size ? li->header.init_size : k->mem_size;
	return 0;
}
