/*
 * kslide-pack: turn a relocatable ELF kernel, or a Linux bzImage, into a self-randomizing
 * Multiboot image.
 * See docs/kslide-pack.1 (usage) and docs/format.md (what it writes).
 */
#include <elf.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/kslide/image.h"
#include "lib/unaligned.h"
#include "tools/pack/base_window.h"
#include "tools/pack/files.h"
#include "tools/pack/compress.h"
#include "tools/pack/image_writer.h"
#include "tools/pack/kernel_elf.h"
#include "tools/pack/kernel_limits.h"
#include "tools/pack/kernel_note.h"
#include "tools/pack/linux_image.h"
#include "tools/pack/multiboot_header.h"

#ifndef KSLIDE_VERSION
#define KSLIDE_VERSION "0.1"
#endif

extern const uint8_t stub_i386_start[], stub_i386_end[];
extern const uint8_t stub_x86_64_start[], stub_x86_64_end[];

/* Defaults: 2 MiB alignment (a large-page boundary, as Linux's CONFIG_PHYSICAL_ALIGN), at
 * least 16 MiB (clear of ISA DMA and legacy areas). i386 kernels end below the 896 MiB lowmem
 * limit they map at 0xC0000000; x86-64 ones may use any RAM up to 64 TiB. */
#define DEFAULT_ALIGN 0x200000ull
#define DEFAULT_MIN 0x1000000ull
#define DEFAULT_MAX_I386 0x38000000ull
#define DEFAULT_MAX_X86_64 0x400000000000ull
#define MIN_ALIGN 0x1000ull
#define LINK_ADVICE_ALIGN 0x200000ull /* a link address advised is rounded up to 2 MiB pages */

/*
 * x86-64 virtual windows, [min, end). A -mcmodel=kernel kernel (ET_EXEC) lives in the top
 * 2 GiB, where its 32-bit sign-extended fields reach, minus the top 16 MiB kept for mappings
 * at fixed addresses. A PIE may go anywhere in the upper half except the first 8 TiB (a
 * direct map of physical memory) and the last 512 GiB (one PML4 entry for fixed mappings and
 * a kernel-model neighbour): 2^46.9 bytes.
 */
#define KERNEL_MODEL_VIRT_MIN 0xffffffff80000000ull
#define KERNEL_MODEL_VIRT_END 0xffffffffff000000ull
#define PIE_VIRT_MIN 0xffff880000000000ull
#define PIE_VIRT_END 0xffffff8000000000ull

/*
 * Linux's own windows, which a bzImage gets by default (an x86-64 vmlinux ELF, known by its
 * per-CPU segment, too). Bases start at the preferred address (LOAD_PHYSICAL_ADDR, the link
 * base) above the kernel map's start, __START_KERNEL_map on x86-64 or PAGE_OFFSET on i386
 * (the ELF's virtual minus physical link base). The image must end inside KERNEL_IMAGE_SIZE:
 * 1 GiB of virtual space on x86-64 with KASLR (arch/x86/include/asm/page_64_types.h), 512 MiB
 * of physical memory on i386 (page_32_types.h), as Linux's own KASLR keeps it.
 */
#define LINUX_X86_64_IMAGE_SIZE 0x40000000ull
#define LINUX_I386_IMAGE_SIZE 0x20000000ull
/* Without XLF_CAN_BE_LOADED_ABOVE_4G a 64-bit kernel must stay below 4 GiB (boot.rst). */
#define BELOW_4G 0x100000000ull

static const char *progname = "kslide-pack";

/* --handoff NAME: how the stub enters the kernel (boot/handoff_*.c). */
static const struct {
	const char *name;
	uint32_t id;
	const char *what;
} handoffs[] = {
	{ "kslide", KSLIDE_HANDOFF_KSLIDE, "kslide's boot info (include/kslide/bootinfo.h)" },
	{ "multiboot", KSLIDE_HANDOFF_MULTIBOOT,
	  "the loader's own Multiboot info (include/kslide/multiboot.h)" },
	{ "linux", KSLIDE_HANDOFF_LINUX,
	  "Linux's boot protocol, a zero page around a bzImage's setup header" },
};
#define HANDOFF_COUNT (sizeof(handoffs) / sizeof(handoffs[0]))

/* Where the boot loader puts the packed image (both stubs are linked there). */
#define IMAGE_LOAD_ADDRESS 0x100000ull

