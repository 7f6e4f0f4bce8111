/* Unit tests for tools/pack/linux_relocs.c: Linux's appended relocation lists, as
 * arch/x86/tools/relocs.c writes them and arch/x86/boot/compressed/misc.c reads them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "include/kslide/image.h"
#include "tools/pack/linux_relocs.h"

#define MAX_WORDS 16
#define I386_BASE 0xc1000000u		     /* PAGE_OFFSET + 16 MiB */
#define X86_64_BASE 0xffffffff81000000ull    /* __START_KERNEL_map + 16 MiB */
#define SEGMENT_BYTES 0x1000u
#define SECOND_SEGMENT 0x2000u /* payload offset of the second segment; a gap before it */

static char err[256];

/* A tail built from 32-bit words, as the lists are. */
struct tail {
	uint8_t bytes[MAX_WORDS * 4];
	size_t len;
};

static struct tail words(size_t n, const uint32_t *w)
{
	struct tail t = { .len = n * 4 };
	for (size_t i = 0; i < n; i++)
		for (unsigned b = 0; b < 4; b++)
			t.bytes[4 * i + b] = (uint8_t)(w[i] >> (8 * b));
	return t;
}

static uint32_t entry(const struct linux_relocs *r, enum linux_reloc_list l, size_t i)
{
	const uint8_t *p = r->entries[l] + 4 * i;
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void test_i386_has_one_list_after_its_terminator(void **state)
{
	(void)state;
	const uint32_t w[] = { 0, 0xc1000010, 0xc1000020, 0xc1000030 };
	struct tail t = words(4, w);
	struct linux_relocs r;
	assert_int_equal(linux_relocs_split(t.bytes, t.len, false, &r, err, sizeof(err)), 0);
	assert_int_equal(r.count[LINUX_RELOCS_32], 3);
	assert_int_equal(r.count[LINUX_RELOCS_INVERSE_32], 0);
	assert_int_equal(r.count[LINUX_RELOCS_64], 0);
	assert_int_equal(entry(&r, LINUX_RELOCS_32, 0), 0xc1000010);
	assert_int_equal(entry(&r, LINUX_RELOCS_32, 2), 0xc1000030);
}

static void test_x86_64_lists_read_backwards_32_inverse_64(void **state)
{
	(void)state;
	/* 0 | 64-bit: 2 | 0 | inverse: 1 | 0 | 32-bit: 3 */
	const uint32_t w[] = { 0, 0x81000100, 0x81000108, 0, 0x81000200, 0,
			       0x81000010, 0x81000014, 0x81000018 };
	struct tail t = words(9, w);
	struct linux_relocs r;
	assert_int_equal(linux_relocs_split(t.bytes, t.len, true, &r, err, sizeof(err)), 0);
	assert_int_equal(r.count[LINUX_RELOCS_64], 2);
	assert_int_equal(r.count[LINUX_RELOCS_INVERSE_32], 1);
	assert_int_equal(r.count[LINUX_RELOCS_32], 3);
	assert_int_equal(entry(&r, LINUX_RELOCS_64, 1), 0x81000108);
	assert_int_equal(entry(&r, LINUX_RELOCS_INVERSE_32, 0), 0x81000200);
	assert_int_equal(entry(&r, LINUX_RELOCS_32, 0), 0x81000010);
}

static void test_empty_lists_are_just_terminators(void **state)
{
	(void)state;
	const uint32_t w[] = { 0, 0, 0 };
	struct tail t = words(3, w);
	struct linux_relocs r;
	assert_int_equal(linux_relocs_split(t.bytes, t.len, true, &r, err, sizeof(err)), 0);
	for (int l = 0; l < LINUX_RELOC_LISTS; l++)
		assert_int_equal(r.count[l], 0);
	t = words(1, w);
	assert_int_equal(linux_relocs_split(t.bytes, t.len, false, &r, err, sizeof(err)), 0);
	assert_int_equal(r.count[LINUX_RELOCS_32], 0);
}

static void refused_split(const uint32_t *w, size_t n, size_t cut, bool x86_64, const char *why)
{
	struct tail t = words(n, w);
	struct linux_relocs r;
	assert_int_equal(linux_relocs_split(t.bytes, t.len - cut, x86_64, &r, err, sizeof(err)), -1);
	if (!strstr(err, why))
		fail_msg("message \"%s\" lacks \"%s\"", err, why);
}

static void test_a_list_without_its_zero_is_malformed(void **state)
{
	(void)state;
	const uint32_t w[] = { 0xc1000010, 0xc1000020 };
	refused_split(w, 2, 0, false, "the 32-bit list has no terminating zero");
	const uint32_t w64[] = { 0x81000300, 0, 0x81000200, 0, 0x81000010 }; /* no first zero */
	refused_split(w64, 5, 0, true, "the 64-bit list has no terminating zero");
}

static void test_bytes_before_the_lists_are_malformed(void **state)
{
	(void)state;
	const uint32_t w[] = { 0x12345678, 0, 0xc1000010 };
	refused_split(w, 3, 0, false, "4 bytes lie between the vmlinux ELF and them");
	/* An i386 tail read as x86-64 runs out of terminators. */
	const uint32_t i386[] = { 0, 0xc1000010 };
	refused_split(i386, 2, 0, true, "inverse 32-bit list has no terminating zero");
}

static void test_a_tail_of_no_whole_entries_is_malformed(void **state)
{
	(void)state;
	const uint32_t w[] = { 0, 0xc1000010 };
	refused_split(w, 2, 1, false, "are not whole 32-bit entries");
}

/* A kernel of two segments with a gap between them, as the ELF reader would give it. */
static struct kernel_elf kernel(unsigned arch, uint64_t base)
{
	static struct kernel_segment segments[2];
	static uint8_t payload[SECOND_SEGMENT + SEGMENT_BYTES];
	memset(payload, 0, sizeof(payload));
	segments[0] = (struct kernel_segment){ 0, SEGMENT_BYTES, SEGMENT_BYTES, base, false, true };
	segments[1] = (struct kernel_segment){ SECOND_SEGMENT, SEGMENT_BYTES, SEGMENT_BYTES,
					       base + SECOND_SEGMENT, false, false };
	struct kernel_elf k = { .arch = arch, .payload = payload, .file_size = sizeof(payload),
				.mem_size = sizeof(payload), .link_virt = base,
				.segments = segments, .segment_count = 2 };
	return k;
}

static struct linux_relocs lists_of(struct tail *t, bool x86_64)
{
	struct linux_relocs r;
	assert_int_equal(linux_relocs_split(t->bytes, t->len, x86_64, &r, err, sizeof(err)), 0);
	return r;
}

static void test_i386_entries_become_sorted_add32_fixups(void **state)
{
	(void)state;
	const uint32_t w[] = { 0, I386_BASE + SECOND_SEGMENT + 8, I386_BASE + 0x10,
			       I386_BASE + SEGMENT_BYTES - 4 };
	struct tail t = words(4, w);
	struct linux_relocs r = lists_of(&t, false);
	struct kernel_elf k = kernel(KSLIDE_ARCH_I386, I386_BASE);
	assert_int_equal(linux_relocs_fixups(&r, &k, err, sizeof(err)), 0);
	assert_int_equal(k.fixup_count, 3);
	assert_int_equal(k.fixups[0].offset, 0x10);
	assert_int_equal(k.fixups[1].offset, SEGMENT_BYTES - 4);
	assert_int_equal(k.fixups[2].offset, SECOND_SEGMENT + 8);
	for (int i = 0; i < 3; i++)
		assert_int_equal(k.fixups[i].kind, RELOC_ADD32);
	free(k.fixups);
}

static void refused_entry(unsigned arch, uint64_t base, const uint32_t *w, size_t n,
			  bool x86_64, const char *why)
{
	struct tail t = words(n, w);
	struct linux_relocs r = lists_of(&t, x86_64);
	struct kernel_elf k = kernel(arch, base);
	assert_int_equal(linux_relocs_fixups(&r, &k, err, sizeof(err)), -1);
	if (!strstr(err, why))
		fail_msg("message \"%s\" lacks \"%s\"", err, why);
	assert_null(k.fixups);
}

static void test_entries_outside_the_segments_are_refused(void **state)
{
	(void)state;
	const uint32_t gap[] = { 0, I386_BASE + SEGMENT_BYTES + 0x10 };
	refused_entry(KSLIDE_ARCH_I386, I386_BASE, gap, 2, false,
		      "32-bit relocation entry 0 (0xc1001010) points outside");
	const uint32_t below[] = { 0, I386_BASE - 4 };
	refused_entry(KSLIDE_ARCH_I386, I386_BASE, below, 2, false, "points outside");
	const uint32_t straddle[] = { 0, I386_BASE + SEGMENT_BYTES - 3 }; /* 3 bytes left */
	refused_entry(KSLIDE_ARCH_I386, I386_BASE, straddle, 2, false, "points outside");
	/* A 64-bit field needs 8 bytes: 4 before the segment's end is too few. */
	const uint32_t wide[] = { 0, 0x81000000u + SEGMENT_BYTES - 4, 0, 0 };
	refused_entry(KSLIDE_ARCH_X86_64, X86_64_BASE, wide, 4, true,
		      "64-bit relocation entry 0 (0x81000ffc) points outside");
}

static void test_x86_64_entries_are_sign_extended_and_typed(void **state)
{
	(void)state;
	/* 0 | 64: +0x100 | 0 | inverse: +0x200 | 0 | 32: +0x10 (bit 31 set), +0x20 (clear) */
	const uint32_t w[] = { 0, 0x81000100, 0, 0x81000200, 0, 0x81000010, 0x81000020 };
	struct tail t = words(7, w);
	struct linux_relocs r = lists_of(&t, true);
	struct kernel_elf k = kernel(KSLIDE_ARCH_X86_64, X86_64_BASE);
	k.payload[0x13] = 0x80; /* the field at 0x10 holds 0x80000000: a sign-extended address */
	k.payload[0x20] = 0x10; /* the one at 0x20 holds 0x10: an offset */
	assert_int_equal(linux_relocs_fixups(&r, &k, err, sizeof(err)), 0);
	assert_int_equal(k.fixup_count, 4);
	const struct fixup want[] = { { 0x10, RELOC_ADD32S }, { 0x20, RELOC_ADD32 },
				      { 0x100, RELOC_ADD64 }, { 0x200, RELOC_SUB32S } };
	for (int i = 0; i < 4; i++) {
		assert_int_equal(k.fixups[i].offset, want[i].offset);
		assert_int_equal(k.fixups[i].kind, want[i].kind);
	}
	free(k.fixups);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_i386_has_one_list_after_its_terminator),
		cmocka_unit_test(test_x86_64_lists_read_backwards_32_inverse_64),
		cmocka_unit_test(test_empty_lists_are_just_terminators),
		cmocka_unit_test(test_a_list_without_its_zero_is_malformed),
		cmocka_unit_test(test_bytes_before_the_lists_are_malformed),
		cmocka_unit_test(test_a_tail_of_no_whole_entries_is_malformed),
		cmocka_unit_test(test_i386_entries_become_sorted_add32_fixups),
		cmocka_unit_test(test_entries_outside_the_segments_are_refused),
		cmocka_unit_test(test_x86_64_entries_are_sign_extended_and_typed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
