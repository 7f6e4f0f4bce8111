/*
 * lib/shuffle.c: the permutation is one and is uniform, every layout keeps each unit's
 * alignment inside the region, and each relocation class points where the moved code is.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/errors.h"
#include "lib/shuffle.h"
#include "lib/unaligned.h"

#define IMAGE_SIZE 0x400u
#define LINK_BASE 0x200000u /* where the hand-built payload's first byte is linked */
#define MAX_WORDS 256

/* xorshift64* (Vigna): fixed seeds keep the statistical tests reproducible. */
static uint64_t xorshift_next(void *ctx)
{
	uint64_t *state = ctx;
	uint64_t x = *state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* A table being written, word by word. */
struct builder {
	uint8_t bytes[MAX_WORDS * 4];
	size_t words;
};

static void put(struct builder *b, uint32_t v)
{
	assert_true(b->words < MAX_WORDS);
	store_le32(b->bytes + 4 * b->words++, v);
}

static void header(struct builder *b, uint32_t units, uint32_t relocs, uint32_t start,
		   uint32_t end)
{
	b->words = 0;
	put(b, SHUFFLE_MAGIC);
	put(b, units);
	put(b, relocs);
	put(b, start);
	put(b, end);
}

static void unit(struct builder *b, uint32_t offset, uint32_t size, uint32_t align)
{
	put(b, offset);
	put(b, size);
	put(b, align);
}

static void reloc(struct builder *b, uint32_t site, uint32_t kind, uint32_t site_unit,
		  uint32_t target_unit)
{
	put(b, site);
	put(b, kind);
	put(b, site_unit | target_unit << 16);
}

static int parse(const struct builder *b, struct shuffle_table *t, const char **why)
{
	return shuffle_parse(b->bytes, b->words * 4, IMAGE_SIZE, 0, t, why);
}

static void permutation_holds_each_index_once(void **state)
{
	(void)state;
	uint64_t seed = 1;
	for (uint32_t n = 1; n <= 40; n++) {
		for (int round = 0; round < 20; round++) {
			uint32_t order[40];
			int seen[40] = { 0 };
			shuffle_permute(order, n, xorshift_next, &seed);
			for (uint32_t i = 0; i < n; i++) {
				assert_true(order[i] < n);
				seen[order[i]]++;
			}
			for (uint32_t i = 0; i < n; i++)
				assert_int_equal(seen[i], 1);
		}
	}
}

/* All 6 orders of 3 units, each about a sixth of the time; a Fisher-Yates off by one (Sattolo's
 * cycles, or an index drawn from too small a range) never gives some of them. */
static void every_order_of_three_is_equally_likely(void **state)
{
	(void)state;
	enum { DRAWS = 60000 };
	uint64_t seed = 7;
	unsigned count[3][3][3] = { { { 0 } } };
	for (int i = 0; i < DRAWS; i++) {
		uint32_t o[3];
		shuffle_permute(o, 3, xorshift_next, &seed);
		count[o[0]][o[1]][o[2]]++;
	}
	static const uint32_t orders[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
					      { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
	for (int p = 0; p < 6; p++) {
		unsigned c = count[orders[p][0]][orders[p][1]][orders[p][2]];
		/* 10,000 expected, standard deviation 91: 5% either way is over 10 of them. */
		assert_true(c > DRAWS / 6 - DRAWS / 120);
		assert_true(c < DRAWS / 6 + DRAWS / 120);
	}
}

/* Units of every alignment and awkward sizes, in a region just large enough by the rule. */
static void build_mixed(struct builder *b, uint32_t *start, uint32_t *end)
{
	static const uint32_t sizes[] = { 0x13, 0x40, 0x7, 0x21, 0x1, 0x33, 0x10, 0x5 };
	static const uint32_t aligns[] = { 16, 64, 1, 4, 2, 32, 16, 8 };
	uint32_t n = sizeof(sizes) / sizeof(sizes[0]), worst = 0, at = 0x40;
	for (uint32_t i = 0; i < n; i++)
		worst += sizes[i] + aligns[i] - 1;
	*start = 0x40;
	header(b, n, 0, *start, 0);
	for (uint32_t i = 0; i < n; i++) {
		at = (at + aligns[i] - 1) & ~(aligns[i] - 1);
		unit(b, at, sizes[i], aligns[i]);
		at += sizes[i];
	}
	*end = *start + worst;
	store_le32(b->bytes + 16, *end);
}

static void every_layout_keeps_alignment_inside_the_region(void **state)
{
	(void)state;
	struct builder b;
	uint32_t start, end;
	build_mixed(&b, &start, &end);
	struct shuffle_table t;
	const char *why = NULL;
	assert_int_equal(parse(&b, &t, &why), KS_OK);
	uint64_t seed = 3;
	for (int round = 0; round < 2000; round++) {
		uint32_t order[8], at[8];
		shuffle_permute(order, t.unit_count, xorshift_next, &seed);
		assert_int_equal(shuffle_layout(&t, order, at), KS_OK);
		uint32_t prev_end = start;
		for (uint32_t i = 0; i < t.unit_count; i++) {
			struct shuffle_unit u = shuffle_unit_at(&t, order[i]);
			assert_int_equal(at[order[i]] % u.align, 0);
			assert_true(at[order[i]] >= prev_end);
			prev_end = at[order[i]] + u.size;
			assert_true(prev_end <= end);
		}
	}
}

static void a_region_short_of_the_rule_is_refused(void **state)
{
	(void)state;
	struct builder b;
	uint32_t start, end;
	build_mixed(&b, &start, &end);
	store_le32(b.bytes + 16, end - 1);
	struct shuffle_table t;
	const char *why = NULL;
	assert_int_equal(parse(&b, &t, &why), KS_EFORMAT);
	assert_non_null(strstr(why, "every order"));
}

/*
 * Two units A (0x100) and B (0x140), 32 bytes each, align 16, in [0x100, 0x180); fixed code
 * below at 0x10.. and data at 0x200... Each field holds what the linker wrote: an address
 * (LINK_BASE + offset) or a distance (target - end of the field). After the move each must
 * hold the same thing computed at the new offsets.
 */
enum { A = 0, B = 1, FIXED = SHUFFLE_NO_UNIT };
#define A_AT 0x100u
#define B_AT 0x140u
#define UNIT_SIZE 0x20u

struct field {
	uint32_t site;	     /* link offset */
	uint32_t kind;
	uint32_t site_unit;
	uint32_t target_unit;
	uint32_t target;     /* link offset of what it names */
};

static const struct field fields[] = {
	/* R_386_32, site fixed, target moving: a function pointer in a table */
	{ 0x200, SHUFFLE_ABS32, FIXED, A, A_AT + 0x4 },
	/* R_386_32, both moving: a jump table's entry held in code, or &f taken in g */
	{ A_AT + 0x8, SHUFFLE_ABS32, A, B, B_AT },
	/* R_386_32, same unit: an address inside itself (its own jump table in code) */
	{ B_AT + 0x4, SHUFFLE_ABS32, B, B, B_AT + 0x10 },
	/* R_386_PC32, site fixed, target moving: the entry calls kernel_main */
	{ 0x10, SHUFFLE_PC32, FIXED, B, B_AT },
	/* R_386_PLT32, both moving: one function calls another */
	{ A_AT + 0x10, SHUFFLE_PC32, A, B, B_AT + 0x8 },
	/* R_386_PC32, site moving, target fixed: a call to code in plain .text */
	{ B_AT + 0x18, SHUFFLE_PC32, B, FIXED, 0x30 },
	/* R_386_PC32, same unit: changes nothing */
	{ A_AT + 0x18, SHUFFLE_PC32, A, A, A_AT },
};
#define FIELD_COUNT (sizeof(fields) / sizeof(fields[0]))

static uint32_t link_value(const struct field *f, const uint32_t *at)
{
	uint32_t target = f->target, site = f->site;
	if (at && f->target_unit != FIXED)
		target += at[f->target_unit] - (f->target_unit == A ? A_AT : B_AT);
	if (at && f->site_unit != FIXED)
		site += at[f->site_unit] - (f->site_unit == A ? A_AT : B_AT);
	return f->kind == SHUFFLE_ABS32 ? LINK_BASE + target : target - (site + 4);
}

static void build_two_units(struct builder *b, uint8_t *image)
{
	header(b, 2, FIELD_COUNT, A_AT, 0x180);
	unit(b, A_AT, UNIT_SIZE, 16);
	unit(b, B_AT, UNIT_SIZE, 16);
	/* fields sorted by site, as the packer writes them */
	int order[FIELD_COUNT], n = 0;
	for (uint32_t site = 0; site < IMAGE_SIZE; site++)
		for (size_t i = 0; i < FIELD_COUNT; i++)
			if (fields[i].site == site)
				order[n++] = (int)i;
	memset(image, 0x90, IMAGE_SIZE);
	for (int i = 0; i < n; i++) {
		const struct field *f = &fields[order[i]];
		reloc(b, f->site, f->kind, f->site_unit, f->target_unit);
		store_le32(image + f->site, link_value(f, NULL));
	}
}

static void check_fields_after(const uint8_t *image, const uint32_t *at)
{
	for (size_t i = 0; i < FIELD_COUNT; i++) {
		const struct field *f = &fields[i];
		uint32_t site = f->site;
		if (f->site_unit != FIXED)
			site += at[f->site_unit] - (f->site_unit == A ? A_AT : B_AT);
		assert_int_equal(load_le32(image + site), link_value(f, at));
	}
}

static void each_relocation_class_follows_the_units(void **state)
{
	(void)state;
	struct builder b;
	static uint8_t image[IMAGE_SIZE], scratch[0x100];
	build_two_units(&b, image);
	struct shuffle_table t;
	const char *why = NULL;
	assert_int_equal(parse(&b, &t, &why), KS_OK);
	uint32_t order[2] = { B, A }, at[2];
	assert_int_equal(shuffle_layout(&t, order, at), KS_OK);
	assert_int_equal(at[B], A_AT);
	assert_int_equal(at[A], A_AT + UNIT_SIZE);
	shuffle_move(image, &t, at, scratch);
	shuffle_relocate(image, &t, at);
	check_fields_after(image, at);
}

/* nokaslr: shuffle_run without a source keeps every byte as linked. */
static void without_a_source_nothing_moves(void **state)
{
	(void)state;
	struct builder b;
	static uint8_t image[IMAGE_SIZE], before[IMAGE_SIZE], scratch[0x100];
	build_two_units(&b, image);
	memcpy(before, image, IMAGE_SIZE);
	struct shuffle_table t;
	const char *why = NULL;
	assert_int_equal(parse(&b, &t, &why), KS_OK);
	assert_int_equal(shuffle_run(image, &t, scratch, NULL, NULL), KS_OK);
	assert_memory_equal(image, before, IMAGE_SIZE);
}

/* Drawn orders, the whole run: every field still right, whichever order came out. */
static void every_drawn_order_keeps_every_field_right(void **state)
{
	(void)state;
	uint64_t seed = 11;
	for (int round = 0; round < 50; round++) {
		struct builder b;
		static uint8_t image[IMAGE_SIZE], scratch[0x100];
		build_two_units(&b, image);
		struct shuffle_table t;
		const char *why = NULL;
		assert_int_equal(parse(&b, &t, &why), KS_OK);
		assert_true(shuffle_scratch_size(&t) <= sizeof(scratch));
		assert_int_equal(shuffle_run(image, &t, scratch, xorshift_next, &seed), KS_OK);
		const uint32_t *at = (const uint32_t *)(const void *)(scratch + 0x80) + 2;
		check_fields_after(image, at);
	}
}

/* A table as built, broken by one word. */
static void expect_refused(uint32_t word, uint32_t value, uint64_t entry, const char *reason)
{
	struct builder b;
	static uint8_t image[IMAGE_SIZE];
	build_two_units(&b, image);
	if (word < b.words)
		store_le32(b.bytes + 4 * word, value);
	struct shuffle_table t;
	const char *why = NULL;
	assert_int_equal(shuffle_parse(b.bytes, b.words * 4, IMAGE_SIZE, entry, &t, &why),
			 KS_EFORMAT);
	assert_non_null(why);
	if (!strstr(why, reason))
		fail_msg("expected \"%s\", got \"%s\"", reason, why);
}

#define UNIT_WORD(u, w) (SHUFFLE_HEADER_WORDS + (u) * SHUFFLE_UNIT_WORDS + (w))
#define RELOC_WORD(r, w) (SHUFFLE_HEADER_WORDS + 2 * SHUFFLE_UNIT_WORDS + (r) * SHUFFLE_RELOC_WORDS + (w))

static void bad_tables_are_refused_with_a_reason(void **state)
{
	(void)state;
	expect_refused(0, 0, 0, "magic");
	expect_refused(1, 3, 0, "size does not match");
	expect_refused(1, 0, 0, "unit count");
	expect_refused(4, IMAGE_SIZE + 4, 0, "outside the kernel");
	expect_refused(3, 0x180, 0, "region is empty");
	expect_refused(0, SHUFFLE_MAGIC, A_AT + 4, "entry point");
	expect_refused(UNIT_WORD(1, 0), A_AT + 0x10, 0, "overlap");
	expect_refused(UNIT_WORD(0, 2), 3, 0, "power of two");
	expect_refused(UNIT_WORD(0, 2), 0x2000, 0, "power of two");
	expect_refused(UNIT_WORD(1, 0), B_AT + 4, 0, "multiple of its alignment");
	expect_refused(RELOC_WORD(0, 1), 4, 0, "kind unknown");
	expect_refused(RELOC_WORD(0, 1), 0, 0, "kind unknown");
	expect_refused(RELOC_WORD(0, 2), 0xffffu | 2u << 16, 0, "not there");
	expect_refused(RELOC_WORD(0, 2), 0xffffffffu, 0, "nothing moves");
	expect_refused(RELOC_WORD(0, 0), A_AT, 0, "outside its unit");
	expect_refused(RELOC_WORD(0, 0), IMAGE_SIZE - 2, 0, "outside its unit or the image");
	expect_refused(RELOC_WORD(2, 0), A_AT + 0x8, 0, "out of order or overlapping");
}

/*
 * x86-64 (R_X86_64_64, _32, _32S, _PC32, _PLT32) on the same two units, linked so that A lies
 * just below a 4 GiB boundary of the virtual address space and B just above it: with the order
 * B, A, A moves up by 0x20 and B down by 0x40, so each crosses it. An 8-byte field must carry
 * into its upper half and take a move down sign-extended; a 4-byte one wraps modulo 2^32.
 */
#define VIRT_BASE 0xfffffffefffffef0ull /* A_AT + 0x10 is at 0xffffffff00000000 */

static const struct field fields64[] = { /* by site, as the packer writes them */
	/* R_X86_64_PC32 from fixed code: the entry calls into A */
	{ 0x20, SHUFFLE_PC32, FIXED, A, A_AT },
	/* R_X86_64_64 in A naming B: movabs $g, %rax */
	{ A_AT + 0x8, SHUFFLE_ABS64, A, B, B_AT },
	/* R_X86_64_32S in A naming B: mov $g, %rax (its low half, modulo 2^32) */
	{ A_AT + 0x14, SHUFFLE_ABS32, A, B, B_AT + 0x4 },
	/* R_X86_64_PLT32 from B to A */
	{ B_AT + 0x4, SHUFFLE_PC32, B, A, A_AT + 0x2 },
	/* R_X86_64_64 in B naming B: its own jump table held in code */
	{ B_AT + 0x10, SHUFFLE_ABS64, B, B, B_AT + 0x18 },
	/* R_X86_64_64 in .rodata: a function pointer to A */
	{ 0x200, SHUFFLE_ABS64, FIXED, A, A_AT + 0x4 },
	/* R_X86_64_64 in .rodata: a jump table's entry into B */
	{ 0x208, SHUFFLE_ABS64, FIXED, B, B_AT + 0x10 },
};
#define FIELD64_COUNT (sizeof(fields64) / sizeof(fields64[0]))

static uint64_t moved(uint32_t offset, uint32_t u, const uint32_t *at)
{
	if (!at || u == FIXED)
		return offset;
	return (uint64_t)offset + at[u] - (u == A ? A_AT : B_AT);
}

static uint64_t link_value64(const struct field *f, const uint32_t *at)
{
	uint64_t target = moved(f->target, f->target_unit, at);
	uint64_t site = moved(f->site, f->site_unit, at);
	if (f->kind == SHUFFLE_PC32)
		return (uint32_t)(target - (site + 4));
	uint64_t address = VIRT_BASE + target;
	return f->kind == SHUFFLE_ABS64 ? address : (uint32_t)address;
}

static void build_two_units64(struct builder *b, uint8_t *image)
{
	header(b, 2, FIELD64_COUNT, A_AT, 0x180);
	unit(b, A_AT, UNIT_SIZE, 16);
	unit(b, B_AT, UNIT_SIZE, 16);
	memset(image, 0x90, IMAGE_SIZE);
	for (size_t i = 0; i < FIELD64_COUNT; i++) {
		const struct field *f = &fields64[i];
		reloc(b, f->site, f->kind, f->site_unit, f->target_unit);
		if (f->kind == SHUFFLE_ABS64)
			store_le64(image + f->site, link_value64(f, NULL));
		else
			store_le32(image + f->site, (uint32_t)link_value64(f, NULL));
	}
}

static void check_fields64_after(const uint8_t *image, const uint32_t *at)
{
	for (size_t i = 0; i < FIELD64_COUNT; i++) {
		const struct field *f = &fields64[i];
		const uint8_t *field = image + moved(f->site, f->site_unit, at);
		uint64_t got = f->kind == SHUFFLE_ABS64 ? load_le64(field) : load_le32(field);
		if (got != link_value64(f, at))
			fail_msg("field %zu: 0x%llx, expected 0x%llx", i, (unsigned long long)got,
				 (unsigned long long)link_value64(f, at));
	}
}

static void each_x86_64_relocation_class_follows_the_units(void **state)
{
	(void)state;
	struct builder b;
	static uint8_t image[IMAGE_SIZE], scratch[0x100];
	build_two_units64(&b, image);
	struct shuffle_table t;
	const char *why = NULL;
	assert_int_equal(parse(&b, &t, &why), KS_OK);
	uint32_t order[2] = { B, A }, at[2];
	assert_int_equal(shuffle_layout(&t, order, at), KS_OK);
	assert_int_equal(at[B], A_AT);
	assert_int_equal(at[A], A_AT + UNIT_SIZE);
	shuffle_move(image, &t, at, scratch);
	shuffle_relocate(image, &t, at);
	check_fields64_after(image, at);
	/* the crossing itself, spelled out: A's pointer moved up over 0xffffffff00000000 */
	assert_true(load_le64(image + 0x200) == 0xffffffff00000014ull);
}

static void every_drawn_order_keeps_every_x86_64_field_right(void **state)
{
	(void)state;
	uint64_t seed = 13;
	for (int round = 0; round < 50; round++) {
		struct builder b;
		static uint8_t image[IMAGE_SIZE], scratch[0x100];
		build_two_units64(&b, image);
		struct shuffle_table t;
		const char *why = NULL;
		assert_int_equal(parse(&b, &t, &why), KS_OK);
		assert_int_equal(shuffle_run(image, &t, scratch, xorshift_next, &seed), KS_OK);
		const uint32_t *at = (const uint32_t *)(const void *)(scratch + 0x80) + 2;
		check_fields64_after(image, at);
	}
}

/* An 8-byte field is 8 bytes long: it must lie wholly in its unit, and the next field may not
 * start inside it. */
static void an_eight_byte_field_is_checked_whole(void **state)
{
	(void)state;
	struct builder b;
	static uint8_t image[IMAGE_SIZE];
	struct shuffle_table t;
	const char *why = NULL;
	build_two_units64(&b, image);
	/* B's own 64-bit field moved to B's last 4 bytes */
	store_le32(b.bytes + 4 * RELOC_WORD(4, 0), B_AT + UNIT_SIZE - 4);
	assert_int_equal(parse(&b, &t, &why), KS_EFORMAT);
	assert_non_null(strstr(why, "outside its unit"));
	build_two_units64(&b, image);
	/* the jump table's entry 4 bytes after the function pointer's: inside it */
	store_le32(b.bytes + 4 * RELOC_WORD(6, 0), 0x204);
	assert_int_equal(parse(&b, &t, &why), KS_EFORMAT);
	assert_non_null(strstr(why, "overlapping"));
	/* a fixed 8-byte field ending past the image */
	build_two_units64(&b, image);
	store_le32(b.bytes + 4 * RELOC_WORD(6, 0), IMAGE_SIZE - 4);
	assert_int_equal(parse(&b, &t, &why), KS_EFORMAT);
	assert_non_null(strstr(why, "or the image"));
	/* an 8-byte absolute field to fixed code: nothing moves it */
	build_two_units64(&b, image);
	store_le32(b.bytes + 4 * RELOC_WORD(5, 2), 0xffffffffu);
	assert_int_equal(parse(&b, &t, &why), KS_EFORMAT);
	assert_non_null(strstr(why, "nothing moves"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(permutation_holds_each_index_once),
		cmocka_unit_test(every_order_of_three_is_equally_likely),
		cmocka_unit_test(every_layout_keeps_alignment_inside_the_region),
		cmocka_unit_test(a_region_short_of_the_rule_is_refused),
		cmocka_unit_test(each_relocation_class_follows_the_units),
		cmocka_unit_test(without_a_source_nothing_moves),
		cmocka_unit_test(every_drawn_order_keeps_every_field_right),
		cmocka_unit_test(bad_tables_are_refused_with_a_reason),
		cmocka_unit_test(each_x86_64_relocation_class_follows_the_units),
		cmocka_unit_test(every_drawn_order_keeps_every_x86_64_field_right),
		cmocka_unit_test(an_eight_byte_field_is_checked_whole),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