static void usage(FILE *to)
{
	fprintf(to,
		"Usage: %s [options] -o OUT IN\n"
		"Turn a relocatable kernel into a Multiboot image that loads it at a random base on\n"
		"every boot. IN is an ELF (i386 or x86-64 linked with --emit-relocs, an x86-64\n"
		"static PIE, or Linux's vmlinux) or a Linux bzImage (/boot/vmlinuz-*: boot protocol\n"
		"2.08 or later, relocatable; its payload is decompressed and its relocation lists\n"
		"read, and its setup header chooses Linux's windows as the defaults). On x86-64 the\n"
		"virtual base is drawn independently of the physical one.\n"
		"\n"
		"  -o, --output FILE       write the image here (atomically; a regular file), or to\n"
		"                          standard output for -\n"
		"      --align N           base alignment, a power of two >= 4K (default 2M; a\n"
		"                          bzImage: its min_alignment, which no --align may go\n"
		"                          below, or kernel_alignment without one)\n"
		"      --min ADDR          lowest physical base (default 16M; a bzImage: its\n"
		"                          pref_address)\n"
		"      --max ADDR          the kernel must end at or below ADDR (default 896M on\n"
		"                          i386, 64T on x86-64; an i386 bzImage: 512M)\n"
		"      --virt-align N      x86-64: virtual base alignment (default: --align)\n"
		"      --virt-range MIN:END  x86-64: the kernel's virtual range must lie in [MIN, END);\n"
		"                          END 0 means the top of the address space (default\n"
		"                          0xffffffff80000000:0xffffffffff000000 for -mcmodel=kernel,\n"
		"                          0xffff880000000000:0xffffff8000000000 for a PIE, Linux's\n"
		"                          0xffffffff81000000:0xffffffffc0000000 for Linux)\n"
		"      --no-kaslr-default  boot at the link address unless \"kaslr\" is given\n"
		"      --debug-placement   for reproducing a boot: the stub takes kslide.phys=ADDR\n"
		"                          (x86-64: kslide.virt=ADDR too) from the command line as\n"
		"                          the base, if it is a slot; never for an image in use\n"
		"      --handoff NAME      how the stub enters the kernel; by default linux for a\n"
		"                          bzImage, the one the kernel's kslide note names, else\n"
		"                          multiboot for a kernel with a Multiboot header, else\n"
		"                          kslide:\n",
		progname);
	for (size_t i = 0; i < HANDOFF_COUNT; i++)
		fprintf(to, "                            %-10s %s\n", handoffs[i].name, handoffs[i].what);
	fprintf(to,
		"      --compress CODEC    how the payload is stored: zstd (level 22, long-distance\n"
		"                          matching, window <= 128M), lz4 (LZ4HC 12, linked 4M\n"
		"                          blocks), none, or auto (the default: zstd for a payload\n"
		"                          of 1M or more, none below); both with content checksums\n"
		"      --stats             print relocation table statistics\n"
		"  -v, --verbose           describe the kernel and the image (and a bzImage's header)\n"
		"  -h, --help              show this help\n"
		"  -V, --version           show the version\n"
		"\n"
		"Numbers accept 0x prefixes and K, M, G, T suffixes.\n");
}

/* "kslide, multiboot, linux": for messages. */
static const char *handoff_names(void)
{
	static char names[128];
	size_t n = 0;
	for (size_t i = 0; i < HANDOFF_COUNT; i++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "",
				      handoffs[i].name);
	return names;
}

static const char *handoff_name(uint32_t id)
{
	for (size_t i = 0; i < HANDOFF_COUNT; i++)
		if (handoffs[i].id == id)
			return handoffs[i].name;
	return "?";
}

static int error(const char *file, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", progname);
	if (file)
		fprintf(stderr, "%s: ", file);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || end == s || *s == '-')
		return -1;
	unsigned shift = 0;
	switch (*end) {
	case 'K': case 'k': shift = 10; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'G': case 'g': shift = 30; end++; break;
	case 'T': case 't': shift = 40; end++; break;
	}
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

static int parse_handoff(const char *name, uint32_t *id)
{
	for (size_t i = 0; i < HANDOFF_COUNT; i++) {
		if (strcmp(name, handoffs[i].name) == 0) {
			*id = handoffs[i].id;
			return 0;
		}
	}
	error(NULL, "unknown handoff '%s' for --handoff (known: %s)", name, handoff_names());
	return -1;
}

