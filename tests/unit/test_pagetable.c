/*
 * x86-64 page tables: worked layouts (identity map, boundaries, page sizes), errors, and a
 * property test checking random kernel mappings page by page against an independent walk.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/errors.h"
#include "lib/pagetable.h"

#define KiB ((uint64_t)1 << 10)
#define MiB ((uint64_t)1 << 20)
#define GiB ((uint64_t)1 << 30)
#define PAGE (4 * KiB)
#define UPPER_HALF 0xffff800000000000ull /* lowest canonical upper-half address */
#define KERNEL_TOP 0xffffffff80000000ull /* Linux's __START_KERNEL_map: -2 GiB */

/* Where the tests pretend the pool lives in physical memory. */
#define POOL_PHYS 0x200000ull
#define POOL_PAGES 128

static uint64_t pool[POOL_PAGES][PT_ENTRIES];
static uint64_t snapshot[POOL_PAGES][PT_ENTRIES];

static struct pt_builder fresh(size_t pages)
{
	struct pt_builder b;

	assert_true(pages <= POOL_PAGES);
	memset(pool, 0xa5, sizeof(pool)); /* pt_init and pt_map must zero what they take */
	assert_int_equal(pt_init(&b, pool, pages, POOL_PHYS), KS_OK);
	assert_int_equal(b.pml4_phys, POOL_PHYS);
	assert_int_equal(b.pool.used, 1);
	return b;
}

static struct pt_builder identity_4g(void)
{
	struct pt_builder b = fresh(POOL_PAGES);

	assert_int_equal(pt_map(&b, 0, 0, 4 * GiB, PTE_WRITABLE), KS_OK);
	return b;
}

/* ---- An independent walk, written from the SDM's entry formats, not from pagetable.h ---- */

struct walk {
	uint64_t phys;
	uint64_t page_size; /* 4 KiB, 2 MiB or 1 GiB */
	uint64_t leaf;      /* the raw leaf entry */
};

static const uint64_t *table_at(const struct pt_builder *b, uint64_t phys)
{
	assert_int_equal(phys & 0xfff, 0);
	assert_true(phys >= POOL_PHYS);
	assert_true((phys - POOL_PHYS) / 4096 < b->pool.used);
	return pool[(phys - POOL_PHYS) / 4096];
}

/* Returns false when some level is not present. Table entries must be exactly P | R/W. */
static bool ref_walk(const struct pt_builder *b, uint64_t virt, struct walk *w)
{
	const uint64_t addr_bits = 0x000ffffffffff000ull; /* bits 12..51 */
	uint64_t table = b->pml4_phys;

	for (int depth = 0; depth < 4; depth++) { /* PML4, PDPT, PD, PT */
		unsigned int shift = 39 - 9 * depth;
		uint64_t e = table_at(b, table)[(virt >> shift) % 512];
		if ((e & 1) == 0)
			return false;
		bool large = (depth == 1 || depth == 2) && (e & 0x80) != 0;
		if (depth == 3 || large) {
			w->page_size = (uint64_t)1 << shift;
			w->phys = (e & addr_bits & ~(w->page_size - 1)) + virt % w->page_size;
			w->leaf = e;
			return true;
		}
		assert_int_equal(e & ~addr_bits, 0x3);
		table = e & addr_bits;
	}
	fail();
	return false;
}

static uint64_t translate(const struct pt_builder *b, uint64_t virt)
{
	uint64_t phys = 0;

	assert_int_equal(pt_translate(b, virt, &phys), KS_OK);
	return phys;
}

static void assert_unmapped(const struct pt_builder *b, uint64_t virt)
{
	uint64_t phys;
	struct walk w;

	assert_int_equal(pt_translate(b, virt, &phys), KS_ENOENT);
	assert_false(ref_walk(b, virt, &w));
}

/* The PD entry that maps (or points to the PT for) virt. */
static uint64_t pd_entry(const struct pt_builder *b, uint64_t virt)
{
	const uint64_t *pml4 = table_at(b, b->pml4_phys);
	const uint64_t *pdpt = table_at(b, pml4[(virt >> 39) & 511] & PT_ADDR_MASK);
	const uint64_t *pd = table_at(b, pdpt[(virt >> 30) & 511] & PT_ADDR_MASK);
	return pd[(virt >> 21) & 511];
}

