/*
 * The relocation lists Linux appends to vmlinux inside a bzImage's payload (written by
 * arch/x86/tools/relocs.c, emit_relocs; applied by arch/x86/boot/compressed/misc.c,
 * handle_relocations). Each entry is the 32-bit kernel virtual address of a field to patch
 * (on x86-64 sign-extended back to 64 bits); the decompressor reads them backwards from the
 * end of the payload, each list up to a zero:
 *
 *   i386:    ... vmlinux | 0 | 32-bit fields ...                                  | end
 *   x86-64:  ... vmlinux | 0 | 64-bit fields ... | 0 | inverse 32-bit ... | 0 | 32-bit ... | end
 *
 * Inverse 32-bit fields are PC-relative references from the kernel to its per-CPU area,
 * which does not move: they lose the slide (RELOC_SUB32S). Pure: no libraries.
 */
#ifndef KSLIDE_TOOLS_PACK_LINUX_RELOCS_H
#define KSLIDE_TOOLS_PACK_LINUX_RELOCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tools/pack/kernel_elf.h"

enum linux_reloc_list {
	LINUX_RELOCS_32,
	LINUX_RELOCS_INVERSE_32,
	LINUX_RELOCS_64,
	LINUX_RELOC_LISTS
};

struct linux_relocs {
	const uint8_t *entries[LINUX_RELOC_LISTS]; /* each list's first entry, in file order */
	size_t count[LINUX_RELOC_LISTS];
};

/*
 * Split the lists out of tail (len bytes: everything after the vmlinux ELF). They must fill
 * it exactly, terminators included; x86_64 selects the three-list form. 0, or -1 with a
 * message in err.
 */
int linux_relocs_split(const uint8_t *tail, size_t len, bool x86_64, struct linux_relocs *out,
		       char *err, size_t err_cap);

/*
 * Give k (read from the vmlinux ELF with kernel_elf_read_segments) the lists' fixups, in
 * image order. Every entry must name a field inside the file bytes of one of k's segments.
 * 0, or -1 with a message in err.
 */
int linux_relocs_fixups(const struct linux_relocs *lists, struct kernel_elf *k, char *err,
			size_t err_cap);

const char *linux_relocs_list_name(enum linux_reloc_list list);

#endif