/* "MIN:END", END exclusive, 0 for the top of the address space. */
static int parse_range(const char *s, uint64_t *min, uint64_t *last)
{
	const char *colon = strchr(s, ':');
	if (!colon || colon == s)
		return -1;
	char first[64];
	size_t n = (size_t)(colon - s);
	if (n >= sizeof(first))
		return -1;
	memcpy(first, s, n);
	first[n] = '\0';
	uint64_t end;
	if (parse_size(first, min) || parse_size(colon + 1, &end))
		return -1;
	*last = end - 1; /* 0 - 1: the last byte of the address space */
	return *min <= *last ? 0 : -1;
}

static void print_stats(const struct packed_image *img, FILE *to)
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

/* What the command line chose besides the options' values. */
struct choices {
	int stats, verbose;
	struct given_options given;
	bool handoff_given;
	int codec; /* --compress: KSLIDE_CODEC_* or PACK_CODEC_AUTO */
};

static int check_options(const struct pack_options *opt, const struct kernel_elf *k,
			 const struct linux_image *li, const struct kernel_note *note, const char *in)
{
	if (opt->align < MIN_ALIGN || (opt->align & (opt->align - 1)))
		return error(NULL, "--align must be a power of two of at least 4K");
	uint64_t linux_min = li && li->header.min_alignment_log2
				     ? 1ull << li->header.min_alignment_log2 : 0;
	if (opt->align < linux_min ||
	    (k->arch == KSLIDE_ARCH_X86_64 && opt->virt_align < linux_min))
		return error(in, "--%s 0x%llx is below the kernel's min_alignment (0x%llx)",
			     opt->align < linux_min ? "align" : "virt-align",
			     (unsigned long long)(opt->align < linux_min ? opt->align
									 : opt->virt_align),
			     (unsigned long long)linux_min);
	char err[512];
	/* The kernel's own limits first: a default they narrowed below --min is their doing. */
	if (kernel_limits_check(note, k, opt, err, sizeof(err)))
		return error(in, "%s", err);
	if (opt->min >= opt->max)
		return error(NULL, "--min must be below --max");
	uint64_t size = opt->memory_size > k->mem_size ? opt->memory_size : k->mem_size;
	if (size > opt->max - opt->min)
		return error(in, "kernel (%llu bytes) does not fit between --min and --max",
			     (unsigned long long)size);
	if (k->arch == KSLIDE_ARCH_I386 && opt->max > 0x100000000ull)
		return error(NULL, "--max is beyond the 4 GiB an i386 kernel can address");
	if (k->arch == KSLIDE_ARCH_X86_64) {
		if (opt->virt_align < MIN_ALIGN || (opt->virt_align & (opt->virt_align - 1)))
			return error(NULL, "--virt-align must be a power of two of at least 4K");
		if (opt->virt_min < 0xffff800000000000ull)
			return error(NULL, "--virt-range must lie in the upper half (from "
					   "0xffff800000000000)");
		if (k->mem_size - 1 > opt->virt_last - opt->virt_min)
			return error(in, "kernel (%llu bytes) does not fit in --virt-range",
				     (unsigned long long)k->mem_size);
	}
	if (base_window_check(k, opt, err, sizeof(err)))
		return error(in, "%s", err);
	return 0;
}

/* Options that mean nothing for this kernel: said, not silently dropped. */
static void warn_unused_options(const char *in, const struct kernel_elf *k,
				const struct choices *ch)
{
	if (k->arch != KSLIDE_ARCH_I386 || (!ch->given.virt_align && !ch->given.range))
		return;
	fprintf(stderr, "%s: warning: %s: %s%s%s ignored: an i386 kernel's virtual base follows its "
			"physical one\n",
		progname, in, ch->given.virt_align ? "--virt-align" : "",
		ch->given.virt_align && ch->given.range ? " and " : "",
		ch->given.range ? "--virt-range" : "");
}

/* Whether k is Linux's x86-64 vmlinux: it alone has a per-CPU segment (kernel_elf.h). */
static bool has_fixed_segment(const struct kernel_elf *k)
{
	for (size_t i = 0; i < k->segment_count; i++)
		if (k->segments[i].fixed)
			return true;
	return false;
}