/* ---- splitmix64, as in test_slots.c ---- */

#define DEFAULT_SEED 0x6b736c6964650002ull

static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rng_below(uint64_t *s, uint64_t n)
{
	return rng_next(s) % n;
}

static uint64_t property_seed(void)
{
	const char *env = getenv("PAGETABLE_SEED");

	return env != NULL ? strtoull(env, NULL, 0) : DEFAULT_SEED;
}

/* ---- Worked layouts ---- */

static void identity_map_of_4_gib_takes_one_pml4_one_pdpt_and_four_pds(void **state)
{
	(void)state;
	struct pt_builder b = fresh(POOL_PAGES);

	assert_int_equal(pt_pages_needed(0, 0, 4 * GiB), 1 + 4);
	assert_int_equal(pt_map(&b, 0, 0, 4 * GiB, PTE_WRITABLE), KS_OK);
	assert_int_equal(b.pool.used, 1 + 1 + 4);
	for (uint64_t v = 0; v < 4 * GiB; v += 2 * MiB) {
		uint64_t e = pd_entry(&b, v);
		assert_int_equal(e & (PTE_PRESENT | PTE_WRITABLE | PTE_PS | PTE_NX),
				 PTE_PRESENT | PTE_WRITABLE | PTE_PS);
		assert_int_equal(e & PT_ADDR_MASK, v);
		assert_int_equal(translate(&b, v + 0x1fffff), v + 0x1fffff);
	}
	assert_unmapped(&b, 4 * GiB);
	assert_unmapped(&b, UPPER_HALF);
	assert_unmapped(&b, UINT64_MAX & ~(PAGE - 1));
}

static void kernel_at_random_4k_bases_maps_every_page_and_no_neighbour(void **state)
{
	(void)state;
	uint64_t s = property_seed();
	struct pt_builder b = identity_4g();
	uint64_t vbase = UPPER_HALF + (rng_next(&s) & 0x7fff7ffff000ull);
	uint64_t pbase = 16 * MiB + (rng_below(&s, 1 * GiB) & ~(PAGE - 1));
	uint64_t size = 3 * MiB + 5 * PAGE;

	assert_int_equal(pt_map(&b, vbase, pbase, size, PTE_WRITABLE), KS_OK);
	for (uint64_t off = 0; off < size; off += PAGE) {
		struct walk w;
		assert_int_equal(translate(&b, vbase + off), pbase + off);
		assert_int_equal(translate(&b, vbase + off + 0xabc), pbase + off + 0xabc);
		assert_true(ref_walk(&b, vbase + off, &w));
		assert_int_equal(w.phys, pbase + off);
	}
	assert_unmapped(&b, vbase - PAGE);
	assert_unmapped(&b, vbase + size);
	/* The identity map is still whole, including where the kernel's frames are. */
	assert_int_equal(translate(&b, pbase), pbase);
	assert_int_equal(translate(&b, 4 * GiB - 1), 4 * GiB - 1);
}

