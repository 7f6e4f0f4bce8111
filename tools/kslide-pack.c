/*
 * kslide-pack: turn a relocatable ELF kernel, or a Linux bzImage, into a self-randomizing
 * image in a container a boot loader reads (--format; a Multiboot image by default).
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
#include "lib/log2.h"
#include "lib/unaligned.h"
#include "tools/pack/authenticode.h"
#include "tools/pack/base_window.h"
#include "tools/pack/files.h"
#include "tools/pack/compress.h"
#include "tools/pack/container.h"
#include "tools/pack/describe.h"
#include "tools/pack/fail.h"
#include "tools/pack/image_writer.h"
#include "tools/pack/kernel_elf.h"
#include "tools/pack/kernel_limits.h"
#include "tools/pack/kernel_note.h"
#include "tools/pack/link_warning.h"
#include "tools/pack/linux_image.h"
#include "tools/pack/multiboot_header.h"
#include "tools/pack/numbers.h"
#include "tools/pack/policy.h"
#include "tools/pack/shuffle_units.h"
#include "tools/pack/signer.h"
#include "tools/pack/single_slide.h"

#ifndef KSLIDE_VERSION
#define KSLIDE_VERSION "0.1"
#endif

extern const uint8_t stub_i386_start[], stub_i386_end[];
extern const uint8_t stub_x86_64_start[], stub_x86_64_end[];


static const char *progname = "kslide-pack";

static void usage(FILE *to)
{
	fprintf(to,
		"Usage: %s [options] -o OUT IN\n"
		"Turn a relocatable kernel into a boot image (Multiboot unless --format says\n"
		"otherwise) that loads it at a random base on every boot. IN is an ELF (i386 or\n"
		"x86-64 linked with --emit-relocs, an x86-64 static PIE, or Linux's vmlinux) or a\n"
		"Linux bzImage (/boot/vmlinuz-*: boot protocol 2.08 or later, relocatable; its\n"
		"payload is decompressed and its relocation lists read, and its setup header\n"
		"chooses Linux's windows as the defaults). On x86-64 the virtual base is drawn\n"
		"independently of the physical one.\n"
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
	for (size_t i = 0; pack_handoff_at(i); i++)
		fprintf(to, "                            %-10s %s\n", pack_handoff_at(i),
			pack_handoff_what(i));
	fprintf(to,
		"      --kslide-tag        multiboot: add kslide's boot info to the Multiboot 2\n"
		"                          information as a tag of its own (by default the kernel\n"
		"                          gets the loader's tags only; ECX, with EDX =\n"
		"                          KSLIDE_BOOT_MAGIC, points to it either way)\n");
	fprintf(to, "      --format NAME       the container a boot loader reads (default %s):\n",
		container_default()->name);
	for (size_t i = 0; container_at(i); i++)
		fprintf(to, "                            %-10s %s; --compress %s\n",
			container_at(i)->name, container_at(i)->what,
			pack_codec_name(container_at(i)->codec_default));
	fprintf(to,
		"      --compress CODEC    how the payload is stored: zstd (level 22, long-distance\n"
		"                          matching, window <= 128M), lz4 (LZ4HC 12, linked 4M\n"
		"                          blocks), none, or auto (zstd for a payload of 1M or more,\n"
		"                          none below), by default the container's (--format, above);\n"
		"                          both with content checksums\n"
		"      --sign KEY          efi: sign the image for UEFI Secure Boot (Authenticode,\n"
		"                          SHA-256, as sbsign does) with KEY, a PEM private key\n"
		"      --cert CERT         with --sign: KEY's X.509 certificate (PEM), put in the\n"
		"                          signature\n"
		"      --key-pass FILE     with --sign: an encrypted KEY's passphrase, FILE's first\n"
		"                          line\n"
		"      --shuffle           i386, and x86-64 Multiboot kernels that move by one slide\n"
		"                          (the i386 stub, --format multiboot; the x86-64 one also\n"
		"                          by the x86-64 stub, --format efi): move the kernel's\n"
		"                          function sections into a random order at every boot\n"
		"                          as well (gcc -ffunction-sections,\n"
		"                          each .text.* its own section in the link, e.g. ld\n"
		"                          --unique=.text.*, and --emit-relocs); refused with the\n"
		"                          reason when it cannot be proven safe: no separate\n"
		"                          function sections, a relocation type it does not know,\n"
		"                          another section among them, too little room after them\n"
		"                          for the worst order (each one's size plus its alignment\n"
		"                          less one), an x86-64 32-bit field that some order and base\n"
		"                          would overflow. Not checked: PC-relative references leaving a\n"
		"                          function section without a relocation (hand-written code)\n"
		"      --stats             print relocation table statistics\n"
		"  -v, --verbose           describe the kernel and the image (and a bzImage's header)\n"
		"  -h, --help              show this help\n"
		"  -V, --version           show the version\n"
		"\n"
		"Numbers accept 0x prefixes and K, M, G, T suffixes.\n");
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

/*
 * Read IN into k: an ELF, with its kslide note and Multiboot headers, or a Linux bzImage (li,
 * *is_linux), whose handoff data is its setup header. 0, or 1 after a message.
 */
