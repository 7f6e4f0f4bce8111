/*
 * Relocation benchmark: the stub's move (memcpy of the payload) against move + reloc_apply,
 * on a synthetic kernel image with a table built by the packer's own encoder.
 *
 *   layout i386    one ADD32 group, fields a random 8..54 bytes apart (mean 31 at 1 Mi
 *                  relocations over 32 MiB)
 *   layout x86_64  ADD32S and ADD64 fields in alternating runs (mean run length 'run'),
 *                  the worst case for a table of many groups
 *
 * Prints the best of several runs of each, ns per relocation and the ratio to the memcpy.
 * Both results are checked against the synthetic fields, so a wrong relocation fails.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/timing.h"
#include "lib/errors.h"
#include "lib/reloc.h"
#include "tools/pack/image_writer.h"
#include "tools/pack/kernel_elf.h"

#define MIB (1024u * 1024u)
#define LINK_PHYS 0x1000000u              /* the i386 reference kernel's link base */
#define LINK_VIRT 0xffffffff81000000ull  /* a -mcmodel=kernel link base */
#define DELTA 0x0c000000                 /* 192 MiB: keeps every synthetic field in range */
#define GAP_MIN 8 /* the widest field: fields of a group must not overlap */

struct options {
	uint64_t image_bytes;
	size_t relocs;
	unsigned runs;
	unsigned run_length; /* x86_64: mean fields per run of one kind */
	int x86_64;
};

static void usage(FILE *to)
{
	fprintf(to, "usage: reloc-bench [-m IMAGE_MIB] [-n RELOCS] [-r RUNS] [-a i386|x86_64] "
		    "[-l RUN_LENGTH]\n");
}

static int parse(int argc, char **argv, struct options *o)
{
	*o = (struct options){ 32ull * MIB, 1u << 20, 25, 16, 0 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--help")) {
			usage(stdout);
			exit(0);
		}
		if (!v || a[0] != '-' || a[2]) {
			usage(stderr);
			return -1;
		}
		i++;
		switch (a[1]) {
		case 'm': o->image_bytes = strtoull(v, NULL, 0) * MIB; break;
		case 'n': o->relocs = strtoull(v, NULL, 0); break;
		case 'r': o->runs = (unsigned)strtoul(v, NULL, 0); break;
		case 'l': o->run_length = (unsigned)strtoul(v, NULL, 0); break;
		case 'a': o->x86_64 = !strcmp(v, "x86_64"); break;
		default: usage(stderr); return -1;
		}
	}
	if (o->runs == 0 || o->relocs == 0 || o->run_length == 0 ||
	    o->image_bytes / o->relocs < 2 * GAP_MIN) {
		fprintf(stderr, "reloc-bench: the image needs at least %u bytes per relocation\n",
			2 * GAP_MIN);
		return -1;
	}
	return 0;
}

static void put_le(uint8_t *p, unsigned width, uint64_t v)
{
	for (unsigned i = 0; i < width; i++, v >>= 8)
		p[i] = (uint8_t)v;
}

/*
 * Random image bytes, and fields at random gaps whose values point into the kernel, as a
 * linker leaves them. Gaps are drawn so the fields end inside the image.
 */
static struct fixup *make_fixups(const struct options *o, uint8_t *image)
{
	struct fixup *f = calloc(o->relocs, sizeof(*f));
	if (!f)
		return NULL;
	/* Gaps uniform in [GAP_MIN, 2 * mean - GAP_MIN]; one byte under the image's average
	 * leaves room for the random walk's spread (about 15 * sqrt(relocs) bytes). */
	uint64_t seed = 1, mean = o->image_bytes / o->relocs - 1;
	uint64_t spread = 2 * (mean - GAP_MIN) + 1;
	for (uint64_t i = 0; i < o->image_bytes; i += 8) {
		uint64_t r = bench_rand(&seed);
		memcpy(image + i, &r, 8);
	}
	enum reloc_kind kind = o->x86_64 ? RELOC_ADD32S : RELOC_ADD32;
	uint64_t offset = 0;
	for (size_t i = 0; i < o->relocs; i++) {
		if (o->x86_64 && bench_rand(&seed) % o->run_length == 0)
			kind = kind == RELOC_ADD64 ? RELOC_ADD32S : RELOC_ADD64;
		if (i > 0)
			offset += GAP_MIN + bench_rand(&seed) % spread;
		uint64_t target = bench_rand(&seed) % o->image_bytes;
		f[i] = (struct fixup){ offset, kind };
		if (kind == RELOC_ADD32)
			put_le(image + offset, 4, LINK_PHYS + target);
		else if (kind == RELOC_ADD32S)
			put_le(image + offset, 4, (uint32_t)(LINK_VIRT + target));
		else
			put_le(image + offset, 8, LINK_VIRT + target);
	}
	if (offset + 8 > o->image_bytes) {
		fprintf(stderr, "reloc-bench: internal error: fields run past the image\n");
		free(f);
		return NULL;
	}
	return f;
}

