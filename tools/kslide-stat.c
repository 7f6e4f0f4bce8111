/*
 * kslide-stat: measure the entropy a packed image's base really gets. Boots the image N times
 * under QEMU (or reads lines collected earlier), then prints how the bases spread over the
 * slots, beside the seed patch and Linux for comparison. With --linux it measures a stock
 * bzImage's own KASLR the same way, over a model of Linux's slots (tools/stat/linux_kaslr.h).
 * With --uefi the image boots from an ESP under OVMF instead of QEMU's -kernel (tools/stat/
 * esp.h), and a bzImage through its own EFI stub (tools/stat/linux_efi_kaslr.h).
 * See docs/kslide-stat.1.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "include/kslide/image.h"
#include "tools/common/atomic_file.h"
#include "tools/pack/linux_image.h"
#include "tools/stat/boots.h"
#include "tools/stat/layout.h"
#include "tools/stat/linux_kaslr.h"
#include "tools/stat/output.h"
#include "tools/stat/plot.h"
#include "tools/stat/samples.h"
#include "tools/stat/seed.h"
#include "tools/stat/stats.h"
#include "tools/stat/subject.h"
#include "tools/stat/verdict.h"

#ifndef KSLIDE_VERSION
#define KSLIDE_VERSION "0.1"
#endif

#define DEFAULT_BOOTS	100
#define DEFAULT_TIMEOUT 60
#define DEFAULT_CPU	"max"
#define DEFAULT_MEMORY	"1G"
#define EXTRA_MAX	64
#define APPEND_MAX	4096
/* Linux on the serial port, quiet, and QEMU ended if it panics (mk/linux.mk's LINUX_CMDLINE). */
#define LINUX_APPEND "console=ttyS0 quiet panic=-1"
/* Under UEFI Linux logs the EFI memory map its stub drew from only when asked: init forwards
 * the lines to the model (tools/stat/linux_efi_kaslr.h). */
#define LINUX_EFI_MAP_WORD "efi=debug"
/* The exit status when the figures condemn the image (see EXIT STATUS in the man page). */
#define EXIT_VERDICT 3

static const char *progname = "kslide-stat";

