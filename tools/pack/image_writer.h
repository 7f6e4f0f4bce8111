/* Assembling a packed image (include/kslide/image.h) and writing it atomically. */
#ifndef KSLIDE_TOOLS_PACK_IMAGE_WRITER_H
#define KSLIDE_TOOLS_PACK_IMAGE_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "tools/pack/container.h"
#include "tools/pack/kernel_elf.h"
#include "tools/pack/multiboot_header.h"

struct pack_options {
	uint64_t align;
	uint64_t min;      /* lowest physical base */
	uint64_t max;      /* the kernel must end at or below this address */
	int nokaslr_default;
	int debug_placement; /* KSLIDE_IMAGE_DEBUG_PLACEMENT: kslide.phys= is honoured */
	int kslide_tag; /* KSLIDE_IMAGE_KSLIDE_TAG: the Multiboot 2 information gets kslide's tag */
	/* x86-64: the virtual base is drawn on its own over [virt_min, virt_last]. */
	uint64_t virt_align;
	uint64_t virt_min;
	uint64_t virt_last; /* highest address the kernel's last byte may have */
	/* How the stub enters the kernel (KSLIDE_HANDOFF_*) and the bytes that handoff needs. */
	uint32_t handoff;
	const uint8_t *handoff_data;
	size_t handoff_data_size;
	/* Bytes from the base that must be free at entry; 0 means the kernel's memory size. */
	uint64_t memory_size;
	/* A Multiboot kernel's own requests, for the image's headers to repeat; or NULL. */
	const struct multiboot_requests *multiboot;
	/* How the payload is stored: KSLIDE_CODEC_* (tools/pack/compress.h). */
	uint32_t codec;
	/* The wrapper a loader reads (tools/pack/container.h); NULL for the default. */
	const struct container *container;
	/* --shuffle: the table the image ends in (lib/shuffle.h), or NULL for none. */
	const uint8_t *shuffle_table;
	size_t shuffle_table_size;
};

struct packed_image {
	uint8_t *bytes; /* the whole file: the container's prefix, then the image */
	size_t size;
	size_t image_at; /* where the image starts in it: the container's prefix */
	size_t relocs_size;
	size_t relocs_stored_size; /* relocs_size, or its frame's when compressed */
	size_t reloc_count;
	size_t early_reloc_count; /* patched as soon as decoded (zstd; lib/reloc_schedule.h) */
	size_t payload_stored_size;
	uint64_t load_address; /* where the container's loader puts the image */
};

/* Encode count fixups, sorted by offset and not overlapping, into a relocation table
 * (lib/reloc.h format). */
int pack_encode_fixups(const struct fixup *fixups, size_t count, uint8_t **table, size_t *size,
		       char *err, size_t err_cap);

/* Encode k's fixups into a relocation table (lib/reloc.h format). */
int pack_encode_relocs(const struct kernel_elf *k, uint8_t **table, size_t *size, char *err,
		       size_t err_cap);

/* Offset of the kslide header (its magic, on an 8-byte boundary) in a stub or image, or -1. */
long pack_find_kslide_header(const uint8_t *stub, size_t size);

/*
 * The stub that runs k in opt->container (KSLIDE_ARCH_*): kernel_elf_stub_arch's, but a
 * single-slide x86-64 kernel packed --format efi is run by the x86-64 stub, the one with an
 * EFI entry, which leaves long mode for it (boot/mode32.h); its virtual base follows the
 * physical one there too (no virtual window in the header).
 */
unsigned pack_stub_arch(const struct kernel_elf *k, const struct pack_options *opt);

/* Build the image from a stub binary and a kernel, in opt->container. */
int pack_build(const uint8_t *stub, size_t stub_size, const struct kernel_elf *k,
	       const struct pack_options *opt, struct packed_image *out, char *err, size_t err_cap);

#endif