/* Linux's windows (LINUX_*_IMAGE_SIZE above), from its setup header h when there is one. */
static void linux_defaults(struct pack_options *opt, const struct kernel_elf *k,
			   const struct bzimage_header *h, const struct choices *ch)
{
	uint64_t kernel_map = k->link_virt - k->link_phys;
	uint64_t base = h && h->pref_address ? h->pref_address : k->link_phys;
	/* The smallest alignment the kernel declares it tolerates: Debian's 686 kernel booted
	 * to init at 200 of 200 random 8 KiB-aligned bases (docs/linux.md), where its
	 * kernel_alignment, 16 MiB, would leave 30 slots in 1 GiB. */
	if (!ch->given.align && h)
		opt->align = h->min_alignment_log2 ? 1ull << h->min_alignment_log2
						   : h->kernel_alignment;
	if (!ch->given.min)
		opt->min = base;
	if (k->arch == KSLIDE_ARCH_I386) {
		if (!ch->given.max)
			opt->max = LINUX_I386_IMAGE_SIZE;
		return;
	}
	if (!ch->given.max && h && !(h->xloadflags & BZIMAGE_XLF_CAN_BE_LOADED_ABOVE_4G))
		opt->max = BELOW_4G;
	if (!ch->given.virt_align)
		opt->virt_align = opt->align;
	if (!ch->given.range) {
		opt->virt_min = kernel_map + base;
		opt->virt_last = kernel_map + LINUX_X86_64_IMAGE_SIZE - 1;
	}
}

/* Defaults that depend on the kernel: the physical ceiling and the virtual window, then the
 * limits its kslide note declares. */
static void apply_defaults(struct pack_options *opt, const struct kernel_elf *k,
			   const struct linux_image *li, const struct kernel_note *note,
			   const struct choices *ch)
{
	if (!ch->given.max)
		opt->max = k->arch == KSLIDE_ARCH_I386 ? DEFAULT_MAX_I386 : DEFAULT_MAX_X86_64;
	if (!opt->virt_align)
		opt->virt_align = opt->align;
	if (!ch->given.range) {
		opt->virt_min = k->pie ? PIE_VIRT_MIN : KERNEL_MODEL_VIRT_MIN;
		opt->virt_last = (k->pie ? PIE_VIRT_END : KERNEL_MODEL_VIRT_END) - 1;
	}
	if (li || has_fixed_segment(k))
		linux_defaults(opt, k, li ? &li->header : NULL, ch);
	kernel_limits_defaults(note, k, &ch->given, opt);
}

/* The handoff: --handoff, else the kernel's note, else what its headers say it speaks. */
static const char *choose_handoff(struct pack_options *opt, const struct choices *ch,
				  const struct kernel_note *note, const struct multiboot_requests *mb,
				  bool is_linux)
{
	if (ch->handoff_given) {
		if (note->present && note->handoff && note->handoff != opt->handoff)
			fprintf(stderr, "%s: warning: the kernel's kslide note asks for --handoff %s; "
					"--handoff %s overrides it\n",
				progname, handoff_name(note->handoff), handoff_name(opt->handoff));
		return "as --handoff asks";
	}
	if (is_linux) {
		opt->handoff = KSLIDE_HANDOFF_LINUX;
		return "a Linux bzImage";
	}
	if (note->present && note->handoff) {
		opt->handoff = note->handoff;
		return "as the kernel's kslide note asks";
	}
	if (!note->present && (mb->mb1 || mb->mb2)) {
		opt->handoff = KSLIDE_HANDOFF_MULTIBOOT;
		return "the kernel has a Multiboot header and no kslide note";
	}
	opt->handoff = KSLIDE_HANDOFF_KSLIDE;
	return note->present ? "the kernel's kslide note leaves it to kslide-pack"
			     : "the kernel has no Multiboot header";
}

/*
 * The Multiboot pass-through: the kernel's own requests go into the image's headers, its
 * relocatable tag bounds the placement, and its entry address tag is the entry.
 */
/* The kernel's Multiboot2 relocatable tag narrows the window; an option it overrides is named. */
static void narrow(const char *in, const char *option, bool given, uint64_t *value, uint64_t to,
		   bool narrower)
{
	if (!narrower)
		return;
	if (given)
		fprintf(stderr, "%s: warning: %s: %s 0x%llx overridden by the kernel's Multiboot2 "
				"relocatable tag: 0x%llx\n",
			progname, in, option, (unsigned long long)*value, (unsigned long long)to);
	*value = to;
}

