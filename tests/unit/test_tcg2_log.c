/*
 * Unit tests for lib/tcg2_log.c: the sizes of a crypto-agile TPM event log's entries, built
 * here as the TCG PC Client profile lays them out (a SHA-1-format first entry holding the
 * Spec ID event, then TCG_PCR_EVENT2 entries with a SHA-1 and a SHA-256 digest each).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/tcg2_log.h"

#define SHA1   0x0004
#define SHA256 0x000b

static uint8_t first[128], event[256];
static uint64_t first_size, event_size;

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/* The Spec ID event naming SHA-1 (20 bytes) and SHA-256 (32), with no vendor data. */
static void build_first(void)
{
	memset(first, 0, sizeof(first));
	put32(first, 0);	/* PCR */
	put32(first + 4, 3);	/* EV_NO_ACTION */
	uint8_t *spec = first + 32;
	memcpy(spec, "Spec ID Event03", 16);
	put32(spec + 16, 0);	/* platform class */
	spec[20] = 0, spec[21] = 2, spec[22] = 0, spec[23] = 2; /* versions, uintnSize */
	put32(spec + 24, 2);
	put16(spec + 28, SHA1), put16(spec + 30, 20);
	put16(spec + 32, SHA256), put16(spec + 34, 32);
	spec[36] = 0; /* vendorInfoSize */
	put32(first + 28, 37);
	first_size = 32 + 37;
}

/* An event with both digests and data_size bytes of data. */
static void build_event(uint32_t data_size)
{
	memset(event, 0xa5, sizeof(event));
	put32(event, 9);
	put32(event + 4, 0xd);
	put32(event + 8, 2);
	put16(event + 12, SHA1);
	put16(event + 12 + 2 + 20, SHA256);
	put32(event + 12 + 2 + 20 + 2 + 32, data_size);
	event_size = 12 + 2 + 20 + 2 + 32 + 4 + data_size;
}

static void test_first_event_sized(void **state)
{
	(void)state;
	build_first();
	assert_int_equal(tcg2_first_event_size(first, sizeof(first)), first_size);
	assert_int_equal(tcg2_first_event_size(first, first_size), first_size);
	/* Every shorter readable length cuts it. */
	for (uint64_t avail = 0; avail < first_size; avail++)
		assert_int_equal(tcg2_first_event_size(first, avail), 0);
}

static void test_first_event_refused(void **state)
{
	(void)state;
	build_first();
	first[32] = 's'; /* not the Spec ID event */
	assert_int_equal(tcg2_first_event_size(first, sizeof(first)), 0);
	build_first();
	put32(first + 32 + 24, 3); /* a third algorithm its data does not hold */
	assert_int_equal(tcg2_first_event_size(first, sizeof(first)), 0);
	build_first();
	put32(first + 28, 27); /* too short for the algorithms' count */
	assert_int_equal(tcg2_first_event_size(first, sizeof(first)), 0);
}

static void test_event_sized(void **state)
{
	(void)state;
	build_first();
	for (uint32_t data = 0; data < 40; data += 13) {
		build_event(data);
		assert_int_equal(tcg2_event_size(event, sizeof(event), first, first_size),
				 event_size);
		assert_int_equal(tcg2_event_size(event, event_size, first, first_size), event_size);
		for (uint64_t avail = 0; avail < event_size; avail++)
			assert_int_equal(tcg2_event_size(event, avail, first, first_size), 0);
	}
	/* One digest only (a log may carry fewer banks than the Spec ID event names). */
	build_event(0);
	put32(event + 8, 1);
	put32(event + 12 + 2 + 20, 5);
	assert_int_equal(tcg2_event_size(event, sizeof(event), first, first_size),
			 12 + 2 + 20 + 4 + 5);
}

static void test_event_refused(void **state)
{
	(void)state;
	build_first();
	build_event(8);
	put16(event + 12, 0x0012); /* an algorithm the Spec ID event does not name */
	assert_int_equal(tcg2_event_size(event, sizeof(event), first, first_size), 0);
	build_event(8);
	put32(event + 8, 3); /* more digests than algorithms */
	assert_int_equal(tcg2_event_size(event, sizeof(event), first, first_size), 0);
	build_event(8);
	assert_int_equal(tcg2_event_size(event, sizeof(event), first, first_size - 1), 0);
	put32(event + 12 + 2 + 20 + 2 + 32, 0xffffffff); /* data past the readable bytes */
	assert_int_equal(tcg2_event_size(event, sizeof(event), first, first_size), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_event_sized),
		cmocka_unit_test(test_first_event_refused),
		cmocka_unit_test(test_event_sized),
		cmocka_unit_test(test_event_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
