/*
 * The kernel moved to its bases and relocated (stub_parts.h): mapped first, then copied and
 * patched in one pass, or, for a compressed payload, decoded straight into place with each
 * field patched as soon as the decoder is done with it.
 */
#include <stddef.h>
#include <stdint.h>

#include "boot/stub_parts.h"
#include "boot/wide_copy.h"
#include "lib/errors.h"
#include "lib/image.h"
#include "lib/lz4.h"
#include "lib/reloc.h"
#include "lib/reloc_schedule.h"
#include "lib/string.h"
#include "lib/word_sums.h"
#include "lib/zstd.h"

/* Decode one frame of the image's codec into dst, which it must fill exactly. */
static int decode(void *workspace, uint8_t *dst, size_t size, const uint8_t *src, size_t len,
		  const struct decode_progress *progress, const char **why)
{
	size_t got = 0;
	int rc = KS_EFORMAT;
	*why = "unknown codec";
	if (image_header.payload_codec == KSLIDE_CODEC_ZSTD)
		rc = zstd_decompress(workspace, ZSTD_WORKSPACE_SIZE, dst, size, src, len, &got,
				     progress, why);
	else if (image_header.payload_codec == KSLIDE_CODEC_LZ4)
		rc = lz4_decompress(dst, size, src, len, &got, progress, why);
	if (rc == KS_OK && got != size) {
		rc = KS_EFORMAT;
		*why = "it decodes to fewer bytes than the header says";
	}
	return rc;
}

/*
 * A compressed payload (docs/format.md): its relocation table decoded first, into lent memory;
 * then the payload decoded straight into the slot, no second copy, and each field relocated
 * as soon as the decoder will not read it again (lib/reloc_schedule.h: a zstd image's early
 * fields right after their block, the late ones at the frame's end; LZ4's a block behind);
 * then its bss cleared and the fields there patched. The stored bytes were summed before
 * anything moved (image_check), and decoding is deterministic, so a decode error here means a
 * packer or decoder fault, not a damaged file. The zstd workspace is lent memory too, a fixed
 * ZSTD_WORKSPACE_SIZE; the decoders refuse a window they cannot hold (lib/zstd.h).
 */
static int decode_and_relocate(const struct kslide_bootinfo *bi)
{
	const struct kslide_image_header *h = &image_header;
	uint8_t *dst = (uint8_t *)(uintptr_t)bi->phys_base;
	const uint8_t *payload = stub_image + h->payload_offset;
	const uint8_t *table = stub_image + h->relocs_offset;
	size_t size = (size_t)h->payload_file_size, stored = (size_t)h->payload_stored_size;
	void *workspace = NULL;
	uint64_t lent;
	const char *why;
	int rc = KS_OK;
	if (h->payload_codec == KSLIDE_CODEC_ZSTD &&
	    (rc = slots_lend(ZSTD_WORKSPACE_SIZE, &lent)) == KS_OK)
		workspace = (void *)(uintptr_t)lent;
	/* The table's frame holds its runs too (lib/reloc_schedule.h). */
	size_t table_size = (size_t)h->relocs_size, runs_size = (size_t)h->relocs_runs_size;
	if (rc == KS_OK && h->relocs_size != 0 &&
	    (rc = slots_lend(table_size + runs_size, &lent)) == KS_OK) {
		rc = decode(workspace, (uint8_t *)(uintptr_t)lent, table_size + runs_size, table,
			    (size_t)h->relocs_stored_size, NULL, &why);
		if (rc != KS_OK) {
			stub_error("cannot decompress the relocation table", why);
			return rc;
		}
		table = (const uint8_t *)(uintptr_t)lent;
	}
	if (rc != KS_OK) {
		stub_error("no memory for the decoder", ks_strerror(rc));
		return rc;
	}
	int64_t slide = (int64_t)kslide_virt_slide(bi);
	struct reloc_schedule schedule;
	reloc_schedule_init(&schedule, dst, h->payload_mem_size, table, table_size,
			    table + table_size, runs_size, slide);
	struct decode_progress progress = reloc_schedule_progress(&schedule);
	rc = decode(workspace, dst, size, payload, stored, &progress, &why);
	if (rc == KS_OK) {
		memset(dst + size, 0, (size_t)(h->payload_mem_size - size));
		rc = reloc_schedule_finish(&schedule);
	}
	int table_status = reloc_schedule_status(&schedule);
	if (rc == KS_EORDER && table_status == KS_EORDER) {
		/* Groups out of image order: decode again, which undoes the fields patched so far,
		 * then the general two-pass path. */
		rc = decode(workspace, dst, size, payload, stored, NULL, &why);
		if (rc == KS_OK) {
			memset(dst + size, 0, (size_t)(h->payload_mem_size - size));
			rc = reloc_apply(dst, h->payload_mem_size, table, h->relocs_size, slide);
			table_status = rc;
		}
	}
	if (rc != KS_OK && table_status == rc)
		stub_error("relocation table rejected", ks_strerror(rc));
	else if (rc != KS_OK)
		stub_error("cannot decompress the kernel", why);
	return rc;
}

/*
 * Map, copy, clear bss, apply the fixups. Absolute addresses in the image are virtual ones, so
 * they move by the virtual slide (on i386 the same as the physical one).
 */
int relocate_kernel(struct kslide_bootinfo *bi, struct kernel_mapping *mapping)
{
	const struct kslide_image_header *h = &image_header;
	*mapping = (struct kernel_mapping){
		.phys = bi->phys_base, .virt = bi->virt_base, .size = h->memory_size};
	/* The kernel's new home must not be lent out. */
	int rc = bootenv_avoid(&stub_env, bi->phys_base, h->memory_size);
	if (rc == KS_OK)
		rc = mapping_prepare(mapping, slots_lend);
	if (rc != KS_OK) {
		stub_error("cannot map the kernel", ks_strerror(rc));
		return rc;
	}
	bi->handoff_start = mapping->tables_start;
	bi->handoff_end = mapping->tables_end;
	if (h->payload_codec != KSLIDE_CODEC_NONE)
		return decode_and_relocate(bi);
	/* One pass: each block is summed as it is copied and patched while still in cache, the
	 * copy on the widest registers the CPU has (boot/wide_copy.h). */
	struct word_sums sums = {0, 0};
	struct wide_copy_saved saved;
	const struct move_routines *with = wide_copy_begin(&saved);
	rc = reloc_move_with((uint8_t *)(uintptr_t)bi->phys_base, stub_image + h->payload_offset,
			     h->payload_file_size, h->payload_mem_size, stub_image + h->relocs_offset,
			     h->relocs_size, (int64_t)kslide_virt_slide(bi), &sums, with);
	wide_copy_end(&saved);
	if (!image_payload_sums_match(h, &sums)) {
		image_reject(IMAGE_CORRUPT);
		return KS_EFORMAT;
	}
	if (rc != KS_OK)
		stub_error("relocation table rejected", ks_strerror(rc));
	return rc;
}
