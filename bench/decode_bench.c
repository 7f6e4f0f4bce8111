/*
 * `make bench`, part 5: the project's zstd and LZ4 decoders (lib/zstd_*.c, lib/lz4.c) against
 * the libraries' own (ZSTD_decompress, LZ4F_decompress) on the same frames, best of N runs.
 * Each input is compressed once with the library (zstd -19, LZ4 HC level 12 with linked
 * 4 MiB blocks), both decoders decode it, and the outputs must match the input. The runs of
 * the two decoders alternate, so that both see the same machine.
 *
 * With -r, each FILE is a compressed kslide image, and what is timed is the stub's way of
 * relocating it (boot/stub.c): the payload decoded with its reloc_schedule patching the early
 * fields after each block and the rest once the decoder reports them final
 * (lib/reloc_schedule.h), against decoding it whole, then reloc_apply.
 * usage: decode-bench [-n RUNS] FILE...
 *        decode-bench -r [-n RUNS] IMAGE...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lz4frame.h>
#include <lz4hc.h>
#include <zstd.h>

#include "include/kslide/image.h"
#include "lib/lz4.h"
#include "lib/reloc.h"
#include "lib/reloc_schedule.h"
#include "lib/zstd.h"

#define DEFAULT_RUNS	 10
#define ZSTD_BENCH_LEVEL 19

static _Alignas(ZSTD_WORKSPACE_ALIGN) unsigned char workspace[ZSTD_WORKSPACE_SIZE];

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static unsigned char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

enum decoder { LIB_ZSTD, OURS_ZSTD, LIB_LZ4, OURS_LZ4 };

/* One decode; the number of bytes produced, or 0 on failure. */
static size_t decode(enum decoder d, unsigned char *dst, size_t cap, const unsigned char *src,
		     size_t len)
{
	size_t out = 0;
	switch (d) {
	case LIB_ZSTD:
		out = ZSTD_decompress(dst, cap, src, len);
		return ZSTD_isError(out) ? 0 : out;
	case OURS_ZSTD:
		return zstd_decompress(workspace, sizeof(workspace), dst, cap, src, len, &out, NULL,
				       NULL)
			       ? 0
			       : out;
	case LIB_LZ4: {
		LZ4F_dctx *dctx;
		if (LZ4F_isError(LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION)))
			return 0;
		size_t dst_len = cap, src_len = len;
		size_t hint = LZ4F_decompress(dctx, dst, &dst_len, src, &src_len, NULL);
		LZ4F_freeDecompressionContext(dctx);
		return hint == 0 ? dst_len : 0;
	}
	case OURS_LZ4: return lz4_decompress(dst, cap, src, len, &out, NULL, NULL) ? 0 : out;
	}
	return 0;
}

/*
 * Best-of-runs throughput in MB/s of output of two decoders on one frame, their runs
 * interleaved so that both see the same machine (2 shared cores); negative if a run was wrong.
 */
static void best_speeds(enum decoder a, enum decoder b, const unsigned char *frame,
			size_t frame_len, const unsigned char *want, size_t want_len, int runs,
			double speed[2])
{
	unsigned char *dst = malloc(want_len + 1);
	double best[2] = {1e30, 1e30};
	const enum decoder which[2] = {a, b};
	for (int i = 0; i < runs; i++) {
		for (int k = 0; k < 2; k++) {
			memset(dst, 0, want_len);
			double t0 = now();
			size_t got = decode(which[k], dst, want_len, frame, frame_len);
			double t = now() - t0;
			if (got != want_len || memcmp(dst, want, want_len))
				best[k] = -1e30;
			else if (t < best[k] && best[k] > 0)
				best[k] = t;
		}
	}
	free(dst);
	for (int k = 0; k < 2; k++)
		speed[k] = best[k] > 0 ? want_len / best[k] / 1e6 : -1;
}

static int bench_file(const char *path, int runs)
{
	size_t len;
	unsigned char *data = read_file(path, &len);
	if (!data) {
		fprintf(stderr, "decode-bench: cannot read %s\n", path);
		return 1;
	}
	size_t zcap = ZSTD_compressBound(len);
	unsigned char *z = malloc(zcap);
	size_t zlen = ZSTD_compress(z, zcap, data, len, ZSTD_BENCH_LEVEL);
	LZ4F_preferences_t prefs;
	memset(&prefs, 0, sizeof(prefs));
	prefs.compressionLevel = LZ4HC_CLEVEL_MAX;
	prefs.frameInfo.blockSizeID = LZ4F_max4MB;
	prefs.frameInfo.blockMode = LZ4F_blockLinked;
	size_t lcap = LZ4F_compressFrameBound(len, &prefs);
	unsigned char *l = malloc(lcap);
	size_t llen = LZ4F_compressFrame(l, lcap, data, len, &prefs);
	int failed = ZSTD_isError(zlen) || LZ4F_isError(llen);
	if (!failed) {
		double z_speed[2], l_speed[2];
		best_speeds(LIB_ZSTD, OURS_ZSTD, z, zlen, data, len, runs, z_speed);
		best_speeds(LIB_LZ4, OURS_LZ4, l, llen, data, len, runs, l_speed);
		failed = z_speed[0] < 0 || z_speed[1] < 0 || l_speed[0] < 0 || l_speed[1] < 0;
		printf("%-38s %9zu %9zu %8.0f %8.0f %5.2f %9zu %8.0f %8.0f %5.2f\n", path, len,
		       zlen, z_speed[0], z_speed[1], z_speed[1] / z_speed[0], llen, l_speed[0],
		       l_speed[1], l_speed[1] / l_speed[0]);
	}
	if (failed)
		fprintf(stderr, "decode-bench: %s: a decoder failed\n", path);
	free(data);
	free(z);
	free(l);
	return failed;
}

