/* Inputs the decoder tests compress and decode: files, text-like data, random bytes. */
#ifndef KSLIDE_TESTS_UNIT_SUPPORT_TEST_INPUTS_H
#define KSLIDE_TESTS_UNIT_SUPPORT_TEST_INPUTS_H

#include <stddef.h>
#include <stdint.h>

struct buf {
	uint8_t *p;
	size_t len;
};

/* The whole file, malloc'ed; len 0 and p NULL if it cannot be read. */
struct buf test_read_file(const char *path);
/* Write all of data to path; 0 on success. */
int test_write_file(const char *path, const uint8_t *data, size_t len);
/* Words from a small vocabulary (kernel-ish bytes among them): Huffman-worthy literals and
 * matches at every distance. */
struct buf test_text_like(size_t len, uint64_t seed);
/* Incompressible bytes from a fixed generator. */
struct buf test_random_bytes(size_t len, uint64_t seed);
/* One period of 'period' bytes (a pointer-like word, then a fill byte) repeated: the shape
 * of the boot-cost benchmark's padded kernels (bench/pad.S), one long match per block, whose
 * last match ends near the block's end. */
struct buf test_periodic(size_t len, size_t period);

#endif
