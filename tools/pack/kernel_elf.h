/* A kernel ELF file read into what the packer needs: its loadable bytes and its relocations. */
#ifndef KSLIDE_TOOLS_PACK_KERNEL_ELF_H
#define KSLIDE_TOOLS_PACK_KERNEL_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/reloc.h"

struct fixup {
	uint64_t offset; /* from the payload's first byte */
	enum reloc_kind kind;
};

struct kernel_elf {
	unsigned arch; /* KSLIDE_ARCH_* */
	uint8_t *payload; /* file-backed bytes, file_size long */
	uint64_t file_size;
	uint64_t mem_size;
	uint64_t link_phys;
	uint64_t link_virt;
	uint64_t entry_offset;
	struct fixup *fixups;
	size_t fixup_count;
	size_t fixup_cap;
	/*
	 * Which slide the fixups add. i386: the physical one, and the virtual base moves with
	 * it. x86-64: the virtual one; the stub places the physical and virtual bases
	 * independently, and every absolute reference in a -mcmodel=kernel kernel is virtual.
	 */
	bool fixups_follow_virt;
	bool pie; /* x86-64 static PIE (ET_DYN, or PT_DYNAMIC): fixups from dynamic relocations */
	size_t skipped_pcrel; /* PC-relative references inside the image: need nothing */
	size_t skipped_absolute; /* references to SHN_ABS symbols: must not move */
};

/*
 * Read the ELF image in buf (len bytes). On error returns -1 after writing a message of the
 * form "what is wrong" into err (no file name; the caller adds it).
 */
int kernel_elf_read(const uint8_t *buf, size_t len, struct kernel_elf *out, char *err,
		    size_t err_cap);
void kernel_elf_free(struct kernel_elf *k);

#endif