static int prepare_multiboot(const char *in, struct kernel_elf *k,
			     const struct multiboot_requests *mb, struct pack_options *opt,
			     const struct choices *ch)
{
	if (mb->refusal[0])
		return error(in, "%s", mb->refusal);
	if (k->arch != KSLIDE_ARCH_I386)
		return error(in, "--handoff multiboot takes i386 (ELF32) kernels only: the Multiboot "
				 "entry is 32-bit protected mode");
	if (mb->entry_given) {
		if (mb->entry_addr < k->link_phys || mb->entry_addr - k->link_phys >= k->mem_size)
			return error(in, "its Multiboot2 entry address 0x%x lies outside the kernel",
				     (unsigned)mb->entry_addr);
		if (!kernel_elf_runs_code_at(k, mb->entry_addr - k->link_phys))
			return error(in, "its Multiboot2 entry address 0x%x is not in the file bytes "
					 "of an executable segment: an entry point must be code",
				     (unsigned)mb->entry_addr);
		k->entry_offset = mb->entry_addr - k->link_phys;
	}
	if (mb->bounded) {
		narrow(in, "--min", ch->given.min, &opt->min, mb->min_addr, mb->min_addr > opt->min);
		narrow(in, "--max", ch->given.max, &opt->max, mb->max_end, mb->max_end < opt->max);
		narrow(in, "--align", ch->given.align, &opt->align, mb->align, mb->align > opt->align);
	}
	if (mb->mb2_dropped)
		fprintf(stderr, "%s: warning: %s: %zu optional Multiboot2 tag%s of the kernel's header "
				"left out of the image, which relocation cannot honour: type %u (%s)%s\n",
			progname, in, mb->mb2_dropped, mb->mb2_dropped == 1 ? "" : "s",
			(unsigned)mb->mb2_dropped_type, mb->mb2_dropped_name,
			mb->mb2_dropped > 1 ? " and others" : "");
	/* Without a header of its own the kernel takes what either kind of loader gives. */
	opt->multiboot = mb->mb1 || mb->mb2 ? mb : NULL;
	return 0;
}

static void print_linux(const struct linux_image *li)
{
	const struct bzimage_header *h = &li->header;
	fprintf(stderr,
		"linux: bzImage, boot protocol %u.%02u, %s payload: %llu bytes of vmlinux and %llu of "
		"relocation lists\n",
		h->version >> 8, h->version & 0xff, payload_codec_name(li->codec),
		(unsigned long long)li->vmlinux_bytes,
		(unsigned long long)(li->payload_bytes - li->vmlinux_bytes));
	fprintf(stderr, "linux: relocation lists: %zu 32-bit, %zu inverse 32-bit, %zu 64-bit\n",
		li->relocs[LINUX_RELOCS_32], li->relocs[LINUX_RELOCS_INVERSE_32],
		li->relocs[LINUX_RELOCS_64]);
	fprintf(stderr,
		"linux: init_size %u, kernel_alignment 0x%x, min_alignment 0x%llx, pref_address "
		"0x%llx, loadflags 0x%x, xloadflags 0x%x, cmdline_size %u, handover_offset 0x%x; "
		"setup header %u bytes\n",
		h->init_size, h->kernel_alignment,
		h->min_alignment_log2 ? 1ull << h->min_alignment_log2 : 0ull,
		(unsigned long long)h->pref_address, h->loadflags, h->xloadflags, h->cmdline_size,
		h->handover_offset, h->size);
	fprintf(stderr, "linux: %llu bytes from the base must be free at entry: max(vmlinux span, "
			"init_size)\n",
		(unsigned long long)li->memory_size);
}

static void print_verbose(const struct kernel_elf *k, const struct packed_image *img,
			  const struct pack_options *opt, const char *handoff_why,
			  const struct multiboot_requests *mb)
{
	size_t kinds[RELOC_KIND_LAST + 1] = { 0 };
	for (size_t i = 0; i < k->fixup_count; i++)
		kinds[k->fixups[i].kind]++;
	fprintf(stderr,
		"kernel: link phys 0x%llx virt 0x%llx, %llu bytes in memory (%llu in file), "
		"entry +0x%llx\n",
		(unsigned long long)k->link_phys, (unsigned long long)k->link_virt,
		(unsigned long long)k->mem_size, (unsigned long long)k->file_size,
		(unsigned long long)k->entry_offset);
	fprintf(stderr,
		"relocations: %zu patched, %zu PC-relative, %zu absolute symbols left alone, %zu "
		"weak undefined left alone, %zu into the per-CPU segment left alone, %zu in notes\n",
		k->fixup_count, k->skipped_pcrel, k->skipped_absolute, k->skipped_weak,
		k->skipped_fixed, k->skipped_notes);
	fprintf(stderr,
		"fixups: %zu 32-bit, %zu 32-bit signed, %zu 64-bit, %zu inverse 32-bit\n",
		kinds[RELOC_ADD32], kinds[RELOC_ADD32S], kinds[RELOC_ADD64], kinds[RELOC_SUB32S]);
	fprintf(stderr, "image: %zu bytes; base in [0x%llx, 0x%llx) aligned to 0x%llx\n", img->size,
		(unsigned long long)opt->min, (unsigned long long)opt->max,
		(unsigned long long)opt->align);
	if (k->arch == KSLIDE_ARCH_X86_64)
		fprintf(stderr, "image: virtual base in [0x%llx, 0x%llx] (last byte) aligned to "
				"0x%llx\n",
			(unsigned long long)opt->virt_min, (unsigned long long)opt->virt_last,
			(unsigned long long)opt->virt_align);
	fprintf(stderr, "handoff: %s (%s)\n", handoff_name(opt->handoff), handoff_why);
	if (opt->handoff != KSLIDE_HANDOFF_MULTIBOOT)
		return;
	if (!opt->multiboot) {
		fprintf(stderr, "multiboot: the kernel has no Multiboot header: the image answers "
				"Multiboot 1 and 2 loaders alike\n");
		return;
	}
	fprintf(stderr, "multiboot: the kernel's headers: %s%s%s; %zu bytes of Multiboot2 tags asked "
			"again, %zu optional tags left out%s%s\n",
		mb->mb1 ? "Multiboot 1" : "", mb->mb1 && mb->mb2 ? " and " : "",
		mb->mb2 ? "Multiboot 2" : "", mb->mb2_tags_size, mb->mb2_dropped,
		mb->bounded ? "; its relocatable tag bounds the base" : "",
		mb->entry_given ? "; its entry address tag is the entry" : "");
}