static void two_mib_pages_go_where_virt_and_phys_are_both_aligned(void **state)
{
	(void)state;
	struct pt_builder b = fresh(POOL_PAGES);
	uint64_t v = KERNEL_TOP;

	/* Both aligned: three 2 MiB pages, no PT. */
	assert_int_equal(pt_map(&b, v, 32 * MiB, 6 * MiB, 0), KS_OK);
	assert_int_equal(b.pool.used, 1 + 1 + 1);
	for (int i = 0; i < 3; i++)
		assert_true(pd_entry(&b, v + i * 2 * MiB) & PTE_PS);

	/* Virt aligned, phys 4 KiB off: a PT for each 2 MiB. */
	v += 1 * GiB;
	size_t before = b.pool.used;
	assert_int_equal(pt_pages_needed(v, 64 * MiB + PAGE, 6 * MiB), 1 + 1 + 3);
	assert_int_equal(pt_map(&b, v, 64 * MiB + PAGE, 6 * MiB, 0), KS_OK);
	assert_int_equal(b.pool.used - before, 1 + 3); /* the PDPT is shared */
	for (int i = 0; i < 3; i++)
		assert_false(pd_entry(&b, v + i * 2 * MiB) & PTE_PS);
	assert_int_equal(translate(&b, v), 64 * MiB + PAGE);

	/* Both 1 MiB past a 2 MiB boundary: 4 KiB head, two 2 MiB pages, 4 KiB tail. */
	v = UPPER_HALF + 4 * GiB + 1 * MiB;
	before = b.pool.used;
	assert_int_equal(pt_map(&b, v, 128 * MiB + 1 * MiB, 6 * MiB, 0), KS_OK);
	assert_int_equal(b.pool.used - before, 1 + 1 + 2);
	uint64_t region = v - 1 * MiB;
	assert_false(pd_entry(&b, region) & PTE_PS);
	assert_true(pd_entry(&b, region + 2 * MiB) & PTE_PS);
	assert_true(pd_entry(&b, region + 4 * MiB) & PTE_PS);
	assert_false(pd_entry(&b, region + 6 * MiB) & PTE_PS);
	assert_int_equal(translate(&b, region + 2 * MiB), 128 * MiB + 2 * MiB);
	assert_unmapped(&b, region);
	assert_unmapped(&b, v + 6 * MiB);
}

static void mapping_straddling_a_1_gib_boundary_uses_two_pds(void **state)
{
	(void)state;
	struct pt_builder b = fresh(POOL_PAGES);
	uint64_t boundary = UINT64_MAX - 1 * GiB + 1; /* -1 GiB */
	uint64_t v = boundary - 4 * MiB;
	uint64_t p = 1 * GiB - 4 * MiB;

	assert_int_equal(pt_pages_needed(v, p, 8 * MiB), 1 + 2);
	assert_int_equal(pt_map(&b, v, p, 8 * MiB, PTE_WRITABLE | PTE_NX), KS_OK);
	assert_int_equal(b.pool.used, 1 + 1 + 2);
	for (uint64_t off = 0; off < 8 * MiB; off += PAGE) {
		struct walk w;
		assert_true(ref_walk(&b, v + off, &w));
		assert_int_equal(w.phys, p + off);
		assert_int_equal(w.page_size, 2 * MiB);
		assert_true(w.leaf & PTE_NX);
	}
	assert_int_equal(translate(&b, boundary - 1), 1 * GiB - 1);
	assert_int_equal(translate(&b, boundary), 1 * GiB);
	assert_unmapped(&b, v - PAGE);
	assert_unmapped(&b, v + 8 * MiB);
}

static void mapping_straddling_a_512_gib_boundary_uses_two_pdpts(void **state)
{
	(void)state;
	struct pt_builder b = fresh(POOL_PAGES);
	uint64_t boundary = 0xffffff8000000000ull; /* PML4 entry 511 */
	uint64_t v = boundary - 3 * PAGE;
	uint64_t p = 16 * MiB + 5 * PAGE;

	assert_int_equal(pt_pages_needed(v, p, 6 * PAGE), 2 + 2 + 2);
	assert_int_equal(pt_map(&b, v, p, 6 * PAGE, PTE_WRITABLE), KS_OK);
	assert_int_equal(b.pool.used, 1 + 2 + 2 + 2);
	const uint64_t *pml4 = table_at(&b, b.pml4_phys);
	assert_true(pml4[510] & PTE_PRESENT);
	assert_true(pml4[511] & PTE_PRESENT);
	for (uint64_t off = 0; off < 6 * PAGE; off += PAGE)
		assert_int_equal(translate(&b, v + off), p + off);
	assert_unmapped(&b, v - PAGE);
	assert_unmapped(&b, v + 6 * PAGE);
}

static void mapping_may_end_exactly_at_the_top_of_the_address_space(void **state)
{
	(void)state;
	struct pt_builder b = fresh(POOL_PAGES);

	assert_int_equal(pt_map(&b, 0 - 4 * MiB, 8 * MiB, 4 * MiB, 0), KS_OK);
	assert_int_equal(b.pool.used, 1 + 1 + 1);
	assert_int_equal(translate(&b, UINT64_MAX), 12 * MiB - 1);
	assert_int_equal(pt_map(&b, 0 - 4 * MiB, 8 * MiB, 4 * MiB + PAGE, 0), KS_EINVAL);
}

