/*
 * The translation of boot/multiboot1_to_2.h, counted and then written by one walk
 * (boot/multiboot2_writer.h).
 */
#include "boot/acpi_rsdp.h"
#include "boot/multiboot1_to_2.h"
#include "boot/multiboot2_writer.h"
#include "include/protocol/acpi_rsdp.h"
#include "include/protocol/multiboot1.h"
#include "include/protocol/multiboot2.h"
#include "lib/cmdline.h"
#include "lib/errors.h"
#include "lib/string.h"
#include "lib/unaligned.h"

#define INFO_READ 68	    /* through boot_loader_name, the last field read */
#define MB1_MEM_LOWER 4	    /* KiB below 1 MiB */
#define STRING_MAX 4096	    /* as multiboot1_parse accepts */
#define MMAP_VERSION 0	    /* Multiboot2 2.0, 3.6.8 */

/* A string tag's text, NUL included; "" for address 0. KS_EFORMAT when unreadable. */
static int put_string(struct mb2_writer *w, const struct phys_reader *mem, uint32_t addr,
		      size_t skip)
{
	uint64_t len = 0;
	const char *s = addr ? bootenv_string(mem, addr, STRING_MAX, &len) : "";
	if (!s)
		return KS_EFORMAT;
	if (skip)
		skip = cmdline_image_path_length(s);
	mb2_put(w, s + skip, (uint32_t)(len - skip) + 1);
	return KS_OK;
}

static int put_modules(struct mb2_writer *w, const struct phys_reader *mem, const uint8_t *info)
{
	uint32_t count = load_le32(info + MB1_INFO_MODS_COUNT);
	if (count == 0)
		return KS_OK;
	const uint8_t *list = mem->read(mem->ctx, load_le32(info + MB1_INFO_MODS_ADDR),
					(uint64_t)count * MB1_MODULE_SIZE);
	if (!list)
		return KS_EFORMAT;
	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *m = list + i * MB1_MODULE_SIZE;
		uint32_t tag = mb2_tag_open(w, MB2_INFO_TAG_MODULE);
		mb2_put32(w, load_le32(m));
		mb2_put32(w, load_le32(m + 4));
		if (put_string(w, mem, load_le32(m + 8), 0) != KS_OK)
			return KS_EFORMAT;
		mb2_tag_close(w, tag);
	}
	return KS_OK;
}

/* Multiboot 1 entries carry their own size (20 or more, not counting itself); Multiboot 2's
 * are all entry_size long: base, length, type, a reserved zero. */
static int put_mmap(struct mb2_writer *w, const struct phys_reader *mem, const uint8_t *info)
{
	uint32_t length = load_le32(info + MB1_INFO_MMAP_LENGTH);
	const uint8_t *p = mem->read(mem->ctx, load_le32(info + MB1_INFO_MMAP_ADDR), length);
	if (!p)
		return KS_EFORMAT;
	uint32_t tag = mb2_tag_open(w, MB2_INFO_TAG_MMAP);
	mb2_put32(w, MB2_MMAP_ENTRY_MIN);
	mb2_put32(w, MMAP_VERSION);
	for (uint32_t off = 0; off < length;) {
		uint32_t size = length - off >= 4 ? load_le32(p + off) : 0;
		if (size < MB1_MMAP_ENTRY_MIN || size > length - off - 4)
			return KS_EFORMAT;
		const uint8_t *e = p + off + 4;
		mb2_put64(w, load_le64(e));
		mb2_put64(w, load_le64(e + 8));
		mb2_put32(w, load_le32(e + 16));
		mb2_put32(w, 0);
		off += size + 4;
	}
	mb2_tag_close(w, tag);
	return KS_OK;
}

static int put_rsdp(struct mb2_writer *w, const struct phys_reader *mem)
{
	uint32_t size;
	uint64_t at = acpi_rsdp_find(mem, &size);
	if (!at)
		return KS_OK;
	const uint8_t *rsdp = mem->read(mem->ctx, at, size);
	if (!rsdp)
		return KS_EFORMAT;
	/* GRUB's old tag holds a revision 0 RSDP, its new tag a later one. */
	uint32_t tag = mb2_tag_open(w, size == ACPI_RSDP_V1_BYTES ? MB2_INFO_TAG_ACPI_OLD : MB2_INFO_TAG_ACPI_NEW);
	mb2_put(w, rsdp, size);
	mb2_tag_close(w, tag);
	return KS_OK;
}

static int write_info(struct mb2_writer *w, const struct phys_reader *mem, const uint8_t *info)
{
	uint32_t flags = load_le32(info + MB1_INFO_FLAGS);
	int rc = KS_OK;
	mb2_start(w);
	if (flags & MB1_INFO_CMDLINE) {
		uint32_t tag = mb2_tag_open(w, MB2_INFO_TAG_CMDLINE);
		rc = put_string(w, mem, load_le32(info + MB1_INFO_CMDLINE_ADDR), 1);
		mb2_tag_close(w, tag);
	}
	if (rc == KS_OK && (flags & MB1_INFO_LOADER_NAME)) {
		uint32_t tag = mb2_tag_open(w, MB2_INFO_TAG_LOADER_NAME);
		rc = put_string(w, mem, load_le32(info + MB1_INFO_LOADER_NAME_ADDR), 0);
		mb2_tag_close(w, tag);
	}
	if (rc == KS_OK && (flags & MB1_INFO_MODS))
		rc = put_modules(w, mem, info);
	if (rc == KS_OK && (flags & MB1_INFO_MEM)) {
		uint32_t tag = mb2_tag_open(w, MB2_INFO_TAG_BASIC_MEMINFO);
		mb2_put32(w, load_le32(info + MB1_MEM_LOWER));
		mb2_put32(w, load_le32(info + MB1_INFO_MEM_UPPER));
		mb2_tag_close(w, tag);
	}
	if (rc == KS_OK && (flags & MB1_INFO_MMAP))
		rc = put_mmap(w, mem, info);
	if (rc == KS_OK)
		rc = put_rsdp(w, mem);
	mb2_finish(w);
	return rc;
}

int multiboot1_to_2(const struct phys_reader *mem, uint32_t info_addr, memory_lender lend,
		    uint64_t *out, const char **why)
{
	const uint8_t *info = mem->read(mem->ctx, info_addr, INFO_READ);
	struct mb2_writer count = { 0 }, w = { 0 };
	if (!info || write_info(&count, mem, info) != KS_OK) {
		*why = "the Multiboot 1 information cannot be read for a Multiboot 2 kernel";
		return KS_EFORMAT;
	}
	if (lend(count.at, out) != KS_OK) {
		*why = "no free memory below 4 GiB for the Multiboot 2 information";
		return KS_ENOENT;
	}
	w.dst = (uint8_t *)(uintptr_t)*out;
	return write_info(&w, mem, info);
}
