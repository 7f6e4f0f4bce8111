/* What kslide-stat measures: a packed image, or a bzImage's own KASLR, and its slot sets. */
#ifndef KSLIDE_TOOLS_STAT_SUBJECT_H
#define KSLIDE_TOOLS_STAT_SUBJECT_H

#include <stdbool.h>
#include <stddef.h>

#include "include/kslide/image.h"
#include "tools/stat/layout.h"
#include "tools/stat/linux_kaslr.h"
#include "tools/stat/output.h"
#include "tools/stat/samples.h"

/* What IMAGE is: a packed image, or with --linux a bzImage whose own KASLR is measured. */
struct subject {
	bool linux_own;
	bool uefi;	   /* started by UEFI firmware: an x86-64 PE, Linux through its EFI stub */
	bool linux_kernel; /* Linux runs: a bzImage, or a packed image with the Linux handoff */
	bool x86_64;
	struct kslide_image_header h; /* a packed image's */
	struct mem_span loaded;	      /* where the packed image lies */
	struct linux_kaslr k;	      /* a bzImage's */
};

/* IMAGE read: a packed image's header, or with linux_own a bzImage's facts; with uefi it must
 * be an x86-64 PE (kslide-pack --format efi, or a bzImage with its EFI stub). 0, or 1 with a
 * message in err. */
int subject_read(const char *image, bool linux_own, bool uefi, struct subject *sub, char *err,
		 size_t err_cap);

/* The bzImage's facts for linux_kaslr.h: its setup header, payload and vmlinux. 0, or 1 with
 * a message in err. */
int subject_read_bzimage(const char *path, struct linux_kaslr *k, char *err, size_t err_cap);

/*
 * The slots each base of a packed image is drawn from, and the recount that checks the stub's
 * figure (r's slot counts filled in). Bases are measured over the recount when there is one.
 */
void subject_slot_sets(const struct subject *sub, const struct samples *s, struct slot_set *phys,
		       struct slot_set *virt, struct report *r);

/* A kernel's own KASLR: the slots of Linux's model over the memory map init reported (under
 * UEFI, its EFI stub's model over the EFI memory map Linux logged: linux_efi_kaslr.h). 0, or 1
 * with a message in err. */
int subject_linux_slot_sets(const struct subject *sub, const struct samples *s,
			    struct slot_set *phys, struct slot_set *virt, struct report *r,
			    char *err, size_t err_cap);

#endif