static int read_kernel(const char *in, struct kernel_elf *k, struct kernel_note *note,
		       struct multiboot_requests *mb, struct linux_image *li, bool *is_linux,
		       struct shuffle_units *shuffle)
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
	} else if (shuffle && (*is_linux ? pack_fail(err, sizeof(err), "--shuffle: Linux's "
								      "bzImage is not built with "
								      "separate function sections")
					 : shuffle_units_read(buf, len, k, shuffle, err,
							      sizeof(err)))) {
		rc = error(in, "%s", err);
		kernel_elf_free(k);
	}
	free(buf);
	return rc;
}

static void warn_line(void *ctx, const char *text)
{
	(void)ctx;
	fprintf(stderr, "%s: warning: %s\n", progname, text);
}

static const struct pack_log to_stderr = { warn_line, NULL };

/* What read_kernel found in IN. */
struct input {
	struct kernel_elf k;
	struct kernel_note note;
	struct multiboot_requests mb;
	struct linux_image li;
	bool is_linux;
	struct shuffle_units shuffle; /* --shuffle's table, else empty */
};

/* The packing policy (tools/pack/policy.h) on this kernel: the handoff, the defaults, the
 * checks. 0, or 1 after a message. */
static int decide(const char *in, struct input *i, struct pack_options *opt,
		  const struct pack_choices *ch, const char **handoff_why)
{
	const struct linux_image *li = i->is_linux ? &i->li : NULL;
	char err[512];
	*handoff_why = pack_choose_handoff(opt, ch, &i->note, &i->mb, i->is_linux, &to_stderr);
	pack_apply_defaults(opt, &i->k, li, &i->note, ch);
	if (pack_check_linux_handoff(opt, i->is_linux, err, sizeof(err)) ||
	    pack_check_kslide_handoff(in, opt, &i->k, &i->note, &i->mb, &to_stderr, err,
				      sizeof(err)))
		return error(in, "%s", err);
	if (li) {
		opt->handoff_data = li->header.bytes;
		opt->handoff_data_size = li->header.size;
		opt->memory_size = li->memory_size;
	}
	if (opt->handoff == KSLIDE_HANDOFF_MULTIBOOT &&
	    pack_prepare_multiboot(in, &i->k, &i->mb, opt, ch, &to_stderr, err, sizeof(err)))
		return error(in, "%s", err);
	if (single_slide_check_offsets(&i->k, err, sizeof(err)) ||
	    single_slide_check_entry(in, &i->k, &to_stderr, err, sizeof(err)))
		return error(in, "%s", err);
	/* The x86-64 stub runs it from a Multiboot loader or UEFI (boot/handoff_multiboot.c). */
	if (i->k.single_slide && i->k.arch == KSLIDE_ARCH_X86_64 && opt->container == &container_pvh)
		return error(in, "%s",
			     "a Multiboot kernel starts from a Multiboot loader or UEFI firmware, "
			     "not from a PVH monitor: --format multiboot or --format efi");
	enum pack_verdict verdict = pack_check_options(opt, &i->k, li, &i->note, err, sizeof(err));
	if (verdict != PACK_OPTIONS_OK)
		return error(verdict == PACK_BAD_FOR_KERNEL ? in : NULL, "%s", err);
	if (i->shuffle.table &&
	    shuffle_units_check_bases(&i->shuffle, &i->k, opt, err, sizeof(err)))
		return error(in, "%s", err);
	return 0;
}

