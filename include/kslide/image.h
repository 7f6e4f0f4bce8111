/*
 * The packed image kslide-pack writes and the stub reads (docs/format.md).
 *
 *   file offset 0                                                          image_file_size
 *   | stub: Multiboot headers, this header, code, data, zeroed bss | payload | relocs | data | shuffle |
 *   ^ loaded at the stub's link address by the boot loader
 *
 * The payload is the kernel's loadable bytes as they sit in memory from link_phys_base
 * (payload_file_size bytes, followed in memory by zeros up to payload_mem_size), stored as
 * payload_stored_size bytes of payload_codec; a compressed image stores its relocation table
 * compressed too, in a frame of its own. The handoff data is what the chosen handoff needs
 * besides the kernel (Linux: its setup header). Three checks cover the file (docs/format.md):
 * stub_sum the stub's own bytes after this header, checked first of all; the CRC-32 in
 * 'checksum' this header (with checksum = 0), the relocation table as stored and the handoff
 * data; payload_sum the payload as stored, taken while the stub copies it.
 */
#ifndef KSLIDE_IMAGE_H
#define KSLIDE_IMAGE_H

/* Bytes reserved after the stub's Multiboot2 end tag for a packed kernel's own header tags
 * (boot/x86/multiboot2_header.S, tools/pack/multiboot_header.c). */
#define KSLIDE_MB2_KERNEL_TAGS_ROOM 512

/* Offsets in struct kslide_image_header of what the stub's entry code reads before anything
 * else runs (boot/x86/self_check.h); lib/image.c asserts them. */
#define KSLIDE_HEADER_STUB_SUM 172
#define KSLIDE_HEADER_STUB_SUM_OF_SUMS 176

/* How the stub enters the kernel (boot/handoff_*.c; kslide-pack --handoff NAME). Plain
 * numbers: assembler code (include/kslide/kernel.h) uses them too. */
#define KSLIDE_HANDOFF_KSLIDE 1    /* "kslide": struct kslide_bootinfo (include/kslide/bootinfo.h) */
#define KSLIDE_HANDOFF_MULTIBOOT 2 /* "multiboot": the loader's own Multiboot info, passed on */
#define KSLIDE_HANDOFF_LINUX 3     /* "linux": Linux's boot protocol, a zero page */
#define KSLIDE_HANDOFF_KSLIDE_NAME "kslide"
#define KSLIDE_HANDOFF_MULTIBOOT_NAME "multiboot"
#define KSLIDE_HANDOFF_LINUX_NAME "linux"

/* Every handoff once, X(id, name, what the kernel gets): kslide-pack's --handoff table; each
 * boot/handoff_*.c names itself with its _NAME. A new handoff is a line here. */
#define KSLIDE_HANDOFF_LIST(X)                                                                   \
	X(KSLIDE_HANDOFF_KSLIDE, KSLIDE_HANDOFF_KSLIDE_NAME,                                     \
	  "kslide's boot info (include/kslide/bootinfo.h)")                                      \
	X(KSLIDE_HANDOFF_MULTIBOOT, KSLIDE_HANDOFF_MULTIBOOT_NAME,                               \
	  "the loader's own Multiboot info (include/kslide/multiboot.h)")                        \
	X(KSLIDE_HANDOFF_LINUX, KSLIDE_HANDOFF_LINUX_NAME,                                       \
	  "Linux's boot protocol, a zero page around a bzImage's setup header")

#ifndef __ASSEMBLER__
#include <stdint.h>

#define KSLIDE_IMAGE_MAGIC "KSLIDEIM"
#define KSLIDE_IMAGE_MAGIC_BYTES 8
#define KSLIDE_IMAGE_VERSION 6u

#define KSLIDE_ARCH_I386 1u
#define KSLIDE_ARCH_X86_64 2u

/* payload_codec: how the payload is stored (kslide-pack --compress NAME) */
#define KSLIDE_CODEC_NONE 0u /* the kernel's bytes as they are */
#define KSLIDE_CODEC_ZSTD 1u /* Zstandard frames (RFC 8878); lib/zstd.h */
#define KSLIDE_CODEC_LZ4 2u  /* LZ4 frames; lib/lz4.h */

/* flags */
#define KSLIDE_IMAGE_NOKASLR_DEFAULT (1u << 0) /* boot at the link base unless "kaslr" is given */
/* kslide.phys= (kslide.virt=) on the command line chooses the base: for reproducing a
 * placement, never for an image in use (kslide-pack --debug-placement) */