/* ---- Errors ---- */

static void bad_ranges_are_einval(void **state)
{
	(void)state;
	struct pt_builder b = fresh(POOL_PAGES);
	const uint64_t hole = 0x0000800000000000ull; /* first non-canonical address */
	struct {
		uint64_t virt, phys, size, flags;
	} bad[] = {
		{ hole, 0, PAGE, 0 },                  /* non-canonical */
		{ UPPER_HALF - PAGE, 0, PAGE, 0 },     /* last non-canonical page */
		{ hole - PAGE, 0, 2 * PAGE, 0 },       /* runs into the hole */
		{ 0 - PAGE, 0, 2 * PAGE, 0 },          /* wraps past 2^64 */
		{ 0x1000 + 1, 0, PAGE, 0 },            /* misaligned virt */
		{ 0x1000, 0x800, PAGE, 0 },            /* misaligned phys */
		{ 0x1000, 0, PAGE + 1, 0 },            /* misaligned size */
		{ 0x1000, 0, 0, 0 },                   /* empty */
		{ 0, PT_PHYS_LIMIT - PAGE, 2 * PAGE, 0 }, /* phys past 2^52 */
		{ 0, PT_PHYS_LIMIT, PAGE, 0 },
		{ 0, UINT64_MAX - PAGE + 1, PAGE, 0 }, /* phys wraps */
		{ 0, 0, PAGE, PTE_PS },                /* flags outside PT_MAP_FLAGS */
		{ 0, 0, PAGE, (uint64_t)1 << 2 },      /* U/S */
		{ 0, 0, PAGE, 0x1000 },                /* an address bit */
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (pt_map(&b, bad[i].virt, bad[i].phys, bad[i].size, bad[i].flags) != KS_EINVAL) {
			print_error("bad range %zu was accepted\n", i);
			fail();
		}
		if (bad[i].flags == 0)
			assert_int_equal(pt_pages_needed(bad[i].virt, bad[i].phys, bad[i].size), 0);
	}
	assert_int_equal(b.pool.used, 1);

	uint64_t phys;
	assert_int_equal(pt_translate(&b, hole, &phys), KS_EINVAL);
	assert_int_equal(pt_translate(&b, 0, &phys), KS_ENOENT);
}

static void init_rejects_unaligned_or_empty_pools(void **state)
{
	(void)state;
	struct pt_builder b;

	assert_int_equal(pt_init(&b, NULL, 4, POOL_PHYS), KS_EINVAL);
	assert_int_equal(pt_init(&b, pool, 4, POOL_PHYS + 8), KS_EINVAL);
	assert_int_equal(pt_init(&b, pool, 4, PT_PHYS_LIMIT - 2 * PAGE), KS_EINVAL);
	assert_int_equal(pt_init(&b, pool, 2, PT_PHYS_LIMIT - 2 * PAGE), KS_OK);
	assert_int_equal(pt_init(&b, pool, 0, POOL_PHYS), KS_ENOSPC);
}

/* Snapshot every pool page and the count, to prove a failed call wrote nothing. */
static void take_snapshot(void)
{
	memcpy(snapshot, pool, sizeof(pool));
}

static void assert_unchanged(const struct pt_builder *b, size_t used)
{
	assert_int_equal(b->pool.used, used);
	assert_memory_equal(snapshot, pool, sizeof(pool));
}

