/*
 * The ways the stub can be started: one entry per boot protocol (boot/loader_*.c), with its
 * check of what the entry code was given, the parser of its boot information, and how much of
 * the packed image it promised to load. stub.c takes the one the entry code's protocol names
 * (struct boot_entry, boot/entry.h).
 */
#ifndef KSLIDE_BOOT_LOADER_H
#define KSLIDE_BOOT_LOADER_H

#include <stdint.h>

#include "boot/bootenv.h"
#include "boot/entry.h"

struct boot_loader {
	const char *name;
	uint32_t protocol; /* BOOT_PROTOCOL_*, as the entry code sets it */
	/* NULL when the entry looks like this protocol's, else why not (for the console): a
	 * loader's magic, for one, is its protocol's to check. */
	const char *(*check)(const struct boot_entry *entry);
	/* Fill a zeroed env from the information the entry points to. */
	int (*parse)(const struct phys_reader *mem, const struct boot_entry *entry,
		     struct boot_env *env);
	/* Bytes of the packed image, from its first byte, that this loader has loaded. */
	uint64_t (*loaded_size)(const struct boot_entry *entry);
};

extern const struct boot_loader loader_multiboot1;
extern const struct boot_loader loader_multiboot2;
extern const struct boot_loader loader_pvh;  /* x86-64 only */
extern const struct boot_loader loader_uefi; /* x86-64 only */

/* The loader of the entry's protocol (boot/protocols.c), or NULL. */
const struct boot_loader *boot_loader_for(const struct boot_entry *entry);

#endif
