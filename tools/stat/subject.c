/*
 * What kslide-stat measures (subject.h): a packed image, or with --linux a bzImage, and the
 * slot sets its bases are drawn from.
 */
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/pack/decompress.h"
#include "tools/pack/linux_image.h"
#include "tools/stat/esp.h"
#include "tools/stat/linux_efi_kaslr.h"
#include "tools/stat/subject.h"

/* Where QEMU's Linux loader (as boot.rst asks of any loader of a bzImage) puts the
 * protected-mode kernel, which Linux's decompressor starts from. */
#define BZIMAGE_LOAD_ADDRESS 0x100000u
#define BZIMAGE_MAX_BYTES    (256u << 20)
#define PAGE_BYTES	     4096u

__attribute__((format(printf, 3, 4))) static int say(char *err, size_t err_cap, const char *fmt,
						     ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, err_cap, fmt, ap);
	va_end(ap);
	return 1;
}

/* Linux's kernel_total_size, VO__end - VO__text: _end is the end of the .brk section rounded up
 * to a page (arch/x86/kernel/vmlinux.lds.S). 0 when the vmlinux has no .brk section. */
static uint64_t vmlinux_text_to_end(const uint8_t *elf, size_t len, uint64_t link_virt)
{
	Elf64_Ehdr eh;
	Elf64_Shdr names, sh;
	if (len < sizeof(eh))
		return 0;
	memcpy(&eh, elf, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_shentsize != sizeof(sh) || eh.e_shoff > len ||
	    eh.e_shnum > (len - eh.e_shoff) / sizeof(sh) || eh.e_shstrndx >= eh.e_shnum)
		return 0;
	memcpy(&names, elf + eh.e_shoff + eh.e_shstrndx * sizeof(sh), sizeof(names));
	if (names.sh_offset > len || names.sh_size > len - names.sh_offset)
		return 0;
	const char *strings = (const char *)elf + names.sh_offset;
	for (size_t i = 0; i < eh.e_shnum; i++) {
		memcpy(&sh, elf + eh.e_shoff + i * sizeof(sh), sizeof(sh));
		if (sh.sh_name >= names.sh_size ||
		    strncmp(strings + sh.sh_name, ".brk", names.sh_size - sh.sh_name) ||
		    sh.sh_name + sizeof(".brk") > names.sh_size)
			continue;
		uint64_t end = (sh.sh_addr + sh.sh_size + PAGE_BYTES - 1) / PAGE_BYTES * PAGE_BYTES;
		return end > link_virt ? end - link_virt : 0;
	}
	return 0;
}

/* The bzImage's facts for linux_kaslr.h: its setup header, payload and vmlinux. */
int subject_read_bzimage(const char *path, struct linux_kaslr *k, char *err, size_t err_cap)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return say(err, err_cap, "%s: %s", path, strerror(errno));
	uint8_t *file = malloc(BZIMAGE_MAX_BYTES);
	size_t len = file ? fread(file, 1, BZIMAGE_MAX_BYTES, f) : 0;
	fclose(f);
	if (!file)
		return say(err, err_cap, "out of memory");
	struct linux_image li;
	struct kernel_elf elf;
	uint64_t text_to_end = 0;
	char why[512];
	int rc = linux_image_read(file, len, &li, &elf, why, sizeof(why));
	uint8_t *payload = NULL;
	size_t payload_len = 0;
	if (rc == 0 && payload_decompress(file + li.header.payload_offset,
					  (size_t)li.header.payload_length, BZIMAGE_MAX_BYTES,
					  &payload, &payload_len, why, sizeof(why)) == 0) {
		text_to_end = vmlinux_text_to_end(payload, (size_t)li.vmlinux_bytes,
						  elf.link_virt);
		free(payload);
	}
	free(file);
	if (rc)
		return say(err, err_cap, "%s: %s", path, why);
	*k = (struct linux_kaslr){
		.x86_64 = elf.arch == KSLIDE_ARCH_X86_64,
		.align = li.header.kernel_alignment,
		.load_physical = li.header.pref_address,
		.init_size = li.header.init_size,
		.payload_length = li.header.payload_length,
		.output_len = li.payload_bytes,
		.kernel_total_size = elf.mem_size,
		.kernel_map = elf.link_virt - elf.link_phys,
		.loaded_at = BZIMAGE_LOAD_ADDRESS,
		.text_to_end = text_to_end,
	};
	kernel_elf_free(&elf);
	if (!k->align || k->align & (k->align - 1))
		return say(err, err_cap, "%s: kernel_alignment 0x%llx is not a power of two", path,
			   (unsigned long long)k->align);
	return 0;
}

/*
 * The slots each base is drawn from, and the recount that checks the stub's figure. Bases are
 * measured over the recount when there is one: it is the layout itself, while a stub's wrong
 * count would otherwise put a base in the slots it left out "outside" and hide the finding
 * that explains it (the count, reported by findings()).
 */
