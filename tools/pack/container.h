/*
 * The wrapper a boot loader reads around a packed image. The packed format itself (stub,
 * payload, relocation table, handoff data; include/kslide/image.h, docs/format.md) is the same
 * whatever the container; a container is how a loader is told to load it and where to enter:
 * a flat Multiboot image, whose headers the stub carries (container_multiboot.c), or an ELF
 * for PVH monitors, whose headers come before the image in the file (container_pvh.c), or a
 * PE32+ EFI application for UEFI firmware, the same way (container_efi.c). Each
 * container is one file filling a struct container, tabled in containers.c and chosen by
 * kslide-pack --format NAME.
 *
 *   file offset 0        prefix
 *   | container's own | packed image: stub (with any headers it carries), payload, ... |
 *                     ^ what the loader loads, at the load address
 */
#ifndef KSLIDE_TOOLS_PACK_CONTAINER_H
#define KSLIDE_TOOLS_PACK_CONTAINER_H

#include <stddef.h>
#include <stdint.h>

struct pack_options;

struct container {
	const char *name; /* as kslide-pack --format spells it */
	const char *what; /* for --help */
	/* Bytes of the container's own before the packed image in the file (headers the loader
	 * reads but does not load); 0 when the image starts the file. */
	size_t prefix;
	/* The file is padded with zeros to a multiple of this many bytes; 0 for none. */
	size_t file_align;
	/* The codec without --compress: KSLIDE_CODEC_* or PACK_CODEC_AUTO (tools/pack/compress.h). */
	int codec_default;
	/*
	 * Check that the stub (stub_size bytes, its bss included) carries this container's
	 * headers and that they cover exactly the stub; *load_address is where the loader
	 * will put the image's first byte. 0, or -1 with a message.
	 */
	int (*check_stub)(const uint8_t *stub, size_t stub_size, uint64_t *load_address, char *err,
			  size_t err_cap);
	/*
	 * Fill in the headers of the assembled file (file_size bytes: 'prefix' bytes, zeroed,
	 * then the image, the stub's stub_size first): what the loader must load, and the
	 * kernel's own requests when opt carries them. Runs before the image's sums are taken.
	 * 0, or -1 with a message.
	 */
	int (*finish)(uint8_t *file, size_t file_size, size_t stub_size,
		      const struct pack_options *opt, char *err, size_t err_cap);
	/* Last, once the image is sealed: what covers the whole file (a PE's checksum); or NULL. */
	void (*seal)(uint8_t *file, size_t file_size);
	/* Where a loader puts the packed image in this file (size bytes), with *image_at the
	 * image's offset in the file; or -1 when the file is not in this container. */
	int64_t (*load_address)(const uint8_t *file, size_t size, size_t *image_at);
};

extern const struct container container_multiboot;
extern const struct container container_pvh;
extern const struct container container_efi;

/* The container --format names, or NULL. */
const struct container *container_find(const char *name);

/* The default container: what kslide-pack writes without --format. */
const struct container *container_default(void);

/* "multiboot": every name, comma-separated, for messages. */
const char *container_names(void);

/* The known containers, for --help: the i-th, or NULL past the last. */
const struct container *container_at(size_t i);

/* Where a loader puts a packed image, by whichever container wraps it, with *image_at the
 * image's offset in the file; -1 if none does. */
int64_t container_load_address(const uint8_t *file, size_t size, size_t *image_at);

#endif