static void remapping_to_a_different_target_is_einval_and_changes_nothing(void **state)
{
	(void)state;
	struct pt_builder b = identity_4g();
	uint64_t v = KERNEL_TOP + 1 * MiB + PAGE; /* 4 KiB pages at the ends */
	uint64_t p = 16 * MiB + 1 * MiB + PAGE;
	uint64_t size = 8 * MiB;

	assert_int_equal(pt_map(&b, v, p, size, PTE_WRITABLE), KS_OK);
	size_t used = b.pool.used;
	take_snapshot();

	/* A new range whose last page overlaps the old first page, pointing elsewhere. */
	assert_int_equal(pt_map(&b, v - 3 * MiB, 256 * MiB, 3 * MiB + PAGE, PTE_WRITABLE),
			 KS_EINVAL);
	assert_unchanged(&b, used);
	/* Same range, shifted frames; same frames, other attributes. */
	assert_int_equal(pt_map(&b, v, p + PAGE, size, PTE_WRITABLE), KS_EINVAL);
	assert_int_equal(pt_map(&b, v, p, size, 0), KS_EINVAL);
	assert_int_equal(pt_map(&b, v, p, size, PTE_WRITABLE | PTE_NX), KS_EINVAL);
	/* One page inside an identity 2 MiB page, at the wrong offset. */
	assert_int_equal(pt_map(&b, 6 * MiB + PAGE, 6 * MiB, PAGE, PTE_WRITABLE), KS_EINVAL);
	/* A 2 MiB page over the identity map's 2 MiB page, other frame. */
	assert_int_equal(pt_map(&b, 0, 2 * MiB, 2 * MiB, PTE_WRITABLE), KS_EINVAL);
	assert_unchanged(&b, used);
}

static void mapping_the_same_translation_again_is_accepted_and_takes_nothing(void **state)
{
	(void)state;
	struct pt_builder b = identity_4g();
	uint64_t v = KERNEL_TOP;

	/* A 4 KiB-paged range, then the whole range again and a slice of it. */
	assert_int_equal(pt_map(&b, v + PAGE, 32 * MiB + PAGE, 4 * MiB, 0), KS_OK);
	size_t used = b.pool.used;
	take_snapshot();
	assert_int_equal(pt_map(&b, v + PAGE, 32 * MiB + PAGE, 4 * MiB, 0), KS_OK);
	assert_int_equal(pt_map(&b, v + 2 * MiB, 34 * MiB, 4 * PAGE, 0), KS_OK);
	/* 4 KiB pages inside the identity map's 2 MiB pages. */
	assert_int_equal(pt_map(&b, 6 * MiB + PAGE, 6 * MiB + PAGE, 3 * PAGE, PTE_WRITABLE), KS_OK);
	assert_unchanged(&b, used);

	/*
	 * Growing it to whole 2 MiB regions: the first and last keep their PTs (filled with the
	 * missing pages) rather than becoming 2 MiB pages; the middle one already is one.
	 */
	assert_true(pd_entry(&b, v + 2 * MiB) & PTE_PS);
	assert_int_equal(pt_map(&b, v, 32 * MiB, 6 * MiB, 0), KS_OK);
	assert_int_equal(b.pool.used, used);
	assert_false(pd_entry(&b, v) & PTE_PS);
	assert_true(pd_entry(&b, v + 2 * MiB) & PTE_PS);
	assert_false(pd_entry(&b, v + 4 * MiB) & PTE_PS);
	for (uint64_t off = 0; off < 6 * MiB; off += PAGE)
		assert_int_equal(translate(&b, v + off), 32 * MiB + off);
}

static void pool_too_small_is_enospc_and_changes_nothing(void **state)
{
	(void)state;
	uint64_t v = 0xffffff8000000000ull - 3 * MiB - PAGE; /* straddles 512 GiB */
	uint64_t p = 0x123456000ull;
	uint64_t size = 7 * MiB;
	uint64_t need = pt_pages_needed(v, p, size);

	assert_int_equal(need, 2 + 2 + 4);
	for (uint64_t short_by = 1; short_by <= need; short_by++) {
		struct pt_builder b = fresh(PT_ROOT_PAGES + need - short_by);
		take_snapshot();
		assert_int_equal(pt_map(&b, v, p, size, 0), KS_ENOSPC);
		assert_unchanged(&b, 1);
	}
	struct pt_builder b = fresh(PT_ROOT_PAGES + need);
	assert_int_equal(pt_map(&b, v, p, size, 0), KS_OK);
	assert_int_equal(b.pool.used, b.pool.count);
	assert_int_equal(translate(&b, v + size - 1), p + size - 1);
}

/* ---- Property test ---- */

#define ROUNDS 400

static void report(uint64_t seed, int round, const char *what, uint64_t virt)
{
	print_error("pagetable property test failed (%s at 0x%" PRIx64 ") in round %d; "
		    "reproduce with PAGETABLE_SEED=0x%" PRIx64 "\n",
		    what, virt, round, seed);
}

