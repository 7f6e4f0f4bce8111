/*
 * What a series of boots reported, gathered line by line from serial logs or from a file of
 * lines collected earlier: the bases, the slot counts (which must not change between boots),
 * the entropy sources and credit, the memory map, what the loader placed in it (the image,
 * the initrd),
 * and the random diagnostic bytes. The bases are the stub's, or, for a kernel's own KASLR
 * (linux_own), where Linux's init found itself.
 */
#ifndef KSLIDE_TOOLS_STAT_SAMPLES_H
#define KSLIDE_TOOLS_STAT_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tools/stat/lines.h"

#define SAMPLES_SOURCE_SETS 16 /* distinct entropy= lists remembered */
#define SAMPLES_USABLE_MAX  64
#define SAMPLES_EFI_MAP_MAX 512 /* OVMF's map at -m 1G has about a hundred descriptors */

struct source_set {
	char names[LINE_SOURCES_MAX];
	size_t boots;
	unsigned credited_min, credited_max;
};

struct samples {
	size_t n, cap;
	uint64_t *phys, *virt;
	unsigned *credited;
	struct base_line first; /* slots, align, vslots, valign of every boot */

	struct source_set sets[SAMPLES_SOURCE_SETS];
	size_t set_count;

	struct mem_span usable[SAMPLES_USABLE_MAX];
	size_t usable_count;
	bool has_usable;
	uint64_t image_at; /* where the loader put the packed image, the same at every boot */
	bool has_image_at;
	struct mem_span initrd; /* where the loader put it, the same at every boot */
	size_t initrd_count;	/* 0 or 1: an array of avoided spans for layout_phys_from_map */

	/* The EFI memory map Linux logged (efi=debug; tests/linux/init.c forwards it) at the
	 * first boot that logged one (its first listing), in its order, and that boot's index in
 * phys[] and virt[]:
	 * what Linux's EFI-stub model counts over (linux_efi_kaslr.h). Later boots' maps are
	 * not kept: each differs from the first only where that boot's kernel lies. */
	struct efi_mem efi_map[SAMPLES_EFI_MAP_MAX];
	size_t efi_map_count;
	size_t efi_map_boot;
	bool has_efi_map, efi_map_done;

	/* The bases are init's "kslide-linux: _text=" reports (a kernel's own KASLR), not the
	 * stub's lines; set before the first line. */
	bool linux_own;

	FILE *lines_out;  /* when set, every line used is copied here (--bases-out) */
	FILE *random_out; /* when set, random= bytes are written here in binary (--random-out) */
	uint64_t random_bytes;
	size_t random_lines;

	char error[256]; /* why samples_add_line failed */
};

void samples_init(struct samples *s);
void samples_free(struct samples *s);

/*
 * Take one line; lines that are none of ours are ignored. Returns -1 (with s->error set) when
 * the line contradicts earlier ones: a different slot count or memory map, a bad random line.
 */
int samples_add_line(struct samples *s, const char *line);

/* samples_add_line for every line of f. */
int samples_add_file(struct samples *s, FILE *f);

/* Lowest credit seen over all boots (0 when there are none). */
unsigned samples_credited_min(const struct samples *s);

#endif
