/*
 * Fake physical memory for the boot-information parsers' unit tests: size bytes at base,
 * nothing readable elsewhere. Each read gets an exact-length heap copy, so ASan catches a
 * parser reading past what it asked for; the copies live until fake_memory_free, because a
 * parsed boot_env keeps pointers into them.
 */
#ifndef KSLIDE_TESTS_UNIT_SUPPORT_FAKE_MEMORY_H
#define KSLIDE_TESTS_UNIT_SUPPORT_FAKE_MEMORY_H

#include <stddef.h>
#include <stdint.h>

#include "boot/bootenv.h"

struct fake_memory {
	const uint8_t *mem; /* the test's buffer, size bytes */
	uint64_t base, size;
	void **copies;
	size_t count, cap;
	struct phys_reader reader; /* reads through this memory */
};

/* Serve mem (size bytes) at base through m->reader. */
void fake_memory_init(struct fake_memory *m, const uint8_t *mem, uint64_t base, uint64_t size);

/* Free every copy handed out; m can be initialized again after. */
void fake_memory_free(struct fake_memory *m);

#endif
