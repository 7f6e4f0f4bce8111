/*
 * The ways the stub can be started: one entry per boot protocol (boot/loader_*.c), with the
 * magic its loader leaves in EAX, the parser of its boot information, and how much of the
 * packed image it promised to load. stub.c takes the entry whose magic it was given.
 */
#ifndef KSLIDE_BOOT_LOADER_H
#define KSLIDE_BOOT_LOADER_H

#include <stdint.h>

#include "boot/bootenv.h"

struct boot_loader {
	const char *name;
	uint32_t magic; /* in EAX at entry */
	/* Fill a zeroed env from the information at info_addr (boot/multiboot1.h says how). */
	int (*parse)(const struct phys_reader *mem, uint32_t info_addr, struct boot_env *env);
	/* Bytes of the packed image, from its first byte, that this loader has loaded. */
	uint64_t (*loaded_size)(void);
};

extern const struct boot_loader loader_multiboot1;
extern const struct boot_loader loader_multiboot2;

/* The loader whose magic this is (boot/protocols.c), or NULL. */
const struct boot_loader *boot_loader_for(uint32_t magic);

#endif
