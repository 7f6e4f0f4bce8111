/* A kernel ELF file read into what the packer needs: its loadable bytes and its relocations. */
#ifndef KSLIDE_TOOLS_PACK_KERNEL_ELF_H
#define KSLIDE_TOOLS_PACK_KERNEL_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "include/kslide/image.h"
#include "lib/reloc.h"

struct fixup {
	uint64_t offset; /* from the payload's first byte */
	enum reloc_kind kind;
};

/*
 * A PT_LOAD segment as laid out in the payload. A fixed segment is Linux's x86-64 per-CPU area:
 * linked at virtual 0 (its symbols are offsets into each CPU's copy of it), loaded inside the
 * image at its physical address; its link-time addresses do not move with the kernel
 * (arch/x86/tools/relocs.c), though its bytes travel in the payload like any others.
 */
struct kernel_segment {
	uint64_t offset; /* of its first byte in the payload */
	uint64_t file_size;
	uint64_t mem_size;
	uint64_t vaddr; /* as linked */
	bool fixed;
	bool executable; /* PF_X */
};

struct kernel_elf {
	unsigned arch; /* KSLIDE_ARCH_* */
	uint8_t *payload; /* file-backed bytes, file_size long */
	uint64_t file_size;
	uint64_t mem_size;
	uint64_t link_phys;
	uint64_t link_virt;
	uint64_t entry_offset;
	struct kernel_segment *segments;
	size_t segment_count;
	struct fixup *fixups;
	size_t fixup_count;
	size_t fixup_cap;
	/*
	 * Which slide the fixups add. i386: the physical one, and the virtual base moves with
	 * it. x86-64: the virtual one; the stub places the physical and virtual bases
	 * independently, and every absolute reference in a -mcmodel=kernel kernel is virtual.
	 */
	bool fixups_follow_virt;
	/*
	 * Single slide (--handoff multiboot): physical and virtual bases move by one delta, so
	 * each segment keeps its own virtual-to-physical offset, whatever it is; an x86-64
	 * kernel is then run by the i386 stub, which enters it in 32-bit protected mode as its
	 * Multiboot loader would.
	 */
	bool single_slide;
	/* Why the segments need a single slide: they differ in virtual-to-physical offset (the
	 * message names the first two); empty when they all share one. */
	char offsets_differ[320];
	/* Set when e_entry lies in file bytes of a segment without PF_X: allowed (warned of) for
	 * a Multiboot entry only, which runs with paging off. */
	char entry_not_code[128];
	uint64_t max_segment_align; /* the largest p_align of the segments that move */
	bool pie; /* x86-64 static PIE (ET_DYN, or PT_DYNAMIC): fixups from dynamic relocations */
	size_t skipped_pcrel; /* PC-relative references inside the image: need nothing */
	size_t skipped_absolute; /* references to SHN_ABS symbols: must not move */
	size_t skipped_weak;	 /* references to undefined weak symbols: hold 0, stay 0 */
	size_t skipped_fixed;	 /* absolute references into a fixed segment: stay put */
	size_t skipped_notes;	 /* fields in SHT_NOTE sections: read at link addresses, pre-boot */
};

/*
 * Read the ELF image in buf (len bytes). On error returns -1 after writing a message of the
 * form "what is wrong" into err (no file name; the caller adds it).
 */
int kernel_elf_read(const uint8_t *buf, size_t len, struct kernel_elf *out, char *err,
		    size_t err_cap);

/*
 * The same without relocation sections: segments, payload and entry only, for a kernel whose
 * fixups come from elsewhere (a bzImage's appended lists: tools/pack/linux_image.h).
 */
int kernel_elf_read_segments(const uint8_t *buf, size_t len, struct kernel_elf *out, char *err,
			     size_t err_cap);

/*
 * Bytes an ELF file occupies: the furthest end of its headers, header tables and section
 * contents. 0 if it is not an ELF file libelf can read.
 */
uint64_t kernel_elf_file_extent(const uint8_t *buf, size_t len);

/* The architecture of the stub that runs the kernel (KSLIDE_ARCH_*): the i386 one for an i386
 * kernel and for a single-slide x86-64 kernel, entered in 32-bit protected mode. */
static inline unsigned kernel_elf_stub_arch(const struct kernel_elf *k)
{
	return k->single_slide ? KSLIDE_ARCH_I386 : k->arch;
}

/* Whether the payload byte at offset is code: in the file bytes of an executable segment. */
bool kernel_elf_runs_code_at(const struct kernel_elf *k, uint64_t offset);
void kernel_elf_free(struct kernel_elf *k);

#endif