void subject_slot_sets(const struct subject *sub, const struct samples *s, struct slot_set *phys,
		       struct slot_set *virt, struct report *r)
{
	const struct kslide_image_header *h = &sub->h;
	const struct base_line *b = &s->first;
	struct slot_set recount;
	r->phys.slots_stub = b->slots;
	r->virt.slots_stub = b->vslots;
	r->phys.recount_from = "image header";
	layout_contiguous(h->phys_min, h->align, b->slots, phys);
	if (s->has_usable) {
		/* what the loader placed, which the stub avoids: the image (where the stub said it
		 * ran; older stubs only ran where the container asks) and the initrd */
		struct mem_span image = sub->loaded;
		if (s->has_image_at) {
			image.end = s->image_at + (image.end - image.start);
			image.start = s->image_at;
		}
		struct mem_span avoid[] = {image, s->initrd};
		layout_phys_from_map(h, s->usable, s->usable_count, avoid, 1 + s->initrd_count,
				     &recount);
		r->phys.recount_from = "header + kernel's memory map";
		r->phys.slots_recount = recount.total;
		if (recount.total > 0)
			*phys = recount;
	}
	r->virt.follows_physical = !b->has_vslots;
	if (b->has_vslots) {
		layout_contiguous(h->virt_min, b->valign, b->vslots, virt);
		layout_virt_from_header(h, &recount);
		r->virt.slots_recount = recount.total;
		if (recount.total > 0)
			*virt = recount;
	} else {
		layout_shift(phys, h->link_virt_base - h->link_phys_base, virt);
		r->virt.slots_recount = r->phys.slots_recount;
	}
}

/* Linux's EFI stub's KASLR over the EFI map of the first boot that logged one. */
static int efi_slot_sets(const struct subject *sub, const struct samples *s,
			 struct slot_set *phys, struct slot_set *virt, struct report *r,
			 char *err, size_t err_cap)
{
	static char from[160];
	struct mem_span free_spans[SAMPLES_EFI_MAP_MAX];
	if (!s->has_efi_map)
		return say(err, err_cap,
			   "no \"kslide-linux: efi: mem\" lines: Linux's EFI-stub slots cannot be "
			   "modelled without the EFI memory map Linux logs with efi=debug, which "
			   "init forwards (tests/linux/init.c)");
	size_t n = linux_efi_free_at_draw(s->efi_map, s->efi_map_count, s->phys[s->efi_map_boot],
					  &s->initrd, s->initrd_count, free_spans,
					  SAMPLES_EFI_MAP_MAX);
	linux_efi_phys_slots(&sub->k, free_spans, n, phys);
	linux_efi_virt_slots(&sub->k, virt);
	r->virt.follows_physical = false;
	r->phys.slots_stub = phys->total;
	r->virt.slots_stub = virt->total;
	snprintf(from, sizeof(from),
		 "Linux's EFI-stub KASLR model: setup header, vmlinux, the EFI memory map of "
		 "boot %zu (efi=debug)",
		 s->efi_map_boot + 1);
	r->phys.recount_from = from;
	return 0;
}

/* A kernel's own KASLR: the slots of Linux's model over the memory map init reported. */
int subject_linux_slot_sets(const struct subject *sub, const struct samples *s,
			    struct slot_set *phys, struct slot_set *virt, struct report *r,
			    char *err, size_t err_cap)
{
	if (sub->uefi)
		return efi_slot_sets(sub, s, phys, virt, r, err, err_cap);
	if (!s->has_usable)
		return say(err, err_cap,
			   "no \"kslide-linux: usable=\" line: Linux's physical slots "
			   "cannot be modelled without the memory map (tests/linux/init.c)");
	linux_kaslr_phys_slots(&sub->k, s->usable, s->usable_count, &s->initrd, s->initrd_count,
			       phys);
	r->virt.follows_physical = !sub->k.x86_64;
	if (sub->k.x86_64)
		linux_kaslr_virt_slots(&sub->k, virt);
	else
		layout_shift(phys, sub->k.kernel_map, virt);
	r->phys.slots_stub = phys->total;
	r->virt.slots_stub = virt->total;
	r->phys.recount_from =
		"Linux's KASLR model: setup header, vmlinux, the kernel's memory map";
	return 0;
}

int subject_read(const char *image, bool linux_own, bool uefi, struct subject *sub, char *err,
		 size_t err_cap)
{
	memset(sub, 0, sizeof(*sub));
	sub->linux_own = linux_own;
	sub->uefi = uefi;
	if (uefi && !esp_is_x86_64_pe(image))
		return say(err, err_cap,
			   "%s: not an x86-64 EFI application, which UEFI firmware could start "
			   "(%s)",
			   image,
			   linux_own ? "a bzImage built without CONFIG_EFI_STUB?"
				     : "kslide-pack --format efi writes one");
	if (linux_own) {
		if (subject_read_bzimage(image, &sub->k, err, err_cap))
			return 1;
		if (uefi && !sub->k.x86_64)
			return say(err, err_cap, "%s: Linux's EFI-stub KASLR is modelled on x86-64 "
						 "only",
				   image);
		sub->linux_kernel = true;
		sub->x86_64 = sub->k.x86_64;
		return 0;
	}
	const char *why;
	if (layout_read_header(image, &sub->h, &sub->loaded, &why)) {
		snprintf(err, err_cap, "%s: %s", image, why);
		return 1;
	}
	sub->linux_kernel = sub->h.handoff == KSLIDE_HANDOFF_LINUX;
	sub->x86_64 = sub->h.arch == KSLIDE_ARCH_X86_64;
	return 0;
}