/* The image's codec as a decoder of lib/; dst must fill exactly. */
static int decode_with(uint32_t codec, unsigned char *dst, size_t size, const unsigned char *src,
		       size_t len, const struct decode_progress *progress)
{
	size_t got = 0;
	int rc = codec == KSLIDE_CODEC_ZSTD
			 ? zstd_decompress(workspace, sizeof(workspace), dst, size, src, len, &got,
					   progress, NULL)
			 : lz4_decompress(dst, size, src, len, &got, progress, NULL);
	return rc == 0 && got == size ? 0 : -1;
}

#define BENCH_SLIDE 0x1000000 /* 16 MiB: every kind of field takes it */

/* One image: decode + reloc_apply against decode with the stream, best of runs each. */
static int bench_relocation(const char *path, int runs)
{
	size_t len;
	unsigned char *img = read_file(path, &len), *table = NULL, *a = NULL, *b = NULL;
	struct kslide_image_header h;
	size_t at = 0; /* the header lies on an 8-byte boundary (tools/pack/image_writer.c) */
	while (img && at + sizeof(h) <= len &&
	       memcmp(img + at, KSLIDE_IMAGE_MAGIC, KSLIDE_IMAGE_MAGIC_BYTES) != 0)
		at += 8;
	int failed = 1;
	if (!img || at + sizeof(h) > len)
		goto out;
	memcpy(&h, img + at, sizeof(h));
	if (h.version != KSLIDE_IMAGE_VERSION || h.payload_codec == KSLIDE_CODEC_NONE ||
	    h.payload_offset + h.payload_stored_size > len || h.relocs_offset + h.relocs_stored_size > len)
		goto out;
	size_t table_size = h.relocs_size, runs_size = h.relocs_runs_size;
	table = malloc(table_size + runs_size + 1);
	a = malloc(h.payload_mem_size);
	b = malloc(h.payload_mem_size);
	if (!table || !a || !b)
		goto out;
	if (table_size == 0)
		;
	else if (decode_with(h.payload_codec, table, table_size + runs_size, img + h.relocs_offset,
			     h.relocs_stored_size, NULL))
		goto out;
	const unsigned char *payload = img + h.payload_offset;
	size_t file = h.payload_file_size, mem = h.payload_mem_size;
	double best[2] = {1e30, 1e30};
	for (int i = 0; i < runs; i++) {
		double t0 = now();
		int rc = decode_with(h.payload_codec, a, file, payload, h.payload_stored_size, NULL);
		memset(a + file, 0, mem - file);
		rc |= reloc_apply(a, mem, table, h.relocs_size, BENCH_SLIDE);
		double t1 = now();
		struct reloc_schedule schedule;
		reloc_schedule_init(&schedule, b, mem, table, table_size, table + table_size,
				    runs_size, BENCH_SLIDE);
		struct decode_progress progress = reloc_schedule_progress(&schedule);
		rc |= decode_with(h.payload_codec, b, file, payload, h.payload_stored_size, &progress);
		memset(b + file, 0, mem - file);
		rc |= reloc_schedule_finish(&schedule);
		double t2 = now();
		if (rc || memcmp(a, b, mem))
			goto out;
		best[0] = t1 - t0 < best[0] ? t1 - t0 : best[0];
		best[1] = t2 - t1 < best[1] ? t2 - t1 : best[1];
	}
	printf("relocate(%s): codec=%s kernel=%zu bytes table=%llu bytes decode+reloc_apply=%.2f ms "
	       "streamed=%.2f ms ratio=%.3f\n",
	       path, h.payload_codec == KSLIDE_CODEC_ZSTD ? "zstd" : "lz4", mem,
	       (unsigned long long)h.relocs_size, best[0] * 1e3, best[1] * 1e3, best[1] / best[0]);
	failed = 0;
out:
	if (failed)
		fprintf(stderr, "decode-bench: %s: not a compressed kslide image of format %u, or it "
				"failed to decode or relocate\n",
			path, (unsigned)KSLIDE_IMAGE_VERSION);
	free(img);
	free(table);
	free(a);
	free(b);
	return failed;
}

int main(int argc, char **argv)
{
	int runs = DEFAULT_RUNS, first = 1, failed = 0, relocate = 0;
	if (argc > first && strcmp(argv[first], "-r") == 0) {
		relocate = 1;
		first++;
	}
	if (argc > first + 1 && strcmp(argv[first], "-n") == 0) {
		runs = atoi(argv[first + 1]);
		first += 2;
	}
	if (first >= argc || runs < 1) {
		fprintf(stderr, "usage: decode-bench [-n RUNS] FILE...\n"
				"       decode-bench -r [-n RUNS] IMAGE...\n");
		return 2;
	}
	if (relocate) {
		for (int i = first; i < argc; i++)
			failed |= bench_relocation(argv[i], runs);
		return failed;
	}
	printf("%-38s %9s %9s %8s %8s %5s %9s %8s %8s %5s\n", "input", "bytes", "zstd-19",
	       "libzstd", "lib/", "ratio", "lz4-hc12", "liblz4", "lib/", "ratio");
	printf("%-38s %9s %9s %8s %8s %5s %9s %8s %8s %5s\n", "", "", "frame", "MB/s", "MB/s", "",
	       "frame", "MB/s", "MB/s", "");
	for (int i = first; i < argc; i++)
		failed |= bench_file(argv[i], runs);
	return failed;
}