#define KSLIDE_IMAGE_DEBUG_PLACEMENT (1u << 1)
/* The Multiboot handoff adds kslide's tag to the Multiboot 2 information (kslide-pack
 * --kslide-tag); without it the kernel gets the loader's tags only (include/kslide/multiboot.h) */
#define KSLIDE_IMAGE_KSLIDE_TAG (1u << 2)
/* The Multiboot kernel has only a Multiboot 2 header: started by a Multiboot 1 loader (the
 * image carries both headers), the Multiboot handoff gives it Multiboot 2 information
 * translated from the loader's (boot/multiboot1_to_2.h) */
#define KSLIDE_IMAGE_MULTIBOOT2_KERNEL (1u << 3)
/* The image ends in a shuffle table (lib/shuffle.h; kslide-pack --shuffle): the bytes after
 * the handoff data up to image_file_size, covered by the checksum. The stub lays the kernel's
 * function sections out in a random order at every boot. Without the flag nothing follows
 * the handoff data, so an image without --shuffle is laid out as before. */
#define KSLIDE_IMAGE_SHUFFLE (1u << 4)


struct kslide_image_header {
	uint8_t magic[KSLIDE_IMAGE_MAGIC_BYTES];
	uint32_t version;
	uint32_t header_size;
	uint32_t flags;
	uint32_t arch;

	uint64_t image_file_size; /* the whole packed file; the loader must have loaded this much */
	uint64_t payload_offset;  /* from the image's first byte */
	uint64_t payload_file_size;
	uint64_t payload_mem_size;
	uint64_t relocs_offset;
	uint64_t relocs_size;

	uint64_t link_phys_base;
	uint64_t link_virt_base;
	uint64_t entry_offset; /* entry point minus link base */

	uint64_t align;    /* the physical base is a multiple of this (power of two, >= 4 KiB) */
	uint64_t phys_min; /* lowest allowed physical base */
	uint64_t phys_max; /* highest allowed address of the kernel's last byte, inclusive */

	uint64_t virt_align; /* x86-64 only; 0 where the virtual base follows the physical one */
	uint64_t virt_min;
	uint64_t virt_max;

	/* Bytes from the base that must be free RAM, >= payload_mem_size: a kernel may use
	 * memory past its image early on (Linux's init_size). Slots are sized by it. */
	uint64_t memory_size;
	uint64_t handoff_data_offset; /* from the image's first byte */
	uint64_t handoff_data_size;
	uint32_t handoff; /* KSLIDE_HANDOFF_* */

	/* The stub's code, rodata and data as loaded, from the end of this header to the stub's
	 * end: the sum of its 32-bit words and the sum of the running sums (mod 2^32), which the
	 * entry code checks before it trusts any of it (boot/x86/self_check.h). */
	uint32_t stub_sum;
	uint32_t stub_sum_of_sums;

	/* CRC-32 (lib/crc32.h) of this header with checksum = 0, then the relocation table as
	 * stored (relocs_stored_size bytes), then the handoff data, then the shuffle table (the
	 * rest of the image: KSLIDE_IMAGE_SHUFFLE; none without it). */
	uint32_t checksum;

	/* The payload as stored. With a codec, payload_stored_size bytes at payload_offset decode
	 * to exactly payload_file_size bytes; with none the two are equal. */
	uint32_t payload_codec; /* KSLIDE_CODEC_* */
	uint32_t pad; /* zero: keeps the next field at the same offset on i386 as on x86-64 */
	uint64_t payload_stored_size;

	/* Format 5. The relocation table as stored: relocs_size bytes as they are with codec none
	 * or an empty table, otherwise one frame of payload_codec decoding to relocs_size bytes. */
	uint64_t relocs_stored_size;
	/* lib/word_sums.h over the payload as stored (payload_stored_size bytes at
	 * payload_offset): the sum of its 32-bit words and the sum of the running sums. */
	uint32_t payload_sum;
	uint32_t payload_sum_of_sums;

	/* Format 6. The table's frame decodes to relocs_size bytes of table, then this many
	 * bytes of runs: which fields no later zstd block reads, so that the stub patches them as
	 * soon as they are decoded (lib/reloc_schedule.h). 0 when the table is not compressed. */
	uint64_t relocs_runs_size;
};

#endif /* __ASSEMBLER__ */
#endif
