/*
 * kslide-pack: turn a relocatable ELF kernel into a self-randomizing Multiboot image.
 * See docs/kslide-pack.1 (usage) and docs/format.md (what it writes).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/kslide/image.h"
#include "tools/pack/image_writer.h"
#include "tools/pack/kernel_elf.h"

#ifndef KSLIDE_VERSION
#define KSLIDE_VERSION "0.1"
#endif

extern const uint8_t stub_i386_start[], stub_i386_end[];

/* i386 defaults: 2 MiB alignment (a large-page boundary, as Linux's CONFIG_PHYSICAL_ALIGN),
 * at least 16 MiB (clear of ISA DMA and legacy areas), ending below the 896 MiB lowmem limit
 * the kernel maps at 0xC0000000. */
#define DEFAULT_ALIGN 0x200000ull
#define DEFAULT_MIN_I386 0x1000000ull
#define DEFAULT_MAX_I386 0x38000000ull
#define MIN_ALIGN 0x1000ull

static const char *progname = "kslide-pack";

static void usage(FILE *to)
{
	fprintf(to,
		"Usage: %s [options] -o OUT IN.elf\n"
		"Turn a relocatable ELF kernel (linked with --emit-relocs) into a Multiboot image\n"
		"that loads it at a random base on every boot.\n"
		"\n"
		"  -o, --output FILE       write the image here (atomically)\n"
		"      --align N           base alignment, a power of two >= 4K (default 2M)\n"
		"      --min ADDR          lowest physical base (default 16M)\n"
		"      --max ADDR          the kernel must end at or below ADDR (default 896M)\n"
		"      --no-kaslr-default  boot at the link address unless \"kaslr\" is given\n"
		"      --stats             print relocation table statistics\n"
		"  -v, --verbose           describe the kernel and the image\n"
		"  -h, --help              show this help\n"
		"  -V, --version           show the version\n"
		"\n"
		"Numbers accept 0x prefixes and K, M, G suffixes.\n",
		progname);
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
	}
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 20, n = 0;
	uint8_t *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n, f);
		if (n < cap)
			break;
		uint8_t *bigger = realloc(buf, cap *= 2);
		if (!bigger)
			free(buf);
		buf = bigger;
	}
	int bad = ferror(f) ? (errno ? errno : EIO) : 0; /* EISDIR for a directory */
	fclose(f);
	if (bad) {
		free(buf);
		errno = bad;
		return NULL;
	}
	*len = n;
	return buf;
}

static void print_stats(const struct packed_image *img)
{
	double per = img->reloc_count ? (double)img->relocs_size / (double)img->reloc_count : 0;
	printf("relocations: %zu\n", img->reloc_count);
	printf("table bytes: %zu (%.2f bytes/relocation; 4-byte form: %zu bytes)\n",
	       img->relocs_size, per, img->reloc_count * 4);
}

static void print_verbose(const struct kernel_elf *k, const struct packed_image *img,
			  const struct pack_options *opt)
{
	fprintf(stderr,
		"kernel: link phys 0x%llx virt 0x%llx, %llu bytes in memory (%llu in file), "
		"entry +0x%llx\n",
		(unsigned long long)k->link_phys, (unsigned long long)k->link_virt,
		(unsigned long long)k->mem_size, (unsigned long long)k->file_size,
		(unsigned long long)k->entry_offset);
	fprintf(stderr,
		"relocations: %zu patched, %zu PC-relative, %zu absolute symbols left alone\n",
		k->fixup_count, k->skipped_pcrel, k->skipped_absolute);
	fprintf(stderr, "image: %zu bytes; base in [0x%llx, 0x%llx) aligned to 0x%llx\n", img->size,
		(unsigned long long)opt->min, (unsigned long long)opt->max,
		(unsigned long long)opt->align);
}

static int check_options(const struct pack_options *opt, const struct kernel_elf *k,
			 const char *in)
{
	if (opt->align < MIN_ALIGN || (opt->align & (opt->align - 1)))
		return error(NULL, "--align must be a power of two of at least 4K");
	if (opt->min >= opt->max)
		return error(NULL, "--min must be below --max");
	if (k->mem_size > opt->max - opt->min)
		return error(in, "kernel (%llu bytes) does not fit between --min and --max",
			     (unsigned long long)k->mem_size);
	if (k->arch == KSLIDE_ARCH_I386 && opt->max > 0x100000000ull)
		return error(NULL, "--max is beyond the 4 GiB an i386 kernel can address");
	return 0;
}

int main(int argc, char **argv)
{
	enum { OPT_ALIGN = 256, OPT_MIN, OPT_MAX, OPT_NOKASLR, OPT_STATS };
	static const struct option longopts[] = {
		{ "output", required_argument, 0, 'o' },
		{ "align", required_argument, 0, OPT_ALIGN },
		{ "min", required_argument, 0, OPT_MIN },
		{ "max", required_argument, 0, OPT_MAX },
		{ "no-kaslr-default", no_argument, 0, OPT_NOKASLR },
		{ "stats", no_argument, 0, OPT_STATS },
		{ "verbose", no_argument, 0, 'v' },
		{ "help", no_argument, 0, 'h' },
		{ "version", no_argument, 0, 'V' },
		{ 0, 0, 0, 0 },
	};
	struct pack_options opt = { DEFAULT_ALIGN, DEFAULT_MIN_I386, DEFAULT_MAX_I386, 0 };
	const char *out = NULL;
	int stats = 0, verbose = 0, c;
	while ((c = getopt_long(argc, argv, "o:vhV", longopts, NULL)) != -1) {
		uint64_t *target = c == OPT_ALIGN ? &opt.align : c == OPT_MIN ? &opt.min : &opt.max;
		switch (c) {
		case 'o': out = optarg; break;
		case OPT_ALIGN:
		case OPT_MIN:
		case OPT_MAX:
			if (parse_size(optarg, target))
				return error(NULL, "invalid number '%s' for --%s", optarg,
					     longopts[c - OPT_ALIGN + 1].name);
			break;
		case OPT_NOKASLR: opt.nokaslr_default = 1; break;
		case OPT_STATS: stats = 1; break;
		case 'v': verbose = 1; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("kslide-pack %s\n", KSLIDE_VERSION); return 0;
		default: usage(stderr); return 1;
		}
	}
	if (!out || optind != argc - 1) {
		usage(stderr);
		return 1;
	}
	const char *in = argv[optind];
	size_t len;
	uint8_t *buf = read_file(in, &len);
	if (!buf)
		return error(in, "%s", strerror(errno));
	char err[512];
	struct kernel_elf k;
	int rc = kernel_elf_read(buf, len, &k, err, sizeof(err));
	free(buf);
	if (rc)
		return error(in, "%s", err);
	if (k.arch != KSLIDE_ARCH_I386) {
		kernel_elf_free(&k);
		return error(in, "x86-64 kernels cannot be packed yet: no x86-64 stub");
	}
	struct packed_image img = { 0 };
	rc = check_options(&opt, &k, in);
	if (!rc && pack_build(stub_i386_start, (size_t)(stub_i386_end - stub_i386_start), &k, &opt,
			      &img, err, sizeof(err)))
		rc = error(in, "%s", err);
	if (!rc && pack_write_atomic(out, img.bytes, img.size, err, sizeof(err)))
		rc = error(out, "%s", err);
	if (!rc && stats)
		print_stats(&img);
	if (!rc && verbose)
		print_verbose(&k, &img, &opt);
	free(img.bytes);
	kernel_elf_free(&k);
	return rc;
}