static void usage(FILE *to)
{
	fprintf(to,
		"Usage: %s [options] IMAGE\n"
		"       %s --linux --initrd INITRAMFS [options] BZIMAGE\n"
		"       %s --uefi [--linux --initrd INITRAMFS] [options] EFI_IMAGE\n"
		"Boot a packed image N times under QEMU (TCG) and measure how its base is spread:\n"
		"distinct values, collisions, min-entropy, chi-square uniformity, the entropy\n"
		"credited, beside the 2011 seed patch and Linux x86-64 for comparison. With\n"
		"--linux, boot a Linux bzImage by QEMU's Linux loader and measure its own KASLR:\n"
		"the initramfs's init must report where the kernel runs (tests/linux/init.c).\n"
		"With --uefi, boot under UEFI firmware (OVMF, -M q35) from an ESP instead: a\n"
		"kslide PE (kslide-pack --format efi), or with --linux a bzImage through its own\n"
		"EFI stub, whose KASLR is then what is measured.\n"
		"\n"
		"  -n, --boots N          boot N times (default %d)\n"
		"  -j, --jobs J           run J QEMUs at once (default: the number of CPUs)\n"
		"      --arch ARCH        qemu-system-ARCH (default: from the image)\n"
		"      --cpu CPU          QEMU -cpu (default %s)\n"
		"  -m, --memory SIZE      QEMU -m (default %s)\n"
		"      --append TEXT      kernel command line\n"
		"      --qemu-arg WORD    one more QEMU argument (repeatable, in order)\n"
		"      --timeout SECS     per boot (default %d)\n"
		"      --initrd FILE      QEMU -initrd: a Multiboot module for a packed image,\n"
		"                         Linux's initramfs for --linux\n"
		"      --linux            IMAGE is a bzImage: measure Linux's own KASLR\n"
		"                         (default command line for Linux: \"%s\")\n"
		"      --uefi             boot from an ESP under OVMF: IMAGE as BOOTX64.EFI, or\n"
		"                         started by systemd-boot with the command line and initrd;\n"
		"                         with --linux, \"%s\" is added to the command line\n"
		"      --ovmf DIR         with --uefi: OVMF_CODE_4M.fd and OVMF_VARS_4M.fd from DIR\n"
		"                         (default %s)\n"
		"  -f, --from FILE        read lines collected earlier instead of booting (- for "
		"stdin)\n"
		"      --bases-out FILE   save the lines used, for --from later\n"
		"      --failed-logs DIR  keep each failed boot's serial log as DIR/boot-N.log\n"
		"      --random N         ask the stub for N bytes of its generator per boot\n"
		"                         (kslide.random=N)\n"
		"      --random-out FILE  write those bytes, in binary, to FILE\n"
		"      --json             print JSON instead of the table\n"
		"      --plot FILE        write a histogram of the bases (.png or .svg)\n"
		"  -h, --help             show this help\n"
		"  -V, --version          show the version\n",
		progname, progname, progname, DEFAULT_BOOTS, DEFAULT_CPU, DEFAULT_MEMORY,
		DEFAULT_TIMEOUT, LINUX_APPEND, LINUX_EFI_MAP_WORD, ESP_OVMF_DIR);
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

struct options {
	const char *image, *from, *bases_out, *random_out, *plot, *arch, *cpu, *memory;
	const char *failed_logs;
	const char *append; /* NULL: none given */
	const char *initrd;
	bool linux_own;
	bool uefi;
	const char *ovmf; /* NULL: ESP_OVMF_DIR */
	const char *extra[EXTRA_MAX];
	size_t extra_count;
	unsigned long boots, jobs, timeout, random;
	int json;
};

static int parse_count(const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v == 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

enum {
	OPT_ARCH = 256,
	OPT_CPU,
	OPT_APPEND,
	OPT_QEMU_ARG,
	OPT_TIMEOUT,
	OPT_BASES_OUT,
	OPT_FAILED_LOGS,
	OPT_RANDOM,
	OPT_RANDOM_OUT,
	OPT_JSON,
	OPT_PLOT,
	OPT_INITRD,
	OPT_LINUX,
	OPT_UEFI,
	OPT_OVMF
};

/* An option with a bounded value: -n, -j, --timeout, --random, and --qemu-arg's count.
 * 0, or 1 after a message. */
static int parse_bounded(int c, const char *arg, struct options *o)
{
	switch (c) {
	case 'n':
		if (parse_count(arg, 10000000, &o->boots))
			return error(NULL, "-n: '%s' is not a count of boots", arg);
		return 0;
	case 'j':
		if (parse_count(arg, 64, &o->jobs))
			return error(NULL, "-j: '%s' is not between 1 and 64", arg);
		return 0;
	case OPT_QEMU_ARG:
		if (o->extra_count == EXTRA_MAX)
			return error(NULL, "too many --qemu-arg (at most %d)", EXTRA_MAX);
		o->extra[o->extra_count++] = arg;
		return 0;
	case OPT_TIMEOUT:
		if (parse_count(arg, 86400, &o->timeout))
			return error(NULL, "--timeout: '%s' is not a number of seconds", arg);
		return 0;
	}
	if (parse_count(arg, 65536, &o->random))
		return error(NULL, "--random: '%s' is not between 1 and 65536", arg);
	return 0;
}

/* Options that make no sense together. 0, or 2 (a usage error) after a message. */
static int check_combination(const struct options *o)
{
	if (o->random_out && !o->random && !o->from)
		return error(NULL, "--random-out needs --random N (or --from a file with them)") +
		       1;
	if (o->linux_own && o->random)
		return error(NULL, "--random asks kslide's stub; --linux boots no stub") + 1;
	if (o->linux_own && !o->initrd && !o->from)
		return error(NULL, "--linux needs --initrd: an initramfs whose init reports where "
				   "the kernel runs (tests/linux/init.c)") +
		       1;
	if (o->failed_logs && o->from)
		return error(NULL, "--failed-logs keeps logs of boots; --from boots none") + 1;
	if (o->failed_logs) {
		struct stat st;
		if (stat(o->failed_logs, &st) || !S_ISDIR(st.st_mode))
			return error(o->failed_logs, "--failed-logs needs an existing directory") + 1;
	}
	if (o->ovmf && !o->uefi)
		return error(NULL, "--ovmf names the UEFI firmware: it needs --uefi") + 1;
	if (o->uefi && o->arch && !strcmp(o->arch, "i386"))
		return error(NULL, "--uefi boots OVMF, which is x86-64 firmware: not --arch i386") +
		       1;
	return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longs[] = {
		{"boots", required_argument, 0, 'n'},
		{"jobs", required_argument, 0, 'j'},
		{"arch", required_argument, 0, OPT_ARCH},
		{"cpu", required_argument, 0, OPT_CPU},
		{"memory", required_argument, 0, 'm'},
		{"append", required_argument, 0, OPT_APPEND},
		{"qemu-arg", required_argument, 0, OPT_QEMU_ARG},
		{"timeout", required_argument, 0, OPT_TIMEOUT},
		{"from", required_argument, 0, 'f'},
		{"bases-out", required_argument, 0, OPT_BASES_OUT},
		{"failed-logs", required_argument, 0, OPT_FAILED_LOGS},
		{"random", required_argument, 0, OPT_RANDOM},
		{"random-out", required_argument, 0, OPT_RANDOM_OUT},
		{"json", no_argument, 0, OPT_JSON},
		{"plot", required_argument, 0, OPT_PLOT},
		{"initrd", required_argument, 0, OPT_INITRD},
		{"linux", no_argument, 0, OPT_LINUX},
		{"uefi", no_argument, 0, OPT_UEFI},
		{"ovmf", required_argument, 0, OPT_OVMF},
		{"help", no_argument, 0, 'h'},
		{"version", no_argument, 0, 'V'},
		{0, 0, 0, 0},
	};
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	*o = (struct options){.cpu = DEFAULT_CPU,
			      .memory = DEFAULT_MEMORY,
			      .boots = DEFAULT_BOOTS,
			      .jobs = cpus > 0 ? (unsigned long)cpus : 1,
			      .timeout = DEFAULT_TIMEOUT};
	int c;
	while ((c = getopt_long(argc, argv, "n:j:m:f:hV", longs, NULL)) != -1) {
		switch (c) {
		case 'n':
		case 'j':
		case OPT_QEMU_ARG:
		case OPT_TIMEOUT:
		case OPT_RANDOM:
			if (parse_bounded(c, optarg, o))
				return 2;
			break;
		case OPT_ARCH: o->arch = optarg; break;
		case OPT_CPU: o->cpu = optarg; break;
		case 'm': o->memory = optarg; break;
		case OPT_APPEND: o->append = optarg; break;
		case 'f': o->from = optarg; break;
		case OPT_BASES_OUT: o->bases_out = optarg; break;
		case OPT_FAILED_LOGS: o->failed_logs = optarg; break;
		case OPT_RANDOM_OUT: o->random_out = optarg; break;
		case OPT_JSON: o->json = 1; break;
		case OPT_PLOT: o->plot = optarg; break;
		case OPT_INITRD: o->initrd = optarg; break;
		case OPT_LINUX: o->linux_own = true; break;
		case OPT_UEFI: o->uefi = true; break;
		case OPT_OVMF: o->ovmf = optarg; break;
		case 'h': usage(stdout); exit(0);
		case 'V': printf("kslide-stat %s\n", KSLIDE_VERSION); exit(0);
		default: usage(stderr); return 2;
		}
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return 2;
	}
	o->image = argv[optind];
	return check_combination(o);
}

/* --bases-out, --random-out: written whole or not at all; no file when not asked for. */
static int out_open(struct atomic_file *a, const char *path)
{
	char err[512];
	*a = (struct atomic_file){ .f = NULL };
	return path && atomic_file_open(a, path, 0666, err, sizeof(err)) ? error(path, "%s", err) : 0;
}

static int out_commit(struct atomic_file *a, const char *path)
{
	char err[512];
	return a->f && atomic_file_commit(a, err, sizeof(err)) ? error(path, "%s", err) : 0;
}

static int take_line(void *ctx, const char *line)
{
	struct samples *s = ctx;
	return samples_add_line(s, line);
}

static int collect(const struct options *o, const struct subject *sub, struct samples *s,
		   char *source, size_t cap, size_t *failed)
{
	*failed = 0;
	if (o->from) {
		FILE *f = strcmp(o->from, "-") ? fopen(o->from, "r") : stdin;
		if (!f)
			return error(o->from, "%s", strerror(errno));
		int rc = samples_add_file(s, f);
		if (f != stdin)
			fclose(f);
		if (rc)
			return error(o->from, "%s", s->error);
		snprintf(source, cap, "%zu boots read from %s", s->n, o->from);
		return 0;
	}
	char qemu[64], append[APPEND_MAX];
	const char *arch = o->arch ? o->arch : sub->x86_64 ? "x86_64" : "i386";
	const char *given = o->append ? o->append : sub->linux_kernel ? LINUX_APPEND : "";
	snprintf(qemu, sizeof(qemu), "qemu-system-%s", arch);
	if (o->random)
		snprintf(append, sizeof(append), "%s%skslide.random=%lu", given, *given ? " " : "",
			 o->random);
	else if (o->uefi && sub->linux_own)
		snprintf(append, sizeof(append), "%s%s%s", given, *given ? " " : "",
			 LINUX_EFI_MAP_WORD);
	else
		snprintf(append, sizeof(append), "%s", given);
	struct uefi_plan uefi;
	char why[512];
	if (o->uefi && esp_plan(&uefi, o->ovmf, esp_uses_boot_manager(o->initrd, append), why,
				sizeof(why)))
		return error(NULL, "%s", why);
	struct boot_plan plan = {
		.image = o->image,
		.initrd = o->initrd,
		.needs_base = !sub->linux_own,
		.needs_report = sub->linux_kernel,
		.qemu = qemu,
		.cpu = o->cpu,
		.memory = o->memory,
		.append = append,
		.extra = o->extra,
		.extra_count = o->extra_count,
		.boots = o->boots,
		.jobs = o->jobs,
		.timeout = (unsigned)o->timeout,
		.uefi = o->uefi ? &uefi : NULL,
		.failed_logs = o->failed_logs,
	};
	struct boot_outcome out;
	int rc = boots_run(&plan, take_line, s, &out, why, sizeof(why));
	if (rc && s->error[0])
		return error(NULL, "%s", s->error);
	if (rc && why[0])
		return error(NULL, "booting stopped: %s", why);
	if (rc)
		return error(NULL, "booting stopped: %s", strerror(errno));
	size_t n = (size_t)snprintf(source, cap, "%zu boots: %s -cpu %s -m %s", o->boots, qemu,
				    o->cpu, o->memory);
	if (o->uefi && n < cap)
		n += (size_t)snprintf(source + n, cap - n, " -M %s, UEFI: %s, from an ESP%s",
				      ESP_MACHINE, uefi.code,
				      esp_uses_boot_manager(o->initrd, append)
					      ? " by systemd-boot"
					      : " as BOOTX64.EFI");
	if (o->initrd && n < cap)
		n += (size_t)snprintf(source + n, cap - n, " -initrd %s", o->initrd);
	for (size_t i = 0; i < o->extra_count && n < cap; i++)
		n += (size_t)snprintf(source + n, cap - n, " %s", o->extra[i]);
	if (*append && n < cap)
		snprintf(source + n, cap - n, " -append '%s'", append);
	*failed = out.failed;
	if (out.failed)
		error(o->image, "%zu of %zu boots failed; first: %s", out.failed, o->boots,
		      out.first_failure);
	if (out.logs_kept)
		fprintf(stderr, "kslide-stat: the failed boots' serial logs: %s/boot-N.log\n",
			o->failed_logs);
	return 0;
}

/* One base's figures; EXIT_VERDICT when a base is no slot, 1 when there is nothing to measure. */
static int measure(const char *name, const struct slot_set *set, const uint64_t *bases, size_t n,
		   double false_alarm, uint64_t *index, struct base_report *b)
{
	char err[256];
	enum verdict_measure_result m =
		verdict_measure(name, set, bases, n, false_alarm, index, b, err, sizeof(err));
	if (m != VERDICT_MEASURED)
		error(NULL, "%s", err);
	return m == VERDICT_MEASURED ? 0 : m == VERDICT_NOT_A_SLOT ? EXIT_VERDICT : 1;
}

static int plot(const struct options *o, const struct report *r, const struct slot_set *phys,
		const struct slot_set *virt, const uint64_t *pi, const uint64_t *vi, size_t n)
{
	struct plot_panel panels[PLOT_PANELS_MAX] = {
		{"physical base", phys, pi, n},
		{"virtual base", virt, vi, n},
	};
	char title[512];
	const char *why;
	size_t len = (size_t)snprintf(title, sizeof(title),
				      "%s: %zu bases; physical %.2f bits possible, "
				      "min-entropy %.2f",
				      o->image, n, log2((double)r->phys.slots_stub),
				      r->phys.u.min_entropy);
	if (!r->virt.follows_physical && len < sizeof(title))
		snprintf(title + len, sizeof(title) - len, "; virtual %.2f, %.2f",
			 log2((double)r->virt.slots_stub), r->virt.u.min_entropy);
	if (plot_write(o->plot, title, panels, r->virt.follows_physical ? 1 : 2, &why))
		return error(o->plot, "%s", why);
	return 0;
}

int main(int argc, char **argv)
{
	struct options o;
	int rc = parse_options(argc, argv, &o);
	if (rc)
		return rc == 2 ? 2 : 1;

	struct subject sub;
	char why[512];
	if (subject_read(o.image, o.linux_own, o.uefi, &sub, why, sizeof(why)))
		return error(NULL, "%s", why);

	struct samples s;
	struct atomic_file bases_out, random_out;
	samples_init(&s);
	if (out_open(&bases_out, o.bases_out))
		return 1;
	if (out_open(&random_out, o.random_out)) {
		atomic_file_discard(&bases_out);
		return 1;
	}
	s.lines_out = bases_out.f;
	s.random_out = random_out.f;
	s.linux_own = sub.linux_own;

	struct report r;
	char source[APPEND_MAX + 1024];
	memset(&r, 0, sizeof(r));
	r.image = o.image;
	r.source = source;
	r.samples = &s;
	r.linux_own = sub.linux_own;
	rc = collect(&o, &sub, &s, source, sizeof(source), &r.boots_failed);
	if (rc == 0 && s.n < 2)
		rc = error(o.from ? o.from : o.image, "only %zu base lines; need at least 2", s.n);

	struct slot_set phys, virt;
	uint64_t *pi = NULL, *vi = NULL;
	char err[512];
	if (rc == 0 && sub.linux_own)
		rc = subject_linux_slot_sets(&sub, &s, &phys, &virt, &r, err, sizeof(err)) ?
			     error(NULL, "%s", err) : 0;
	else if (rc == 0)
		subject_slot_sets(&sub, &s, &phys, &virt, &r);
	if (rc == 0) {
		pi = malloc(s.n * sizeof(*pi));
		vi = malloc(s.n * sizeof(*vi));
		/* On i386 the virtual verdict repeats the physical one; on x86-64 there are two. */
		double false_alarm = STATS_FALSE_ALARM / (r.virt.follows_physical ? 1 : 2);
		rc = !pi || !vi ? error(NULL, "out of memory")
				: measure("physical", &phys, s.phys, s.n, false_alarm, pi, &r.phys);
		if (rc == 0)
			rc = measure("virtual", &virt, s.virt, s.n, false_alarm, vi, &r.virt);
	}
	/* A base outside the slots is a finding: no figures, but the lines are still saved. */
	bool outside = rc == EXIT_VERDICT;
	int verdict = outside ? EXIT_VERDICT : 0;
	if (outside)
		rc = 0;
	if (rc == 0 && !outside) {
		seed_patch_distribution(&r.seed);
		linux_x86_64_distribution(&r.linux64);
		verdict_entropy(&s, &r);
		if (o.json)
			output_json(stdout, &r);
		else
			output_text(stdout, &r);
		verdict = verdict_findings(&r, stderr) ? EXIT_VERDICT : 0;
	}
	if (rc == 0 && !outside && o.plot) {
		/* measure() sorted the indexes; recompute them in sample order is not needed:
		 * a histogram does not care about order. */
		rc = plot(&o, &r, &phys, &virt, pi, vi, s.n);
	}
	if (rc == 0)
		rc = out_commit(&bases_out, o.bases_out) | out_commit(&random_out, o.random_out);
	else if (s.error[0] && o.bases_out && out_commit(&bases_out, o.bases_out) == 0) {
		/* A finding in the lines themselves: they are what shows it. */
		fprintf(stderr, "kslide-stat: the lines up to that one are saved in %s\n",
			o.bases_out);
		atomic_file_discard(&random_out);
	} else {
		atomic_file_discard(&bases_out);
		atomic_file_discard(&random_out);
	}
	free(pi);
	free(vi);
	samples_free(&s);
	if (rc == 0 && fflush(stdout))
		rc = error(NULL, "stdout: %s", strerror(errno));
	return rc || r.boots_failed ? 1 : verdict;
}
