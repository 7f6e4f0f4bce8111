#define _GNU_SOURCE
#include "tests/unit/support/low_memory.h"

#include <setjmp.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>

#include <cmocka.h>

uint8_t *low_memory(size_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
		       -1, 0);
	assert_true(p != MAP_FAILED);
	memset(p, 0xee, bytes);
	return p;
}
