/*
 * Unit tests for tools/pack/base_window.c: the packer's proof that every base works must agree
 * with the stub's own relocation code (lib/reloc.c, reloc_apply) run at every base of the
 * window, and its advice must be exact: the bound it names is the tightest that works.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "include/kslide/image.h"
#include "lib/errors.h"
#include "lib/reloc.h"
#include "tools/pack/base_window.h"
#include "tools/pack/shuffle_units.h"

#define FIELDS 6
#define FIELD_STRIDE 8 /* one field per 8 bytes: a 64-bit one fits, none overlap */
#define PAYLOAD (FIELDS * FIELD_STRIDE)
#define TABLE_CAP 256
#define ROUNDS 3000
#define ERR_CAP 512
#define I386_END 0x100000000ull

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

/* xorshift64: reproducible draws for the random windows */
static uint64_t draw(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static int64_t draw_between(int64_t lo, int64_t hi)
{
	return lo + (int64_t)(draw() % (uint64_t)(hi - lo + 1));
}

struct case_kernel {
	struct kernel_elf k;
	uint8_t payload[PAYLOAD];
	struct fixup fixups[FIELDS];
	struct kernel_segment segment;
	struct pack_options opt;
};

static void store(uint8_t *p, uint64_t v, unsigned width)
{
	for (unsigned i = 0; i < width; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* A field value close to where the window's lowest or highest slide [a, b] breaks it. */
static uint64_t value_near_edge(enum reloc_kind kind, int64_t a, int64_t b, int64_t jitter)
{
	/* Half the time within a byte of the edge, where an off-by-one shows. */
	int64_t j = draw() & 1 ? draw_between(-1, 1) : draw_between(-jitter, jitter);
	bool low = draw() & 1;
	switch (kind) {
	case RELOC_ADD32:
		return (uint32_t)(low ? -a + j : (int64_t)UINT32_MAX - b + j);
	case RELOC_ADD32S:
		return (uint32_t)(low ? (int64_t)INT32_MIN - a + j : (int64_t)INT32_MAX - b + j);
	case RELOC_SUB32S:
		return (uint32_t)(low ? (int64_t)INT32_MIN + b + j : (int64_t)INT32_MAX + a + j);
	case RELOC_ADD64:
		break;
	}
	return low ? (uint64_t)INT64_MIN - (uint64_t)a + (uint64_t)j
		   : (uint64_t)INT64_MAX - (uint64_t)b + (uint64_t)j;
}

/* A kernel of FIELDS fields of random kinds and a small random window around its link base;
 * i386 windows are physical, x86-64 ones virtual. */
static void make_case(struct case_kernel *c, bool x86_64)
{
	memset(c, 0, sizeof(*c));
	struct kernel_elf *k = &c->k;
	struct pack_options *o = &c->opt;
	uint64_t align = 0x1000ull << (draw() % 4);
	k->arch = x86_64 ? KSLIDE_ARCH_X86_64 : KSLIDE_ARCH_I386;
	k->fixups_follow_virt = x86_64;
	k->payload = c->payload;
	k->file_size = PAYLOAD;
	k->mem_size = PAYLOAD + align * (draw() % 3);
	k->link_phys = 0x1000000 + align * (draw() % 0x8000);
	k->link_virt = x86_64 ? 0xffffffff80000000ull + align * (draw() % 0x4000) : k->link_phys;
	k->segments = &c->segment;
	k->segment_count = 1;
	c->segment = (struct kernel_segment){ .file_size = PAYLOAD, .mem_size = k->mem_size,
					      .vaddr = k->link_virt, .executable = true };
	uint64_t link = x86_64 ? k->link_virt : k->link_phys;
	/* Window edges on and off alignment: off by one byte they keep or lose a base. */
	const uint64_t edges[] = { 0, 1, align - 1, draw() % align };
	uint64_t min = link + (uint64_t)draw_between(-40, 40) * align + edges[draw() % 4];
	uint64_t size = k->mem_size;
	uint64_t end = min + size + align * (draw() % 64) + (draw() % 4 ? draw() % 2 : draw() % align);
	if (x86_64) {
		o->virt_align = align;
		o->virt_min = min;
		o->virt_last = end - 1;
		o->align = 0x200000;
		o->min = 0x1000000;
		o->max = 0x40000000;
	} else {
		o->align = align;
		o->min = min;
		o->max = end;
	}
	struct base_window w;
	base_window_of(k, o, &w);
	int64_t a = w.empty ? 0 : (int64_t)(w.first - link), b = w.empty ? 0 : (int64_t)(w.last - link);
	for (unsigned i = 0; i < FIELDS; i++) {
		enum reloc_kind kind = (enum reloc_kind)(1 + draw() % RELOC_KIND_LAST);
		c->fixups[i] = (struct fixup){ .offset = i * FIELD_STRIDE, .kind = kind };
		/* A third of the fields near an edge; the rest hold values no small slide breaks. */
		uint64_t v = draw() % 3 ? (kind == RELOC_ADD32 ? 0x80000000u : 0)
					: value_near_edge(kind, a, b, 3 * (int64_t)align);
		store(c->payload + i * FIELD_STRIDE, v, kind == RELOC_ADD64 ? 8 : 4);
	}
	k->fixups = c->fixups;
	k->fixup_count = FIELDS;
}

/* The stub's verdict at one base: reloc_apply for the 32-bit kinds, which it checks; a
 * 64-bit field must not cross the sign of a signed 64-bit address (its rule in the packer;
 * the stub adds it modulo 2^64). */
static bool base_works(const struct case_kernel *c, uint64_t base)
{
	const struct kernel_elf *k = &c->k;
	int64_t slide = (int64_t)(base - (k->fixups_follow_virt ? k->link_virt : k->link_phys));
	uint8_t image[PAYLOAD], table[TABLE_CAP];
	memcpy(image, c->payload, PAYLOAD);
	size_t used = 0;
	for (unsigned i = 0; i < FIELDS; i++) {
		const struct fixup *f = &c->fixups[i];
		if (f->kind == RELOC_ADD64) {
			int64_t v, sum;
			memcpy(&v, c->payload + f->offset, sizeof(v));
			if (__builtin_add_overflow(v, slide, &sum))
				return false;
			continue;
		}
		table[used++] = (uint8_t)f->kind;
		used += reloc_put_uleb128(table + used, TABLE_CAP - used, 1);
		used += reloc_put_uleb128(table + used, TABLE_CAP - used, f->offset);
	}
	return reloc_apply(image, PAYLOAD, table, used, slide) == KS_OK;
}

/* The bases the stub may draw, counted here as the stub counts its slots (lib/slots.h): every
 * multiple of the alignment from the window's start whose kernel ends inside it. */
struct bases {
	uint64_t first, last, align;
	bool any;
};

static struct bases bases_of(const struct case_kernel *c)
{
	const struct pack_options *o = &c->opt;
	bool virt = c->k.fixups_follow_virt;
	uint64_t align = virt ? o->virt_align : o->align, min = virt ? o->virt_min : o->min;
	uint64_t last_byte = virt ? o->virt_last : o->max - 1;
	uint64_t size = virt || o->memory_size < c->k.mem_size ? c->k.mem_size : o->memory_size;
	struct bases b = { .first = (min + align - 1) / align * align, .align = align };
	for (uint64_t at = b.first; at + (size - 1) <= last_byte; at += align) {
		b.last = at;
		b.any = true;
	}
	return b;
}

static bool all_bases_work(const struct case_kernel *c)
{
	struct bases b = bases_of(c);
	for (uint64_t at = b.first; b.any && at <= b.last; at += b.align)
		if (!base_works(c, at))
			return false;
	return true;
}

static void test_the_proof_agrees_with_the_stub_at_every_base(void **state)
{
	(void)state;
	unsigned refused = 0, accepted = 0;
	for (unsigned round = 0; round < ROUNDS; round++) {
		struct case_kernel c;
		make_case(&c, round & 1);
		char err[ERR_CAP] = "";
		int rc = base_window_check(&c.k, &c.opt, err, sizeof(err));
		bool works = all_bases_work(&c);
		if (works != (rc == 0))
			fail_msg("round %u: the check says %s, the stub %s: %s", round,
				 rc ? "refuse" : "accept", works ? "works at every base" : "fails somewhere",
				 err);
		rc ? refused++ : accepted++;
	}
	/* Both verdicts must occur often, or the cases prove little. */
	assert_true(refused > ROUNDS / 5);
	assert_true(accepted > ROUNDS / 5);
}

/* The bases the message names all fail, and the bound it advises is the tightest that
 * works: with it the window loses exactly those bases on that side and keeps the rest. */
static void test_the_named_bases_fail_and_the_advice_is_tight(void **state)
{
	(void)state;
	unsigned checked = 0;
	for (unsigned round = 0; round < ROUNDS; round++) {
		struct case_kernel c;
		make_case(&c, round & 1);
		char err[ERR_CAP] = "";
		if (base_window_check(&c.k, &c.opt, err, sizeof(err)) == 0)
			continue;
		struct bases w = bases_of(&c);
		unsigned long long bad_first, bad_last, fix;
		const char *range = strstr(err, "bases [");
		assert_non_null(range);
		assert_int_equal(sscanf(range, "bases [0x%llx, 0x%llx]", &bad_first, &bad_last), 2);
		for (uint64_t b = bad_first; b <= bad_last; b += w.align)
			if (base_works(&c, b))
				fail_msg("round %u: base 0x%llx works but is named: %s", round,
					 (unsigned long long)b, err);
		const char *to = strstr(err, " to 0x");
		if (!to) {
			assert_non_null(strstr(err, "no base of the window can hold it"));
			continue;
		}
		assert_int_equal(sscanf(to, " to 0x%llx", &fix), 1);
		bool low = bad_first == w.first;
		bool virt = c.k.fixups_follow_virt;
		if (low)
			*(virt ? &c.opt.virt_min : &c.opt.min) = fix;
		else if (virt)
			c.opt.virt_last = fix - 1;
		else
			c.opt.max = fix;
		struct bases narrowed = bases_of(&c);
		assert_true(narrowed.any);
		if (low)
			assert_int_equal(narrowed.first, bad_last + w.align);
		else
			assert_int_equal(narrowed.last, bad_first - w.align);
		assert_true(base_works(&c, low ? narrowed.first : narrowed.last));
		checked++;
	}
	assert_true(checked > ROUNDS / 10);
}

static void test_the_i386_reference_window_with_max_4g_is_refused_with_the_field(void **state)
{
	(void)state;
	/* A pointer to 0xc1400000 - 8, the end of a 4 MiB kernel linked at 0xc1000000 (physical
	 * 16 MiB), reaches 2^32 once the kernel moves up by 0x3ec00008: bases from 0x3fe00000
	 * fail, 0x3fc00000 is the last that works, and the kernel then ends at 0x40000000. */
	struct case_kernel c;
	memset(&c, 0, sizeof(c));
	c.k = (struct kernel_elf){ .arch = KSLIDE_ARCH_I386, .payload = c.payload,
				   .file_size = PAYLOAD, .mem_size = 0x400000,
				   .link_phys = 0x1000000, .link_virt = 0xc1000000,
				   .fixups = c.fixups, .fixup_count = 1 };
	c.fixups[0] = (struct fixup){ .offset = 8, .kind = RELOC_ADD32 };
	store(c.payload + 8, 0xc13ffff8, 4);
	c.opt = (struct pack_options){ .align = 0x200000, .min = 0x1000000, .max = I386_END };
	char err[ERR_CAP];
	assert_int_equal(base_window_check(&c.k, &c.opt, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "a 32-bit field at payload offset 0x8 (link address "
				    "0xc1000008, holding 0xc13ffff8)"));
	assert_non_null(strstr(err, "physical bases [0x3fe00000, 0xffc00000]"));
	assert_non_null(strstr(err, "lower --max to 0x40000000"));
	c.opt.max = 0x40000000;
	assert_int_equal(base_window_check(&c.k, &c.opt, err, sizeof(err)), 0);
}

/* Whether value, as a field of kind holds it, survives every slide the stub may give it: the
 * window's bases, counted one by one, and the link base. */
static bool value_survives(const struct case_kernel *c, enum reloc_kind kind, int64_t value)
{
	const struct kernel_elf *k = &c->k;
	uint64_t link = k->fixups_follow_virt ? k->link_virt : k->link_phys;
	struct bases b = bases_of(c);
	int64_t lo = kind == RELOC_ADD32 ? 0 : INT32_MIN;
	int64_t hi = kind == RELOC_ADD32 ? (int64_t)UINT32_MAX : INT32_MAX;
	if (value < lo || value > hi)
		return false;
	for (uint64_t at = b.first; b.any && at <= b.last; at += b.align) {
		int64_t moved = value + (int64_t)(at - link);
		if (moved < lo || moved > hi)
			return false;
	}
	return true;
}

/* --shuffle asks of a value a unit's move can give a 32-bit field whether every base keeps it
 * (base_window_holds): the same answer as counting the bases, on values at the window's edges
 * and beyond the field's type. */
static void test_a_value_holds_where_every_base_keeps_it(void **state)
{
	(void)state;
	unsigned held = 0, broken = 0;
	for (unsigned round = 0; round < ROUNDS; round++) {
		struct case_kernel c;
		make_case(&c, round & 1);
		struct base_window w;
		base_window_of(&c.k, &c.opt, &w);
		uint64_t link = c.k.fixups_follow_virt ? c.k.link_virt : c.k.link_phys;
		int64_t a = w.empty ? 0 : (int64_t)(w.first - link);
		int64_t b = w.empty ? 0 : (int64_t)(w.last - link);
		enum reloc_kind kind = draw() & 1 ? RELOC_ADD32 : RELOC_ADD32S;
		uint64_t near = value_near_edge(kind, a, b, 3 * (int64_t)w.align);
		int64_t value = kind == RELOC_ADD32 ? (int64_t)(uint32_t)near
						    : (int64_t)(int32_t)(uint32_t)near;
		value += draw_between(-2, 2) * (draw() % 4 == 0 ? (int64_t)1 << 32 : 0);
		bool holds = base_window_holds(&c.k, &c.opt, kind, value);
		if (holds != value_survives(&c, kind, value))
			fail_msg("round %u: %s 0x%llx: holds says %d", round,
				 kind == RELOC_ADD32 ? "ADD32" : "ADD32S", (unsigned long long)value,
				 holds);
		holds ? held++ : broken++;
	}
	assert_true(held > ROUNDS / 5);
	assert_true(broken > ROUNDS / 5);
}

/* kslide-pack --shuffle refuses an x86-64 32-bit field that some layout and some base would
 * overflow, and an x86-64 kernel the i386 stub does not start. */
static void test_shuffle_bounds_are_checked_at_every_base(void **state)
{
	(void)state;
	/* A single-slide kernel: physical bases 16 MiB to 1 GiB, slides up to 0x3ec00000 less
	 * its size; a 32S field near the top of int32 before the move. */
	struct case_kernel c;
	memset(&c, 0, sizeof(c));
	c.k = (struct kernel_elf){ .arch = KSLIDE_ARCH_X86_64, .single_slide = true,
				   .payload = c.payload, .file_size = PAYLOAD, .mem_size = 0x200000,
				   .link_phys = 0x1000000, .link_virt = 0xffffffff81000000ull };
	c.opt = (struct pack_options){ .align = 0x200000, .min = 0x1000000, .max = 0x40000000 };
	struct shuffle_bound bound = { 0x10, RELOC_ADD32S, 0, 0 };
	struct shuffle_units s = { .bounds = &bound, .bound_count = 1 };
	char err[ERR_CAP];
	int64_t top = INT32_MAX - (0x40000000 - 0x200000 - 0x1000000); /* at the highest base */
	bound.low = -0x1000;
	bound.high = top;
	assert_int_equal(shuffle_units_check_bases(&s, &c.k, &c.opt, err, sizeof(err)), 0);
	bound.high = top + 1;
	assert_int_equal(shuffle_units_check_bases(&s, &c.k, &c.opt, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "32-bit sign-extended field at payload offset 0x10"));
	bound = (struct shuffle_bound){ 0x10, RELOC_ADD32S, INT32_MIN - 1ll, 0 };
	assert_int_equal(shuffle_units_check_bases(&s, &c.k, &c.opt, err, sizeof(err)), -1);
	/* An unsigned one below zero after a move down: refused even at the link base. */
	bound = (struct shuffle_bound){ 0x10, RELOC_ADD32, -1, 0x1000 };
	assert_int_equal(shuffle_units_check_bases(&s, &c.k, &c.opt, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "32-bit field at payload offset 0x10"));
	bound = (struct shuffle_bound){ 0x10, RELOC_ADD32, 0, 0x1000 };
	assert_int_equal(shuffle_units_check_bases(&s, &c.k, &c.opt, err, sizeof(err)), 0);
	/* An x86-64 kernel with a virtual window of its own is not shuffled (a single slide is,
	 * on either stub); i386 ones have no bounds. */
	c.k.single_slide = false;
	assert_int_equal(shuffle_units_check_bases(&s, &c.k, &c.opt, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "a virtual base of its own is not shuffled"));
	c.k.arch = KSLIDE_ARCH_I386;
	assert_int_equal(shuffle_units_check_bases(&s, &c.k, &c.opt, err, sizeof(err)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_proof_agrees_with_the_stub_at_every_base),
		cmocka_unit_test(test_the_named_bases_fail_and_the_advice_is_tight),
		cmocka_unit_test(test_the_i386_reference_window_with_max_4g_is_refused_with_the_field),
		cmocka_unit_test(test_a_value_holds_where_every_base_keeps_it),
		cmocka_unit_test(test_shuffle_bounds_are_checked_at_every_base),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