/* Every field moved by DELTA and every other byte unchanged, or a message and -1. */
static int check_result(const uint8_t *src, const uint8_t *dst, const struct fixup *f,
			const struct options *o)
{
	uint64_t next = 0;
	for (size_t i = 0; i <= o->relocs; i++) {
		uint64_t end = i < o->relocs ? f[i].offset : o->image_bytes;
		if (memcmp(src + next, dst + next, end - next) != 0)
			goto bad;
		if (i == o->relocs)
			break;
		unsigned width = f[i].kind == RELOC_ADD64 ? 8 : 4;
		uint64_t a = 0, b = 0;
		memcpy(&a, src + end, width);
		memcpy(&b, dst + end, width);
		uint64_t mask = width == 8 ? UINT64_MAX : UINT32_MAX;
		if (((a + DELTA) & mask) != b)
			goto bad;
		next = end + width;
	}
	return 0;
bad:
	fprintf(stderr, "reloc-bench: reloc_apply gave wrong bytes\n");
	return -1;
}

int main(int argc, char **argv)
{
	struct options o;
	if (parse(argc, argv, &o))
		return 1;
	uint8_t *src = malloc(o.image_bytes), *dst = malloc(o.image_bytes);
	struct fixup *fixups = src && dst ? make_fixups(&o, src) : NULL;
	if (!fixups) {
		fprintf(stderr, "reloc-bench: out of memory\n");
		return 1;
	}
	struct kernel_elf k = { .fixups = fixups, .fixup_count = o.relocs };
	uint8_t *table;
	size_t table_size;
	char err[256];
	if (pack_encode_relocs(&k, &table, &table_size, err, sizeof(err))) {
		fprintf(stderr, "reloc-bench: %s\n", err);
		return 1;
	}
	memset(dst, 0, o.image_bytes); /* fault the pages in before timing */

	/* Each run times the plain copy, then the two ways the stub can move and relocate. */
	uint64_t best[5] = { UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX };
	for (unsigned run = 0; run < o.runs; run++) {
		uint64_t t[6];
		t[0] = now_ns();
		memcpy(dst, src, o.image_bytes);
		t[1] = now_ns();
		int rc = reloc_validate(table, table_size, o.image_bytes, NULL);
		t[2] = now_ns();
		memcpy(dst, src, o.image_bytes);
		rc |= reloc_apply(dst, o.image_bytes, table, table_size, DELTA);
		t[3] = now_ns();
		if (rc == KS_OK && run == 0 && check_result(src, dst, fixups, &o))
			return 1;
		t[3] = now_ns();
		rc |= reloc_move(dst, src, o.image_bytes, o.image_bytes, table, table_size, DELTA, NULL);
		t[4] = now_ns();
		if (rc == KS_OK && run == o.runs - 1 && check_result(src, dst, fixups, &o))
			return 1;
		t[4] = now_ns();
		rc |= reloc_move(dst, src, o.image_bytes, o.image_bytes, NULL, 0, DELTA, NULL);
		t[5] = now_ns();
		if (rc != KS_OK) {
			fprintf(stderr, "reloc-bench: the table was refused: %s\n", ks_strerror(rc));
			return 1;
		}
		for (int i = 0; i < 5; i++)
			if (t[i + 1] - t[i] < best[i])
				best[i] = t[i + 1] - t[i];
	}

	const char *arch = o.x86_64 ? "x86_64" : "i386";
	double n = (double)o.relocs, copy = (double)best[0];
	printf("reloc(%s): image=%llu MiB relocations=%zu table=%zu bytes (%.2f bytes/relocation) "
	       "best of %u runs\n",
	       arch, (unsigned long long)(o.image_bytes / MIB), o.relocs, table_size,
	       (double)table_size / n, o.runs);
	printf("reloc(%s): memcpy=%.2f ms reloc_validate=%.2f ms (%.2f ns/relocation)\n", arch,
	       copy / 1e6, best[1] / 1e6, best[1] / n);
	printf("reloc(%s): memcpy+reloc_apply=%.2f ms relocation=%.2f ns/relocation "
	       "ratio=%.2f\n",
	       arch, best[2] / 1e6, ((double)best[2] - copy) / n, best[2] / copy);
	printf("reloc(%s): reloc_move=%.2f ms ratio=%.2f (goal <= 1.50); its copy alone "
	       "(empty table)=%.2f ms, so relocation=%.2f ns/relocation\n",
	       arch, best[3] / 1e6, best[3] / copy, best[4] / 1e6,
	       ((double)best[3] - (double)best[4]) / n);
	free(table);
	free(fixups);
	free(src);
	free(dst);
	return 0;
}
