/* The kslide note a kernel may carry (include/kslide/kernel.h), read from its ELF file. */
#ifndef KSLIDE_TOOLS_PACK_KERNEL_NOTE_H
#define KSLIDE_TOOLS_PACK_KERNEL_NOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the note declares; every limit 0 means none (a version 1 note declares none). */
struct kernel_note {
	bool present;
	uint32_t version;
	uint32_t handoff;  /* KSLIDE_HANDOFF_*, or 0: the packer's choice */
	uint64_t phys_end; /* the kernel's last byte lies below this physical address */
	uint64_t align;    /* the base is a multiple of this */
	uint64_t virt_min; /* x86-64: the kernel's virtual range lies in [virt_min, virt_end) */
	uint64_t virt_end; /* 0: the top of the address space */
};

/* 0 with *note filled (present or not), or -1 with a message for a malformed note. */
int kernel_note_read(const uint8_t *file, size_t len, struct kernel_note *note, char *err,
		     size_t err_cap);

/* Whether the note declares any limit at all. */
bool kernel_note_has_limits(const struct kernel_note *note);

#endif