/* What the image says after it is written: warnings, --stats, --verbose. */
static void report(const char *in, const char *out, const struct input *i,
		   const struct packed_image *img, const struct pack_options *opt,
		   const struct pack_choices *ch, const char *handoff_why)
{
	link_warning(progname, in, &i->k, img, opt->codec, i->is_linux);
	if (opt->debug_placement)
		fprintf(stderr, "%s: warning: %s: packed with --debug-placement: kslide.phys= on "
				"the command line chooses the base; for reproducing a boot, not for "
				"use\n",
			progname, in);
	if (ch->codec >= 0 && opt->codec != KSLIDE_CODEC_NONE && /* a codec named by --compress */
	    img->payload_stored_size >= i->k.file_size)
		fprintf(stderr, "%s: warning: %s: --compress %s stored the %llu-byte kernel in %zu "
				"bytes, no fewer: the stub decodes it for nothing; --compress none "
				"(or auto, which compresses from %u bytes) would not\n",
			progname, in, pack_codec_name((int)opt->codec),
			(unsigned long long)i->k.file_size, img->payload_stored_size,
			PACK_COMPRESS_AUTO_MIN);
	if (ch->stats) /* not into the image when it goes to standard output */
		describe_stats(img, strcmp(out, PACK_STDOUT) ? stdout : stderr);
	if (ch->verbose && i->is_linux)
		describe_linux(&i->li, stderr);
	if (ch->verbose)
		describe_image(&i->k, img, opt, handoff_why, &i->mb, stderr);
	if (ch->verbose && i->shuffle.table) {
		/* log2(N!): the layouts a boot draws among, each equally likely; the factors
		 * multiplied while they fit, so that few roundings add up */
		uint64_t bits = 0, product = 1;
		for (uint64_t n = 2; n <= i->shuffle.unit_count; n++) {
			if (product > UINT64_MAX / n) {
				bits += log2_fixed(product);
				product = 1;
			}
			product *= n;
		}
		bits += log2_fixed(product);
		fprintf(stderr, "shuffle: %zu function sections, %zu references to follow (%zu "
				"within one section left alone), %zu table bytes; region %llu bytes, "
				"the worst order needs %llu; log2(%zu!) = %llu.%02llu bits\n",
			i->shuffle.unit_count, i->shuffle.reloc_count, i->shuffle.same_unit,
			i->shuffle.size, (unsigned long long)i->shuffle.region_size,
			(unsigned long long)i->shuffle.worst_size, i->shuffle.unit_count,
			(unsigned long long)(bits / LOG2_ONE),
			(unsigned long long)(bits % LOG2_ONE * 100 / LOG2_ONE));
	}
}

static int pack(const char *in, const char *out, struct pack_options *opt,
		const struct pack_choices *ch, const struct signer *signer)
{
	struct input i = { .is_linux = false };
	if (read_kernel(in, &i.k, &i.note, &i.mb, &i.li, &i.is_linux,
			ch->shuffle ? &i.shuffle : NULL))
		return 1;
	opt->shuffle_table = i.shuffle.table;
	opt->shuffle_table_size = i.shuffle.size;
	const char *handoff_why;
	if (ch->verbose) /* what it found, before anything is refused */
		describe_kernel(&i.k, stderr);
	int rc = decide(in, &i, opt, ch, &handoff_why);
	const struct container *c = opt->container ? opt->container : container_default();
	opt->codec = pack_codec_choose(ch->codec, c->codec_default, i.k.file_size);
	if (!rc)
		pack_warn_unused_options(in, &i.k, ch, &to_stderr);
	if (!rc && opt->kslide_tag && opt->handoff != KSLIDE_HANDOFF_MULTIBOOT)
		fprintf(stderr, "%s: warning: %s: --kslide-tag ignored: only --handoff multiboot "
				"passes Multiboot 2 information on\n",
			progname, in);
	bool i386_stub = pack_stub_arch(&i.k, opt) == KSLIDE_ARCH_I386;
	const uint8_t *stub = i386_stub ? stub_i386_start : stub_x86_64_start;
	const uint8_t *stub_end = i386_stub ? stub_i386_end : stub_x86_64_end;
	struct packed_image img = { 0 };
	char err[512];
	if (!rc && pack_build(stub, (size_t)(stub_end - stub), &i.k, opt, &img, err, sizeof(err)))
		rc = error(in, "%s", err);
	if (!rc && signer->key) {
		if (authenticode_sign(&img.bytes, &img.size, signer, err, sizeof(err)))
			rc = error(in, "%s", err);
		else
			c->seal(img.bytes, img.size); /* the PE checksum covers the signature too */
	}
	if (!rc && pack_write_output(out, img.bytes, img.size, err, sizeof(err)))
		rc = error(strcmp(out, PACK_STDOUT) ? out : NULL, "%s", err);
	if (!rc)
		report(in, out, &i, &img, opt, ch, handoff_why);
	free(img.bytes);
	shuffle_units_free(&i.shuffle);
	kernel_elf_free(&i.k);
	return rc;
}

