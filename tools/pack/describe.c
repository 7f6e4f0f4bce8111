/* What kslide-pack says of the kernel and the image it wrote (--stats, --verbose). */
#include <stdio.h>

#include "include/kslide/image.h"
#include "tools/pack/compress.h"
#include "tools/pack/describe.h"
#include "tools/pack/image_writer.h"
#include "tools/pack/policy.h"

void describe_stats(const struct packed_image *img, FILE *to)
{
	double per = img->reloc_count ? (double)img->relocs_size / (double)img->reloc_count : 0;
	fprintf(to, "relocations: %zu\n", img->reloc_count);
	fprintf(to, "table bytes: %zu (%.2f bytes/relocation; 4-byte form: %zu bytes)\n",
		img->relocs_size, per, img->reloc_count * 4);
	fprintf(to, "table stored: %zu bytes\n", img->relocs_stored_size);
	fprintf(to, "early relocations: %zu (patched as soon as their zstd block is decoded)\n",
		img->early_reloc_count);
	fprintf(to, "payload stored: %zu bytes\n", img->payload_stored_size);
}

void describe_linux(const struct linux_image *li, FILE *to)
{
	const struct bzimage_header *h = &li->header;
	fprintf(to,
		"linux: bzImage, boot protocol %u.%02u, %s payload: %llu bytes of vmlinux and %llu of "
		"relocation lists\n",
		h->version >> 8, h->version & 0xff, payload_codec_name(li->codec),
		(unsigned long long)li->vmlinux_bytes,
		(unsigned long long)(li->payload_bytes - li->vmlinux_bytes));
	fprintf(to, "linux: relocation lists: %zu 32-bit, %zu inverse 32-bit, %zu 64-bit\n",
		li->relocs[LINUX_RELOCS_32], li->relocs[LINUX_RELOCS_INVERSE_32],
		li->relocs[LINUX_RELOCS_64]);
	fprintf(to,
		"linux: init_size %u, kernel_alignment 0x%x, min_alignment 0x%llx, pref_address "
		"0x%llx, loadflags 0x%x, xloadflags 0x%x, cmdline_size %u, handover_offset 0x%x; "
		"setup header %u bytes\n",
		h->init_size, h->kernel_alignment,
		h->min_alignment_log2 ? 1ull << h->min_alignment_log2 : 0ull,
		(unsigned long long)h->pref_address, h->loadflags, h->xloadflags, h->cmdline_size,
		h->handover_offset, h->size);
	fprintf(to, "linux: %llu bytes from the base must be free at entry: max(vmlinux span, "
			"init_size)\n",
		(unsigned long long)li->memory_size);
}

void describe_kernel(const struct kernel_elf *k, FILE *to)
{
	size_t kinds[RELOC_KIND_LAST + 1] = { 0 };
	for (size_t i = 0; i < k->fixup_count; i++)
		kinds[k->fixups[i].kind]++;
	fprintf(to,
		"kernel: link phys 0x%llx virt 0x%llx, %llu bytes in memory (%llu in file), "
		"entry +0x%llx\n",
		(unsigned long long)k->link_phys, (unsigned long long)k->link_virt,
		(unsigned long long)k->mem_size, (unsigned long long)k->file_size,
		(unsigned long long)k->entry_offset);
	fprintf(to,
		"relocations: %zu patched, %zu PC-relative, %zu absolute symbols left alone, %zu "
		"weak undefined left alone, %zu into the per-CPU segment left alone, %zu in notes\n",
		k->fixup_count, k->skipped_pcrel, k->skipped_absolute, k->skipped_weak,
		k->skipped_fixed, k->skipped_notes);
	fprintf(to,
		"fixups: %zu 32-bit, %zu 32-bit signed, %zu 64-bit, %zu inverse 32-bit\n",
		kinds[RELOC_ADD32], kinds[RELOC_ADD32S], kinds[RELOC_ADD64], kinds[RELOC_SUB32S]);
	if (k->offsets_differ[0])
		fprintf(to, "segments: %s\n", k->offsets_differ);
}

void describe_image(const struct kernel_elf *k, const struct packed_image *img,
		    const struct pack_options *opt, const char *handoff_why,
		    const struct multiboot_requests *mb, FILE *to)
{
	fprintf(to, "image: %zu bytes; base in [0x%llx, 0x%llx) aligned to 0x%llx\n", img->size,
		(unsigned long long)opt->min, (unsigned long long)opt->max,
		(unsigned long long)opt->align);
	if (k->single_slide)
		fprintf(to, "image: single slide: the virtual base moves with the physical one; %s\n",
			pack_stub_arch(k, opt) == KSLIDE_ARCH_I386
				? "entered by the i386 stub in 32-bit protected mode"
				: "the x86-64 stub leaves long mode to enter it in 32-bit protected "
				  "mode");
	else if (k->arch == KSLIDE_ARCH_X86_64)
		fprintf(to, "image: virtual base in [0x%llx, 0x%llx] (last byte) aligned to "
				"0x%llx\n",
			(unsigned long long)opt->virt_min, (unsigned long long)opt->virt_last,
			(unsigned long long)opt->virt_align);
	fprintf(to, "handoff: %s (%s)\n", pack_handoff_name(opt->handoff), handoff_why);
	if (opt->handoff != KSLIDE_HANDOFF_MULTIBOOT)
		return;
	if (!opt->multiboot) {
		fprintf(to, "multiboot: the kernel has no Multiboot header: the image answers "
				"Multiboot 1 and 2 loaders alike\n");
		return;
	}
	fprintf(to, "multiboot: the kernel's headers: %s%s%s; %zu bytes of Multiboot2 tags asked "
			"again, %zu optional tags left out%s%s\n",
		mb->mb1 ? "Multiboot 1" : "", mb->mb1 && mb->mb2 ? " and " : "",
		mb->mb2 ? "Multiboot 2" : "", mb->mb2_tags_size, mb->mb2_dropped,
		mb->bounded ? "; its relocatable tag bounds the base" : "",
		mb->entry_given ? "; its entry address tag is the entry" : "");
}