/*
 * A link address the packed image itself covers: nokaslr and the fallback need that place.
 * The way out depends on the kernel: any image may shrink below it by compression or do
 * without nokaslr; only a kernel of the user's own can be linked higher (a bzImage cannot).
 */
static void warn_link_inside_image(const char *in, const struct kernel_elf *k, size_t image_size,
				   uint32_t codec, bool is_linux)
{
	uint64_t image_end = IMAGE_LOAD_ADDRESS + image_size;
	if (k->link_phys >= image_end || k->link_phys + k->mem_size <= IMAGE_LOAD_ADDRESS)
		return;
	fprintf(stderr,
		"%s: warning: %s: linked at 0x%llx, inside the packed image's own load range "
		"[0x%llx, 0x%llx): nokaslr, and the fallback when no slot is free, cannot boot it "
		"(the stub refuses them); boot it without nokaslr%s",
		progname, in, (unsigned long long)k->link_phys,
		(unsigned long long)IMAGE_LOAD_ADDRESS, (unsigned long long)image_end,
		codec == KSLIDE_CODEC_NONE ? ", or pack it compressed (--compress zstd) so that "
					     "the image may end below that address" : "");
	if (!is_linux)
		fprintf(stderr, ", or link it at 0x%llx or above",
			(unsigned long long)((image_end + LINK_ADVICE_ALIGN - 1) &
					     ~(LINK_ADVICE_ALIGN - 1)));
	fprintf(stderr, "\n");
}

/*
 * Read IN into k: an ELF, with its kslide note and Multiboot headers, or a Linux bzImage (li,
 * *is_linux), whose handoff data is its setup header. 0, or 1 after a message.
 */
static int read_kernel(const char *in, struct kernel_elf *k, struct kernel_note *note,
		       struct multiboot_requests *mb, struct linux_image *li, bool *is_linux)
{
	size_t len;
	char err[512];
	uint8_t *buf = pack_read_input(in, &len, err, sizeof(err));
	if (!buf)
		return error(in, "%s", err);
	memset(note, 0, sizeof(*note));
	memset(mb, 0, sizeof(*mb));
	*is_linux = bzimage_detect(buf, len);
	bool elf = len >= SELFMAG && memcmp(buf, ELFMAG, SELFMAG) == 0;
	long packed = elf || *is_linux ? -1 : pack_find_kslide_header(buf, len);
	int rc = 0;
	if (packed >= 0) /* the version word follows the magic; any format, old ones too */
		rc = error(in, "a packed kslide image (format version %u; this kslide-pack writes %u), "
			       "not a kernel: pack the kernel it was made from",
			   (unsigned)load_le32(buf + packed + KSLIDE_IMAGE_MAGIC_BYTES),
			   (unsigned)KSLIDE_IMAGE_VERSION);
	else if (!elf && !*is_linux)
		rc = error(in, "not an ELF file or a Linux bzImage (no ELF magic, no boot flag "
			       "0xAA55 and \"HdrS\" at 0x202)");
	else if (*is_linux ? linux_image_read(buf, len, li, k, err, sizeof(err))
			   : kernel_elf_read(buf, len, k, err, sizeof(err)))
		rc = error(in, "%s", err);
	else if (!*is_linux && (kernel_note_read(buf, len, note, err, sizeof(err)) ||
				multiboot_requests_read(buf, len, mb, err, sizeof(err)))) {
		rc = error(in, "%s", err);
		kernel_elf_free(k);
	}
	free(buf);
	return rc;
}

