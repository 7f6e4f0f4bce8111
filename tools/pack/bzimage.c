/*
 * Reading a bzImage's setup header (tools/pack/bzimage.h). Offsets and protocol versions are
 * boot.rst's table "The Real-Mode Kernel Header"; each field is read only when the kernel's
 * protocol version has it.
 */
#include <string.h>

#include "include/protocol/linux_boot.h"
#include "tools/pack/bzimage.h"
#include "tools/pack/fail.h"

#define SECTOR_BYTES 512u
/* Protocol versions that introduced the fields read here. */
#define V_INITRD_ADDR_MAX 0x0203u
#define V_ALIGNMENT 0x0205u /* kernel_alignment, relocatable_kernel */
#define V_CMDLINE_SIZE 0x0206u
#define V_HANDOVER 0x020bu
#define V_KERNEL_INFO 0x020fu
/* Before 2.06 the command line could hold 255 characters (boot.rst, cmdline_size). */
#define LEGACY_CMDLINE_SIZE 255u
#define VERSION_BASE 0x200u /* kernel_version counts from here (boot.rst) */

static uint64_t get_le(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;
	for (unsigned i = bytes; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

bool bzimage_detect(const uint8_t *file, size_t len)
{
	return len >= HDR_HEADER + 4 && get_le(file + HDR_BOOT_FLAG, 2) == BOOT_FLAG_MAGIC &&
	       get_le(file + HDR_HEADER, 4) == HDRS_MAGIC;
}

/* A field of a header of at least version 'since' that ends inside the header, or 0. */
static uint64_t field(const uint8_t *file, const struct bzimage_header *h, unsigned offset,
		      unsigned bytes, uint16_t since)
{
	if (h->version < since || offset + bytes > BZIMAGE_HEADER_OFFSET + h->size)
		return 0;
	return get_le(file + offset, bytes);
}

/*
 * A bzImage that cannot be moved. Linux can be rebuilt relocatable; another kernel with this
 * header (memtest86+) cannot, and its version string says which: Linux's starts with its
 * release number ("6.1.0-..."), memtest86+'s with its name. Returns -1 with the message.
 */
static int not_relocatable(const uint8_t *file, size_t len, char *err, size_t err_cap)
{
	uint64_t offset = get_le(file + HDR_KERNEL_VERSION, 2), at = VERSION_BASE + offset;
	char version[48] = "";
	for (size_t i = 0; offset && at + i < len && i + 1 < sizeof(version) &&
			   file[at + i] >= ' ' && file[at + i] < 0x7f;
	     i++)
		version[i] = (char)file[at + i];
	if (version[0] >= '0' && version[0] <= '9')
		return pack_fail(err, err_cap,
				 "not a relocatable kernel (relocatable_kernel is 0): build "
				 "Linux with CONFIG_RELOCATABLE");
	return pack_fail(err, err_cap,
			 "not a relocatable kernel (relocatable_kernel is 0), and not Linux (its "
			 "version string is \"%s\"): kslide cannot move it; a kernel it can move "
			 "carries its relocations (an ELF linked with --emit-relocs)",
			 version);
}

int bzimage_parse(const uint8_t *file, size_t len, struct bzimage_header *h, char *err,
		  size_t err_cap)
{
	memset(h, 0, sizeof(*h));
	if (!bzimage_detect(file, len))
		return pack_fail(err, err_cap,
				 "not a bzImage (no boot flag 0xAA55 and \"HdrS\" at 0x202)");
	/* "HdrS" can end the file: the version after it is read only once it is there. */
	if (len < HDR_VERSION + 2)
		return pack_fail(err, err_cap, "truncated: the file ends inside its setup header");
	h->version = (uint16_t)get_le(file + HDR_VERSION, 2);
	if (h->version < BZIMAGE_PROTOCOL_PAYLOAD)
		return pack_fail(err, err_cap,
				 "boot protocol %u.%02u is too old: kslide needs 2.08 or "
				 "later, which names the payload",
				 h->version >> 8, h->version & 0xff);
	int8_t jump = (int8_t)file[HDR_JUMP + 1];
	if (file[HDR_JUMP] != SHORT_JUMP_OPCODE || HDR_HEADER + jump < HDR_PAYLOAD_LENGTH + 4)
		return pack_fail(err, err_cap,
				 "malformed setup header: the jump at 0x200 (%02x %02x) "
				 "does not end the header past its payload fields",
				 file[HDR_JUMP], file[HDR_JUMP + 1]);
	h->size = (uint32_t)(HDR_HEADER + jump - BZIMAGE_HEADER_OFFSET);
	if (BZIMAGE_HEADER_OFFSET + h->size > len)
		return pack_fail(err, err_cap, "truncated: the file ends inside its setup header");
	memcpy(h->bytes, file + BZIMAGE_HEADER_OFFSET, h->size);

	h->setup_sects = file[HDR_SETUP_SECTS];
	h->loadflags = file[HDR_LOADFLAGS];
	h->initrd_addr_max = (uint32_t)field(file, h, HDR_INITRD_ADDR_MAX, 4, V_INITRD_ADDR_MAX);
	h->kernel_alignment = (uint32_t)field(file, h, HDR_KERNEL_ALIGNMENT, 4, V_ALIGNMENT);
	h->relocatable_kernel = (uint8_t)field(file, h, HDR_RELOCATABLE, 1, V_ALIGNMENT);
	h->min_alignment_log2 = (uint8_t)field(file, h, HDR_MIN_ALIGNMENT, 1, BZIMAGE_PROTOCOL_PREF);
	h->xloadflags = (uint16_t)field(file, h, HDR_XLOADFLAGS, 2, BZIMAGE_PROTOCOL_XLOADFLAGS);
	h->cmdline_size = h->version < V_CMDLINE_SIZE
				  ? LEGACY_CMDLINE_SIZE
				  : (uint32_t)field(file, h, HDR_CMDLINE_SIZE, 4, V_CMDLINE_SIZE);
	h->pref_address = field(file, h, HDR_PREF_ADDRESS, 8, BZIMAGE_PROTOCOL_PREF);
	h->init_size = (uint32_t)field(file, h, HDR_INIT_SIZE, 4, BZIMAGE_PROTOCOL_PREF);
	h->handover_offset = (uint32_t)field(file, h, HDR_HANDOVER_OFFSET, 4, V_HANDOVER);
	h->kernel_info_offset = (uint32_t)field(file, h, HDR_KERNEL_INFO_OFFSET, 4, V_KERNEL_INFO);

	if (!(h->loadflags & LOADFLAGS_LOADED_HIGH))
		return pack_fail(err, err_cap,
				 "a zImage (loaded low, LOADED_HIGH clear), not a bzImage");
	if (!h->relocatable_kernel)
		return not_relocatable(file, len, err, err_cap);
	if (h->kernel_alignment == 0 || (h->kernel_alignment & (h->kernel_alignment - 1)))
		return pack_fail(err, err_cap, "kernel_alignment 0x%x is not a power of two",
				 h->kernel_alignment);
	if (h->min_alignment_log2 >= 32 || (h->min_alignment_log2 &&
					     (1ull << h->min_alignment_log2) > h->kernel_alignment))
		return pack_fail(err, err_cap, "min_alignment 2^%u exceeds kernel_alignment 0x%x",
				 h->min_alignment_log2, h->kernel_alignment);

	unsigned sects = h->setup_sects ? h->setup_sects : SETUP_SECTS_LEGACY;
	h->setup_bytes = (uint64_t)(sects + 1) * SECTOR_BYTES;
	uint64_t offset = get_le(file + HDR_PAYLOAD_OFFSET, 4);
	h->payload_length = get_le(file + HDR_PAYLOAD_LENGTH, 4);
	h->payload_offset = h->setup_bytes + offset;
	if (offset == 0 || h->payload_length == 0)
		return pack_fail(err, err_cap,
				 "the setup header names no payload (payload_offset 0x%llx, "
				 "payload_length %llu)",
				 (unsigned long long)offset, (unsigned long long)h->payload_length);
	if (h->payload_offset > len || h->payload_length > len - h->payload_offset)
		return pack_fail(err, err_cap,
				 "truncated: the payload (%llu bytes at 0x%llx) runs past "
				 "the end of the file (%zu bytes)",
				 (unsigned long long)h->payload_length,
				 (unsigned long long)h->payload_offset, len);
	return 0;
}