struct mapping {
	uint64_t virt, phys, size, flags;
};

/* A random frame for m, half the time at m.virt's offset in 2 MiB; random leaf flags. */
static void pick_phys(uint64_t *s, struct mapping *m)
{
	uint64_t limit = rng_below(s, 2) ? 4 * GiB : PT_PHYS_LIMIT;
	if (rng_below(s, 2)) /* same offset in 2 MiB: 2 MiB pages where the range allows */
		m->phys = (rng_below(s, (limit - m->size) >> 21) << 21) | (m->virt & (2 * MiB - 1));
	else
		m->phys = rng_below(s, (limit - m->size) >> 12) << 12;
	m->flags = rng_next(s) & (PTE_WRITABLE | PTE_GLOBAL | PTE_NX);
}

/* A random upper-half range, often near a 1 GiB or 512 GiB boundary or the very top. */
static struct mapping random_mapping(uint64_t *s)
{
	struct mapping m;
	uint64_t r = rng_below(s, 32);

	if (r == 0)
		m.size = (1 + rng_below(s, 64)) * 2 * MiB + rng_below(s, 512) * PAGE;
	else if (r < 8)
		m.size = (1 + rng_below(s, 8192)) * PAGE;
	else
		m.size = (1 + rng_below(s, 1024)) * PAGE;

	uint64_t span = 0x7fffffffffffull; /* the upper half's low 47 bits */
	switch (rng_below(s, 4)) {
	case 0: /* just below a 512 GiB boundary */
		m.virt = UPPER_HALF + (1 + rng_below(s, 255)) * PT_SIZE_512G;
		m.virt -= rng_below(s, 1024) * PAGE;
		break;
	case 1: /* just below a 1 GiB boundary */
		m.virt = UPPER_HALF + (1 + rng_below(s, span >> 30)) * GiB;
		m.virt -= rng_below(s, 1024) * PAGE;
		break;
	case 2: /* ending exactly at 2^64 */
		m.virt = 0 - m.size;
		break;
	default:
		m.virt = UPPER_HALF + (rng_next(s) & span & ~(PAGE - 1));
		break;
	}
	if (m.size - 1 > UINT64_MAX - m.virt)
		m.virt = 0 - m.size;
	pick_phys(s, &m);
	return m;
}

/* Would this page of m be inside a 2 MiB page? Only when its whole 2 MiB region is in m. */
static bool expect_2m(const struct mapping *m, uint64_t virt)
{
	uint64_t region = virt & ~(2 * MiB - 1);

	return ((m->virt ^ m->phys) & (2 * MiB - 1)) == 0 && region >= m->virt &&
	       region + (2 * MiB - 1) <= m->virt + (m->size - 1);
}

/* Does m get at least one 2 MiB page? */
static bool has_2m_page(const struct mapping *m)
{
	uint64_t head = (0 - m->virt) & (2 * MiB - 1); /* bytes before the first 2 MiB boundary */

	return ((m->virt ^ m->phys) & (2 * MiB - 1)) == 0 && head < m->size &&
	       m->size - head >= 2 * MiB;
}

/* Every page of m, through pt_translate and the reference walk; false after a report. */
static bool check_mapping(const struct pt_builder *b, const struct mapping *m, uint64_t seed,
			  int round, uint64_t *s)
{
	for (uint64_t off = 0; off < m->size; off += PAGE) {
		uint64_t v = m->virt + off;
		uint64_t inner = rng_below(s, PAGE);
		uint64_t phys = 0;
		struct walk w;
		if (pt_translate(b, v + inner, &phys) != KS_OK || phys != m->phys + off + inner) {
			report(seed, round, "pt_translate", v + inner);
			return false;
		}
		if (!ref_walk(b, v, &w) || w.phys != m->phys + off) {
			report(seed, round, "reference walk", v);
			return false;
		}
		if (w.page_size != (expect_2m(m, v) ? 2 * MiB : PAGE)) {
			report(seed, round, "page size", v);
			return false;
		}
		if ((w.leaf & (PTE_WRITABLE | PTE_GLOBAL | PTE_NX)) != m->flags) {
			report(seed, round, "leaf flags", v);
			return false;
		}
	}
	return true;
}