/* Linux's boot protocol needs a bzImage's setup header, and a bzImage needs that protocol. */
static int check_linux_handoff(const char *in, const struct pack_options *opt, bool is_linux)
{
	if (is_linux && opt->handoff != KSLIDE_HANDOFF_LINUX)
		return error(in, "a Linux bzImage is entered by Linux's boot protocol (--handoff "
				 "linux), not --handoff %s",
			     handoff_name(opt->handoff));
	if (!is_linux && opt->handoff == KSLIDE_HANDOFF_LINUX)
		return error(in, "--handoff linux needs a Linux bzImage, whose setup header the "
				 "zero page is built around");
	return 0;
}

static int pack(const char *in, const char *out, struct pack_options *opt,
		const struct choices *ch)
{
	struct kernel_elf k;
	struct kernel_note note;
	struct multiboot_requests mb;
	struct linux_image li;
	bool is_linux = false;
	if (read_kernel(in, &k, &note, &mb, &li, &is_linux))
		return 1;
	const char *handoff_why = choose_handoff(opt, ch, &note, &mb, is_linux);
	apply_defaults(opt, &k, is_linux ? &li : NULL, &note, ch);
	int rc = check_linux_handoff(in, opt, is_linux);
	if (!rc && is_linux) {
		opt->handoff_data = li.header.bytes;
		opt->handoff_data_size = li.header.size;
		opt->memory_size = li.memory_size;
	}
	if (!rc && opt->handoff == KSLIDE_HANDOFF_MULTIBOOT)
		rc = prepare_multiboot(in, &k, &mb, opt, ch);
	const uint8_t *stub = k.arch == KSLIDE_ARCH_I386 ? stub_i386_start : stub_x86_64_start;
	const uint8_t *stub_end = k.arch == KSLIDE_ARCH_I386 ? stub_i386_end : stub_x86_64_end;
	struct packed_image img = { 0 };
	char err[512];
	if (!rc)
		rc = check_options(opt, &k, is_linux ? &li : NULL, &note, in);
	opt->codec = ch->codec == PACK_CODEC_AUTO ? pack_codec_auto(k.file_size) : (uint32_t)ch->codec;
	if (!rc)
		warn_unused_options(in, &k, ch);
	if (!rc && pack_build(stub, (size_t)(stub_end - stub), &k, opt, &img, err, sizeof(err)))
		rc = error(in, "%s", err);
	if (!rc && pack_write_output(out, img.bytes, img.size, err, sizeof(err)))
		rc = error(strcmp(out, PACK_STDOUT) ? out : NULL, "%s", err);
	if (!rc)
		warn_link_inside_image(in, &k, img.size, opt->codec, is_linux);
	if (!rc && opt->debug_placement)
		fprintf(stderr, "%s: warning: %s: packed with --debug-placement: kslide.phys= on "
				"the command line chooses the base; for reproducing a boot, not for "
				"use\n",
			progname, in);
	if (!rc && ch->codec != PACK_CODEC_AUTO && opt->codec != KSLIDE_CODEC_NONE &&
	    img.payload_stored_size >= k.file_size)
		fprintf(stderr, "%s: warning: %s: --compress %s stored the %llu-byte kernel in %zu "
				"bytes, no fewer: the stub decodes it for nothing; --compress none "
				"(or auto, which compresses from %u bytes) would not\n",
			progname, in, pack_codec_name((int)opt->codec), (unsigned long long)k.file_size,
			img.payload_stored_size, PACK_COMPRESS_AUTO_MIN);
	if (!rc && ch->stats) /* not into the image when it goes to standard output */
		print_stats(&img, strcmp(out, PACK_STDOUT) ? stdout : stderr);
	if (!rc && ch->verbose && is_linux)
		print_linux(&li);
	if (!rc && ch->verbose)
		print_verbose(&k, &img, opt, handoff_why, &mb);
	free(img.bytes);
	kernel_elf_free(&k);
	return rc;
}

