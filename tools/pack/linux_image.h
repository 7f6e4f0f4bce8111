/*
 * A Linux bzImage read into what the packer needs: the vmlinux ELF inside its payload gives
 * the segments and entry (tools/pack/kernel_elf.h), the relocation lists appended to it the
 * fixups (tools/pack/linux_relocs.h), and the setup header is kept for the Linux handoff
 * (tools/pack/bzimage.h). What kslide does instead of Linux's decompressor starts here.
 */
#ifndef KSLIDE_TOOLS_PACK_LINUX_IMAGE_H
#define KSLIDE_TOOLS_PACK_LINUX_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "tools/pack/bzimage.h"
#include "tools/pack/decompress.h"
#include "tools/pack/kernel_elf.h"
#include "tools/pack/linux_relocs.h"

struct linux_image {
	struct bzimage_header header; /* the handoff's data: bytes and parsed fields */
	enum payload_codec codec;
	uint64_t payload_bytes;	     /* decompressed: vmlinux ELF and relocation lists */
	uint64_t vmlinux_bytes;	     /* the ELF file's part of it */
	uint64_t memory_size; /* free from the base at entry: max(segments' span, init_size) */
	size_t relocs[LINUX_RELOC_LISTS]; /* entries per list */
};

/*
 * Read the bzImage in file (len bytes) into k (as kernel_elf_read would an ELF, fixups
 * included) and li. 0, or -1 with a message in err.
 */
int linux_image_read(const uint8_t *file, size_t len, struct linux_image *li,
		     struct kernel_elf *k, char *err, size_t err_cap);

#endif