enum { OPT_ALIGN = 256, OPT_MIN, OPT_MAX, OPT_VIRT_ALIGN, OPT_NOKASLR, OPT_STATS, OPT_VIRT_RANGE,
       OPT_HANDOFF, OPT_COMPRESS, OPT_FORMAT, OPT_DEBUG_PLACEMENT, OPT_KSLIDE_TAG, OPT_SIGN,
       OPT_CERT, OPT_KEY_PASS, OPT_SHUFFLE };

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
	{ "format", required_argument, 0, OPT_FORMAT },
	{ "debug-placement", no_argument, 0, OPT_DEBUG_PLACEMENT },
	{ "kslide-tag", no_argument, 0, OPT_KSLIDE_TAG },
	{ "sign", required_argument, 0, OPT_SIGN },
	{ "cert", required_argument, 0, OPT_CERT },
	{ "key-pass", required_argument, 0, OPT_KEY_PASS },
	{ "shuffle", no_argument, 0, OPT_SHUFFLE },
	{ "verbose", no_argument, 0, 'v' },
	{ "help", no_argument, 0, 'h' },
	{ "version", no_argument, 0, 'V' },
	{ 0, 0, 0, 0 },
};

/* --align, --min, --max, --virt-align: a number. 0, or 1 after a message. */
static int parse_number(int c, const char *arg, struct pack_options *opt, struct pack_choices *ch)
{
	uint64_t *target = c == OPT_ALIGN ? &opt->align
			   : c == OPT_MIN ? &opt->min
			   : c == OPT_MAX ? &opt->max
					  : &opt->virt_align;
	if (pack_parse_size(arg, target) || (c == OPT_VIRT_ALIGN && *target == 0))
		return error(NULL, "invalid number '%s' for --%s", arg,
			     longopts[c - OPT_ALIGN + 1].name);
	ch->given.align |= c == OPT_ALIGN;
	ch->given.min |= c == OPT_MIN;
	ch->given.max |= c == OPT_MAX;
	ch->given.virt_align |= c == OPT_VIRT_ALIGN;
	return 0;
}

/* An option that names something: --virt-range, --handoff, --format, --compress. 0, or 1
 * after a message. */
static int parse_name(int c, const char *arg, struct pack_options *opt, struct pack_choices *ch)
{
	switch (c) {
	case OPT_VIRT_RANGE:
		if (pack_parse_range(arg, &opt->virt_min, &opt->virt_last))
			return error(NULL, "invalid range '%s' for --virt-range (want MIN:END with "
					   "MIN < END)",
				     arg);
		ch->given.range = true;
		return 0;
	case OPT_HANDOFF:
		if (pack_handoff_parse(arg, &opt->handoff))
			return error(NULL, "unknown handoff '%s' for --handoff (known: %s)", arg,
				     pack_handoff_names());
		ch->handoff_given = true;
		return 0;
	case OPT_FORMAT:
		opt->container = container_find(arg);
		if (!opt->container)
			return error(NULL, "unknown container '%s' for --format (known: %s)", arg,
				     container_names());
		return 0;
	}
	if (pack_codec_parse(arg, &ch->codec))
		return error(NULL, "unknown codec '%s' for --compress (known: zstd, lz4, none, auto)",
			     arg);
	return 0;
}