int main(int argc, char **argv)
{
	enum { OPT_ALIGN = 256, OPT_MIN, OPT_MAX, OPT_VIRT_ALIGN, OPT_NOKASLR, OPT_STATS,
	       OPT_VIRT_RANGE, OPT_HANDOFF, OPT_COMPRESS, OPT_DEBUG_PLACEMENT };
	static const struct option longopts[] = {
		{ "output", required_argument, 0, 'o' },
		{ "align", required_argument, 0, OPT_ALIGN },
		{ "min", required_argument, 0, OPT_MIN },
		{ "max", required_argument, 0, OPT_MAX },
		{ "virt-align", required_argument, 0, OPT_VIRT_ALIGN },
		{ "no-kaslr-default", no_argument, 0, OPT_NOKASLR },
		{ "stats", no_argument, 0, OPT_STATS },
		{ "virt-range", required_argument, 0, OPT_VIRT_RANGE },
		{ "handoff", required_argument, 0, OPT_HANDOFF },
		{ "compress", required_argument, 0, OPT_COMPRESS },
		{ "debug-placement", no_argument, 0, OPT_DEBUG_PLACEMENT },
		{ "verbose", no_argument, 0, 'v' },
		{ "help", no_argument, 0, 'h' },
		{ "version", no_argument, 0, 'V' },
		{ 0, 0, 0, 0 },
	};
	struct pack_options opt = { .align = DEFAULT_ALIGN, .min = DEFAULT_MIN };
	struct choices ch = { .codec = PACK_CODEC_AUTO };
	const char *out = NULL;
	int c, index;
	/* An option given twice keeps its last value: the first is named, not dropped unsaid. */
	bool seen[OPT_COMPRESS + 1] = { false };
	while ((c = getopt_long(argc, argv, "o:vhV", longopts, &index)) != -1) {
		if (c >= 0 && c <= OPT_COMPRESS && optarg) {
			if (seen[c])
				fprintf(stderr, "%s: warning: %s%s given more than once: the last, "
						"'%s', is used\n",
					progname, c == 'o' ? "-" : "--",
					c == 'o' ? "o" : longopts[index].name, optarg);
			seen[c] = true;
		}
		uint64_t *target = c == OPT_ALIGN ? &opt.align
				   : c == OPT_MIN ? &opt.min
				   : c == OPT_MAX ? &opt.max
						  : &opt.virt_align;
		switch (c) {
		case 'o': out = optarg; break;
		case OPT_ALIGN:
		case OPT_MIN:
		case OPT_MAX:
		case OPT_VIRT_ALIGN:
			if (parse_size(optarg, target) || (c == OPT_VIRT_ALIGN && *target == 0))
				return error(NULL, "invalid number '%s' for --%s", optarg,
					     longopts[c - OPT_ALIGN + 1].name);
			ch.given.align |= c == OPT_ALIGN;
			ch.given.min |= c == OPT_MIN;
			ch.given.max |= c == OPT_MAX;
			ch.given.virt_align |= c == OPT_VIRT_ALIGN;
			break;
		case OPT_VIRT_RANGE:
			if (parse_range(optarg, &opt.virt_min, &opt.virt_last))
				return error(NULL, "invalid range '%s' for --virt-range (want MIN:END "
						   "with MIN < END)",
					     optarg);
			ch.given.range = true;
			break;
		case OPT_HANDOFF:
			if (parse_handoff(optarg, &opt.handoff))
				return 1;
			ch.handoff_given = true;
			break;
		case OPT_COMPRESS:
			if (pack_codec_parse(optarg, &ch.codec))
				return error(NULL, "unknown codec '%s' for --compress (known: zstd, "
						   "lz4, none, auto)",
					     optarg);
			break;
		case OPT_NOKASLR: opt.nokaslr_default = 1; break;
		case OPT_DEBUG_PLACEMENT: opt.debug_placement = 1; break;
		case OPT_STATS: ch.stats = 1; break;
		case 'v': ch.verbose = 1; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("kslide-pack %s\n", KSLIDE_VERSION); return 0;
		default: usage(stderr); return 1;
		}
	}
	if (!out || optind >= argc || optind < argc - 1) {
		error(NULL, "%s", !out		       ? "no output file: give -o OUT"
				  : optind >= argc     ? "no input kernel: give IN (an ELF or a bzImage)"
						       : "more than one input kernel");
		usage(stderr);
		return 1;
	}
	/* Before any work: an output that cannot take the image is refused at once. */
	char err[512];
	if (pack_output_check(out, err, sizeof(err)))
		return error(strcmp(out, PACK_STDOUT) ? out : NULL, "%s", err);
	if (strcmp(out, PACK_STDOUT) == 0)
		signal(SIGPIPE, SIG_IGN); /* a closed pipe is a write error with a message */
	return pack(argv[optind], out, &opt, &ch);
}
