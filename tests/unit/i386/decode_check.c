/*
 * The decoders built for i386 (-m32 -march=i486, as the stub builds lib/), run on the host:
 * their narrow bit reader and 32-bit arithmetic differ from the x86-64 build the unit tests
 * link. tests/unit/test_zstd.c and test_lz4.c write library-made frames and run this.
 * usage: decode-check-i386 ORIGINAL FRAME.zst|FRAME.lz4...  (exit 0: every frame decodes to
 * exactly ORIGINAL; then it says so, with its pointer size, so the caller knows which build ran)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lz4.h"
#include "lib/zstd.h"

static _Alignas(ZSTD_WORKSPACE_ALIGN) unsigned char workspace[ZSTD_WORKSPACE_SIZE];

static unsigned char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	unsigned char *buf = malloc(n > 0 ? (size_t)n : 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

int main(int argc, char **argv)
{
	size_t len;
	unsigned char *original = argc > 1 ? read_file(argv[1], &len) : NULL;
	if (!original) {
		fprintf(stderr, "usage: decode-check-i386 ORIGINAL FRAME...\n");
		return 2;
	}
	int failed = 0;
	for (int i = 2; i < argc; i++) {
		size_t frame_len, out_len = 0;
		unsigned char *frame = read_file(argv[i], &frame_len);
		unsigned char *out = malloc(len ? len : 1);
		const char *why = "unreadable";
		int rc = -1;
		if (frame && strstr(argv[i], ".zst"))
			rc = zstd_decompress(workspace, sizeof(workspace), out, len, frame,
					     frame_len, &out_len, NULL, &why);
		else if (frame)
			rc = lz4_decompress(out, len, frame, frame_len, &out_len, NULL, &why);
		if (rc || out_len != len || memcmp(out, original, len)) {
			fprintf(stderr, "decode-check-i386: %s: %s\n", argv[i],
				rc ? why : "wrong output");
			failed = 1;
		}
		free(frame);
		free(out);
	}
	free(original);
	if (!failed)
		printf("decode-check-i386: %d frames decode to the original (%zu-byte pointers)\n",
		       argc - 2, sizeof(void *));
	return failed;
}