/* The command line into opt, ch and *out. -1 to go on packing argv[optind], else the exit
 * status (--help, --version, a mistake). */
static int parse_options(int argc, char **argv, struct pack_options *opt, struct pack_choices *ch,
			 const char **out)
{
	int c, index;
	/* An option given twice keeps its last value: the first is named, not dropped unsaid. */
	bool seen[OPT_FORMAT + 1] = { false };
	while ((c = getopt_long(argc, argv, "o:vhV", longopts, &index)) != -1) {
		if (c >= 0 && c <= OPT_FORMAT && optarg) {
			if (seen[c])
				fprintf(stderr, "%s: warning: %s%s given more than once: the last, "
						"'%s', is used\n",
					progname, c == 'o' ? "-" : "--",
					c == 'o' ? "o" : longopts[index].name, optarg);
			seen[c] = true;
		}
		switch (c) {
		case 'o': *out = optarg; break;
		case OPT_ALIGN:
		case OPT_MIN:
		case OPT_MAX:
		case OPT_VIRT_ALIGN:
			if (parse_number(c, optarg, opt, ch))
				return 1;
			break;
		case OPT_VIRT_RANGE:
		case OPT_HANDOFF:
		case OPT_FORMAT:
		case OPT_COMPRESS:
			if (parse_name(c, optarg, opt, ch))
				return 1;
			break;
		case OPT_NOKASLR: opt->nokaslr_default = 1; break;
		case OPT_DEBUG_PLACEMENT: opt->debug_placement = 1; break;
		case OPT_KSLIDE_TAG: opt->kslide_tag = 1; break;
		case OPT_SIGN: ch->sign_key = optarg; break;
		case OPT_CERT: ch->sign_cert = optarg; break;
		case OPT_KEY_PASS: ch->key_pass = optarg; break;
		case OPT_STATS: ch->stats = 1; break;
		case OPT_SHUFFLE: ch->shuffle = 1; break;
		case 'v': ch->verbose = 1; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("kslide-pack %s\n", KSLIDE_VERSION); return 0;
		default: usage(stderr); return 1;
		}
	}
	if (!*out || optind >= argc || optind < argc - 1) {
		error(NULL, "%s", !*out		       ? "no output file: give -o OUT"
				  : optind >= argc     ? "no input kernel: give IN (an ELF or a bzImage)"
						       : "more than one input kernel");
		usage(stderr);
		return 1;
	}
	if (!ch->sign_key != !ch->sign_cert || (ch->key_pass && !ch->sign_key))
		return error(NULL, "%s", ch->sign_key	 ? "--sign needs --cert CERT, the key's certificate"
					 : ch->sign_cert ? "--cert without --sign KEY: nothing to sign"
							 : "--key-pass without --sign KEY");
	if (ch->sign_key && opt->container != &container_efi)
		return error(NULL, "--sign makes an Authenticode signature, which only a PE carries: "
				   "it needs --format efi");
	return -1;
}

int main(int argc, char **argv)
{
	struct pack_options opt = { .align = DEFAULT_ALIGN, .min = DEFAULT_MIN };
	struct pack_choices ch = { .codec = PACK_CODEC_DEFAULT };
	const char *out = NULL;
	int status = parse_options(argc, argv, &opt, &ch, &out);
	if (status >= 0)
		return status;
	/* Before any work: an output that cannot take the image is refused at once. */
	char err[512];
	if (pack_output_check(out, err, sizeof(err)))
		return error(strcmp(out, PACK_STDOUT) ? out : NULL, "%s", err);
	if (strcmp(out, PACK_STDOUT) == 0)
		signal(SIGPIPE, SIG_IGN); /* a closed pipe is a write error with a message */
	struct signer signer = { NULL, NULL }; /* read before packing: a bad key costs nothing */
	if (ch.sign_key &&
	    signer_load(&signer, ch.sign_key, ch.sign_cert, ch.key_pass, err, sizeof(err)))
		return error(NULL, "%s", err);
	status = pack(argv[optind], out, &opt, &ch, &signer);
	signer_free(&signer);
	return status;
}
