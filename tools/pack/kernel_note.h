/* The kslide note a kernel may carry (include/kslide/kernel.h), read from its ELF file. */
#ifndef KSLIDE_TOOLS_PACK_KERNEL_NOTE_H
#define KSLIDE_TOOLS_PACK_KERNEL_NOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kernel_note {
	bool present;
	uint32_t handoff; /* KSLIDE_HANDOFF_*, or 0: the packer's choice */
};

/* 0 with *note filled (present or not), or -1 with a message for a malformed note. */
int kernel_note_read(const uint8_t *file, size_t len, struct kernel_note *note, char *err,
		     size_t err_cap);

#endif