static bool unmapped(const struct pt_builder *b, uint64_t virt)
{
	uint64_t phys;
	struct walk w;

	return pt_translate(b, virt, &phys) == KS_ENOENT && !ref_walk(b, virt, &w);
}

static void random_mappings_over_the_identity_map_agree_with_a_reference_walk(void **state)
{
	(void)state;
	uint64_t seed = property_seed();
	uint64_t s = seed;
	int with_2m = 0;

	for (int round = 0; round < ROUNDS; round++) {
		struct pt_builder b = identity_4g();
		struct mapping m = random_mapping(&s);

		/* Alone in its half of the PML4, a mapping takes exactly pt_pages_needed. */
		size_t before = b.pool.used;
		if (pt_map(&b, m.virt, m.phys, m.size, m.flags) != KS_OK ||
		    b.pool.used - before != pt_pages_needed(m.virt, m.phys, m.size)) {
			report(seed, round, "map or page count", m.virt);
			fail();
		}
		if (!check_mapping(&b, &m, seed, round, &s))
			fail();
		if (!unmapped(&b, m.virt - PAGE) ||
		    (m.virt + m.size != 0 && !unmapped(&b, m.virt + m.size))) {
			report(seed, round, "neighbour mapped", m.virt);
			fail();
		}
		with_2m += has_2m_page(&m);

		/* A second mapping just after the first shares its tables: no more than needed. */
		struct mapping n = random_mapping(&s);
		n.virt = m.virt + m.size + rng_below(&s, 4) * PAGE;
		if (n.virt >= m.virt && n.size - 1 <= UINT64_MAX - n.virt) {
			pick_phys(&s, &n);
			before = b.pool.used;
			if (pt_map(&b, n.virt, n.phys, n.size, n.flags) != KS_OK ||
			    b.pool.used - before > pt_pages_needed(n.virt, n.phys, n.size)) {
				report(seed, round, "second map or page count", n.virt);
				fail();
			}
			if (!check_mapping(&b, &n, seed, round, &s) ||
			    !check_mapping(&b, &m, seed, round, &s))
				fail();
		}

		/* A conflicting remap of one page is refused and writes nothing. */
		uint64_t off = rng_below(&s, m.size >> 12) << 12;
		size_t used = b.pool.used;
		take_snapshot();
		if (pt_map(&b, m.virt + off, (m.phys + off) ^ PAGE, PAGE, m.flags) != KS_EINVAL) {
			report(seed, round, "conflicting remap accepted", m.virt + off);
			fail();
		}
		assert_unchanged(&b, used);

		/* The identity map is untouched. */
		for (int i = 0; i < 16; i++) {
			uint64_t v = rng_below(&s, 4 * GiB);
			if (translate(&b, v) != v) {
				report(seed, round, "identity map", v);
				fail();
			}
		}
	}
	/* Guard the generator: some rounds must exercise 2 MiB pages. */
	assert_true(with_2m > ROUNDS / 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(identity_map_of_4_gib_takes_one_pml4_one_pdpt_and_four_pds),
		cmocka_unit_test(kernel_at_random_4k_bases_maps_every_page_and_no_neighbour),
		cmocka_unit_test(two_mib_pages_go_where_virt_and_phys_are_both_aligned),
		cmocka_unit_test(mapping_straddling_a_1_gib_boundary_uses_two_pds),
		cmocka_unit_test(mapping_straddling_a_512_gib_boundary_uses_two_pdpts),
		cmocka_unit_test(mapping_may_end_exactly_at_the_top_of_the_address_space),
		cmocka_unit_test(bad_ranges_are_einval),
		cmocka_unit_test(init_rejects_unaligned_or_empty_pools),
		cmocka_unit_test(remapping_to_a_different_target_is_einval_and_changes_nothing),
		cmocka_unit_test(mapping_the_same_translation_again_is_accepted_and_takes_nothing),
		cmocka_unit_test(pool_too_small_is_enospc_and_changes_nothing),
		cmocka_unit_test(random_mappings_over_the_identity_map_agree_with_a_reference_walk),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
