/*
 * Unit tests for boot/multiboot1.c and boot/bootenv.c: Multiboot 0.6.96 boot information, served
 * from a buffer that stands in for physical memory, parsed into a struct boot_env.
 */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "boot/bootenv.h"
#include "boot/multiboot1.h"
#include "lib/errors.h"
#include "tests/unit/support/fake_memory.h"

/*
 * Fake physical memory: MEM_SIZE bytes at MEM_BASE, nothing readable elsewhere. The info
 * structure sits at MEM_BASE; everything it points to is placed after it.
 *
 *   0x10000        0x10080                                         0x10000 + MEM_SIZE
 *   | info (116)   | mmap, module list, strings (bump allocated) ...  |
 */
#define MEM_BASE      0x10000u
#define MEM_SIZE      0x4000u
#define INFO_ADDR     MEM_BASE
#define INFO_SIZE     116u /* Multiboot 0.6.96 3.3: flags .. color_info */
#define INFO_RESERVED 128u

/* Multiboot 0.6.96 section 3.3: flag bits and field offsets in the info structure. */
#define MBI_FLAG_MEM	 (1u << 0)
#define MBI_FLAG_CMDLINE (1u << 2)
#define MBI_FLAG_MODS	 (1u << 3)
#define MBI_FLAG_MMAP	 (1u << 6)
#define MBI_FLAG_LOADER	 (1u << 9)
#define MBI_MEM_LOWER	 4
#define MBI_MEM_UPPER	 8
#define MBI_CMDLINE	 16
#define MBI_MODS_COUNT	 20
#define MBI_MODS_ADDR	 24
#define MBI_MMAP_LENGTH	 44
#define MBI_MMAP_ADDR	 48
#define MBI_LOADER_NAME	 64

#define MMAP_ENTRY_SIZE	  20u /* the 'size' field's usual value: base, length, type */
#define MODULE_ENTRY_SIZE 16u
#define UNREADABLE	  0x5000000u /* far from the fake memory */
#define ONE_MIB		  0x100000u

struct fake {
	uint8_t mem[MEM_SIZE];
	uint32_t next; /* bump allocator, offset into mem */
	struct fake_memory phys; /* reads mem */
	struct boot_env env;
};

struct mmap_spec {
	uint64_t base, length;
	uint32_t type;
};

struct module_spec {
	uint32_t start, end;
	const char *cmdline; /* or NULL */
};

static int setup(void **state)
{
	struct fake *f = calloc(1, sizeof(*f));
	if (!f)
		return -1;
	f->next = INFO_RESERVED;
	fake_memory_init(&f->phys, f->mem, MEM_BASE, MEM_SIZE);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fake *f = *state;
	fake_memory_free(&f->phys);
	free(f);
	return 0;
}

static void put32(struct fake *f, uint32_t addr, uint32_t v)
{
	assert_true(addr >= MEM_BASE && addr - MEM_BASE + 4 <= MEM_SIZE);
	for (int i = 0; i < 4; i++)
		f->mem[addr - MEM_BASE + i] = (uint8_t)(v >> (8 * i));
}

static void put64(struct fake *f, uint32_t addr, uint64_t v)
{
	put32(f, addr, (uint32_t)v);
	put32(f, addr + 4, (uint32_t)(v >> 32));
}

static void set_info(struct fake *f, uint32_t offset, uint32_t v)
{
	put32(f, INFO_ADDR + offset, v);
}

/* Reserve len bytes (4-byte aligned) and return their physical address. */
static uint32_t reserve(struct fake *f, uint32_t len)
{
	f->next = (f->next + 3u) & ~3u;
	assert_true(len <= MEM_SIZE - f->next);
	uint32_t addr = MEM_BASE + f->next;
	f->next += len;
	return addr;
}

static uint32_t place_string(struct fake *f, const char *s)
{
	uint32_t len = (uint32_t)strlen(s) + 1;
	uint32_t addr = reserve(f, len);
	memcpy(f->mem + (addr - MEM_BASE), s, len);
	return addr;
}

/* A memory map whose entries each carry 'size' = entry_size (>= 20; extra bytes are 0xee). */
static uint32_t place_mmap(struct fake *f, const struct mmap_spec *e, uint32_t n,
			   uint32_t entry_size)
{
	uint32_t addr = reserve(f, n * (entry_size + 4));
	memset(f->mem + (addr - MEM_BASE), 0xee, n * (entry_size + 4));
	for (uint32_t i = 0; i < n; i++) {
		uint32_t p = addr + i * (entry_size + 4);
		put32(f, p, entry_size);
		put64(f, p + 4, e[i].base);
		put64(f, p + 12, e[i].length);
		put32(f, p + 20, e[i].type);
	}
	return addr;
}

static void use_mmap(struct fake *f, uint32_t addr, uint32_t length)
{
	set_info(f, MBI_MMAP_ADDR, addr);
	set_info(f, MBI_MMAP_LENGTH, length);
}

/* The module list; each module's command line is placed too. Returns the list's address. */
static uint32_t place_modules(struct fake *f, const struct module_spec *m, uint32_t n)
{
	uint32_t strings[BOOTENV_MODULES_MAX + 8] = {0};
	assert_true(n <= sizeof(strings) / sizeof(strings[0]));
	for (uint32_t i = 0; i < n; i++)
		strings[i] = m[i].cmdline ? place_string(f, m[i].cmdline) : 0;
	uint32_t addr = reserve(f, n * MODULE_ENTRY_SIZE);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t p = addr + i * MODULE_ENTRY_SIZE;
		put32(f, p, m[i].start);
		put32(f, p + 4, m[i].end);
		put32(f, p + 8, strings[i]);
		put32(f, p + 12, 0);
	}
	return addr;
}

static int parse(struct fake *f)
{
	return multiboot1_parse(&f->phys.reader, INFO_ADDR, &f->env);
}

static void assert_avoided(const struct boot_env *env, uint64_t start, uint64_t length)
{
	for (uint32_t i = 0; i < env->avoid_count; i++)
		if (env->avoid[i].start == start && env->avoid[i].length == length)
			return;
	fail_msg("range [%#llx, +%#llx) is not in the avoid list", (unsigned long long)start,
		 (unsigned long long)length);
}

static void assert_map_entry(const struct boot_env *env, uint32_t i, const struct mmap_spec *e)
{
	assert_true(i < env->map_count);
	assert_int_equal(env->map[i].base, e->base);
	assert_int_equal(env->map[i].length, e->length);
	assert_int_equal(env->map[i].type, e->type);
}

/* ---- well-formed information ---- */

static const struct mmap_spec qemu_like_map[] = {
	{0x0, 0x9fc00, KSLIDE_MEM_USABLE},
	{0x9fc00, 0x400, KSLIDE_MEM_RESERVED},
	{0xf0000, 0x10000, KSLIDE_MEM_RESERVED},
	{0x100000, 0x7ee0000, KSLIDE_MEM_USABLE},
	{0xfffc0000, 0x40000, KSLIDE_MEM_RESERVED},
	{0x100000000ull, 0x140000000ull, KSLIDE_MEM_USABLE}, /* 4 GiB .. 9 GiB */
	{0xfd00000000ull, 0x300000000ull, KSLIDE_MEM_RESERVED},
};
#define QEMU_LIKE_MAP_LEN (sizeof(qemu_like_map) / sizeof(qemu_like_map[0]))

static void test_full_info_fills_map_modules_strings_and_avoid_list(void **state)
{
	struct fake *f = *state;
	static const struct module_spec mods[] = {
		{0x200000, 0x201000, "initrd.img root=/dev/ram0"},
		{0x300000, 0x300123, "extra"},
	};
	uint32_t mmap = place_mmap(f, qemu_like_map, QEMU_LIKE_MAP_LEN, MMAP_ENTRY_SIZE);
	uint32_t mmap_len = QEMU_LIKE_MAP_LEN * (MMAP_ENTRY_SIZE + 4);
	uint32_t cmdline = place_string(f, "console=ttyS0 kaslr");
	uint32_t mod_list = place_modules(f, mods, 2);
	uint32_t loader = place_string(f, "qemu");
	set_info(f, 0,
		 MBI_FLAG_MEM | MBI_FLAG_CMDLINE | MBI_FLAG_MODS | MBI_FLAG_MMAP | MBI_FLAG_LOADER);
	set_info(f, MBI_MEM_LOWER, 639);
	set_info(f, MBI_MEM_UPPER, 130048); /* ignored: the map is authoritative */
	set_info(f, MBI_CMDLINE, cmdline);
	set_info(f, MBI_MODS_COUNT, 2);
	set_info(f, MBI_MODS_ADDR, mod_list);
	use_mmap(f, mmap, mmap_len);
	set_info(f, MBI_LOADER_NAME, loader);

	assert_int_equal(parse(f), KS_OK);
	const struct boot_env *env = &f->env;

	assert_int_equal(env->map_count, QEMU_LIKE_MAP_LEN);
	assert_int_equal(env->map_dropped, 0);
	for (uint32_t i = 0; i < QEMU_LIKE_MAP_LEN; i++)
		assert_map_entry(env, i, &qemu_like_map[i]);

	assert_non_null(env->cmdline);
	assert_string_equal(env->cmdline, "console=ttyS0 kaslr");
	assert_int_equal(env->cmdline_phys, cmdline);
	assert_non_null(env->loader_name);
	assert_string_equal(env->loader_name, "qemu");

	assert_int_equal(env->module_count, 2);
	assert_int_equal(env->modules[0].start, 0x200000);
	assert_int_equal(env->modules[0].end, 0x201000);
	assert_int_equal(env->modules[1].start, 0x300000);
	assert_int_equal(env->modules[1].end, 0x300123);
	assert_int_not_equal(env->modules[0].cmdline, 0);
	assert_int_not_equal(env->modules[1].cmdline, 0);
	assert_string_equal((const char *)f->mem + (env->modules[0].cmdline - MEM_BASE),
			    "initrd.img root=/dev/ram0");
	assert_string_equal((const char *)f->mem + (env->modules[1].cmdline - MEM_BASE), "extra");

	/* Everything the loader handed over, and nothing else. */
	assert_int_equal(env->avoid_count, 9);
	assert_avoided(env, INFO_ADDR, INFO_SIZE);
	assert_avoided(env, mmap, mmap_len);
	assert_avoided(env, mod_list, 2 * MODULE_ENTRY_SIZE);
	assert_avoided(env, 0x200000, 0x1000);
	assert_avoided(env, 0x300000, 0x123);
	assert_avoided(env, env->modules[0].cmdline, strlen("initrd.img root=/dev/ram0") + 1);
	assert_avoided(env, env->modules[1].cmdline, strlen("extra") + 1);
	assert_avoided(env, cmdline, strlen("console=ttyS0 kaslr") + 1);
	assert_avoided(env, loader, strlen("qemu") + 1);
}

static void test_mmap_entries_step_by_their_own_size_field(void **state)
{
	struct fake *f = *state;
	/* ACPI 3.0 style 24-byte entries: the extra attribute word must be skipped. */
	uint32_t mmap = place_mmap(f, qemu_like_map, 3, 24);
	set_info(f, 0, MBI_FLAG_MMAP);
	use_mmap(f, mmap, 3 * (24 + 4));

	assert_int_equal(parse(f), KS_OK);
	assert_int_equal(f->env.map_count, 3);
	for (uint32_t i = 0; i < 3; i++)
		assert_map_entry(&f->env, i, &qemu_like_map[i]);
	assert_avoided(&f->env, mmap, 3 * (24 + 4));
}

static void test_module_without_cmdline_has_none(void **state)
{
	struct fake *f = *state;
	static const struct module_spec mods[] = {{0x200000, 0x200800, NULL}};
	uint32_t list = place_modules(f, mods, 1);
	set_info(f, 0, MBI_FLAG_MODS);
	set_info(f, MBI_MODS_COUNT, 1);
	set_info(f, MBI_MODS_ADDR, list);

	assert_int_equal(parse(f), KS_OK);
	assert_int_equal(f->env.module_count, 1);
	assert_int_equal(f->env.modules[0].cmdline, 0);
	assert_int_equal(f->env.avoid_count, 3); /* info, list, module */
	assert_avoided(&f->env, 0x200000, 0x800);
}

static void test_no_modules_need_no_module_list(void **state)
{
	struct fake *f = *state;
	/* With mods_count 0 the list address means nothing; 0 is what a loader may leave. */
	set_info(f, 0, MBI_FLAG_MODS);
	set_info(f, MBI_MODS_COUNT, 0);
	set_info(f, MBI_MODS_ADDR, 0);

	assert_int_equal(parse(f), KS_OK);
	assert_int_equal(f->env.module_count, 0);
	assert_int_equal(f->env.avoid_count, 1);
}

static void test_exactly_the_module_limit_is_accepted(void **state)
{
	struct fake *f = *state;
	struct module_spec mods[BOOTENV_MODULES_MAX];
	for (uint32_t i = 0; i < BOOTENV_MODULES_MAX; i++)
		mods[i] = (struct module_spec){0x400000 + i * 0x1000, 0x400000 + i * 0x1000 + 0x10,
					       "m"};
	uint32_t list = place_modules(f, mods, BOOTENV_MODULES_MAX);
	set_info(f, 0, MBI_FLAG_MODS);
	set_info(f, MBI_MODS_COUNT, BOOTENV_MODULES_MAX);
	set_info(f, MBI_MODS_ADDR, list);

	assert_int_equal(parse(f), KS_OK);
	assert_int_equal(f->env.module_count, BOOTENV_MODULES_MAX);
	assert_int_equal(f->env.modules[BOOTENV_MODULES_MAX - 1].start,
			 0x400000 + (BOOTENV_MODULES_MAX - 1) * 0x1000);
	/* info + list + (module + string) per module */
	assert_int_equal(f->env.avoid_count, 2 + 2 * BOOTENV_MODULES_MAX);
}

static void test_mem_upper_alone_gives_one_range_from_1mib(void **state)
{
	struct fake *f = *state;
	set_info(f, 0, MBI_FLAG_MEM);
	set_info(f, MBI_MEM_LOWER, 639);
	set_info(f, MBI_MEM_UPPER, 0x7fc00); /* KiB above 1 MiB */

	assert_int_equal(parse(f), KS_OK);
	assert_int_equal(f->env.map_count, 1);
	const struct mmap_spec expected = {ONE_MIB, 0x7fc00ull * 1024, KSLIDE_MEM_USABLE};
	assert_map_entry(&f->env, 0, &expected);
	assert_int_equal(f->env.avoid_count, 1);
	assert_avoided(&f->env, INFO_ADDR, INFO_SIZE);
}

static void test_mem_upper_of_4gib_does_not_wrap(void **state)
{
	struct fake *f = *state;
	set_info(f, 0, MBI_FLAG_MEM);
	set_info(f, MBI_MEM_UPPER, UINT32_MAX);

	assert_int_equal(parse(f), KS_OK);
	assert_int_equal(f->env.map_count, 1);
	assert_int_equal(f->env.map[0].length, (uint64_t)UINT32_MAX * 1024);
}

static void test_flags_zero_yields_nothing(void **state)
{
	struct fake *f = *state;
	/* Garbage in every field: none of it may be looked at. */
	memset(f->mem, 0xa5, INFO_SIZE);
	set_info(f, 0, 0);

	assert_int_equal(parse(f), KS_OK);
	assert_int_equal(f->env.map_count, 0);
	assert_int_equal(f->env.map_dropped, 0);
	assert_int_equal(f->env.module_count, 0);
	assert_null(f->env.cmdline);
	assert_int_equal(f->env.cmdline_phys, 0);
	assert_null(f->env.loader_name);
	assert_int_equal(f->env.avoid_count, 1); /* only the info structure itself */
	assert_avoided(&f->env, INFO_ADDR, INFO_SIZE);
}

static void test_map_beyond_the_table_keeps_the_first_and_counts_the_rest(void **state)
{
	struct fake *f = *state;
	enum { EXTRA = 5, TOTAL = BOOTENV_MAP_MAX + EXTRA };
	static struct mmap_spec entries[TOTAL];
	for (uint32_t i = 0; i < TOTAL; i++)
		entries[i] = (struct mmap_spec){(uint64_t)i << 20, 0x1000 + i,
						i % 2 ? KSLIDE_MEM_RESERVED : KSLIDE_MEM_USABLE};
	uint32_t mmap = place_mmap(f, entries, TOTAL, MMAP_ENTRY_SIZE);
	set_info(f, 0, MBI_FLAG_MMAP);
	use_mmap(f, mmap, TOTAL * (MMAP_ENTRY_SIZE + 4));

	assert_int_equal(parse(f), KS_OK);
	assert_int_equal(f->env.map_count, BOOTENV_MAP_MAX);
	assert_int_equal(f->env.map_dropped, EXTRA);
	assert_map_entry(&f->env, 0, &entries[0]);
	assert_map_entry(&f->env, BOOTENV_MAP_MAX - 1, &entries[BOOTENV_MAP_MAX - 1]);
	assert_avoided(&f->env, mmap, TOTAL * (MMAP_ENTRY_SIZE + 4));
}

/* ---- malformed information ---- */

static void test_unreadable_info_is_a_format_error(void **state)
{
	struct fake *f = *state;
	assert_int_equal(multiboot1_parse(&f->phys.reader, UNREADABLE, &f->env), KS_EFORMAT);
	assert_int_equal(multiboot1_parse(&f->phys.reader, MEM_BASE - 4, &f->env), KS_EFORMAT);
	/* Starts inside memory, but the fields we read run off its end. */
	assert_int_equal(multiboot1_parse(&f->phys.reader, MEM_BASE + MEM_SIZE - 32, &f->env),
			 KS_EFORMAT);
}

static void test_mmap_entry_smaller_than_20_bytes_is_a_format_error(void **state)
{
	struct fake *f = *state;
	uint32_t mmap = place_mmap(f, qemu_like_map, 2, MMAP_ENTRY_SIZE);
	put32(f, mmap + MMAP_ENTRY_SIZE + 4, 16); /* second entry claims 16 bytes */
	set_info(f, 0, MBI_FLAG_MMAP);
	use_mmap(f, mmap, 2 * (MMAP_ENTRY_SIZE + 4));
	assert_int_equal(parse(f), KS_EFORMAT);

	/* A lone 16-byte entry that fits its mmap_length exactly is still too short. */
	memset(&f->env, 0, sizeof(f->env));
	put32(f, mmap, 16);
	use_mmap(f, mmap, 16 + 4);
	assert_int_equal(parse(f), KS_EFORMAT);
}

static void test_mmap_entry_of_size_zero_is_a_format_error(void **state)
{
	struct fake *f = *state;
	uint32_t mmap = place_mmap(f, qemu_like_map, 2, MMAP_ENTRY_SIZE);
	put32(f, mmap, 0); /* would loop forever on 4-byte steps if taken at face value */
	set_info(f, 0, MBI_FLAG_MMAP);
	use_mmap(f, mmap, 2 * (MMAP_ENTRY_SIZE + 4));
	assert_int_equal(parse(f), KS_EFORMAT);
}

static void test_mmap_entry_running_past_mmap_length_is_a_format_error(void **state)
{
	struct fake *f = *state;
	uint32_t mmap = place_mmap(f, qemu_like_map, 2, MMAP_ENTRY_SIZE);
	put32(f, mmap + MMAP_ENTRY_SIZE + 4, MMAP_ENTRY_SIZE + 4); /* 4 bytes too long */
	set_info(f, 0, MBI_FLAG_MMAP);
	use_mmap(f, mmap, 2 * (MMAP_ENTRY_SIZE + 4));
	assert_int_equal(parse(f), KS_EFORMAT);
}

static void test_mmap_length_cutting_an_entry_is_a_format_error(void **state)
{
	struct fake *f = *state;
	uint32_t mmap = place_mmap(f, qemu_like_map, 2, MMAP_ENTRY_SIZE);
	set_info(f, 0, MBI_FLAG_MMAP);
	use_mmap(f, mmap, 2 * (MMAP_ENTRY_SIZE + 4) - 1); /* last entry one byte short */
	assert_int_equal(parse(f), KS_EFORMAT);
	memset(&f->env, 0, sizeof(f->env));
	use_mmap(f, mmap, MMAP_ENTRY_SIZE + 4 + 2); /* a stray half size field */
	assert_int_equal(parse(f), KS_EFORMAT);
}

static void test_unreadable_mmap_is_a_format_error(void **state)
{
	struct fake *f = *state;
	set_info(f, 0, MBI_FLAG_MMAP);
	use_mmap(f, UNREADABLE, 2 * (MMAP_ENTRY_SIZE + 4));
	assert_int_equal(parse(f), KS_EFORMAT);
	/* Starts in memory but runs off its end. */
	memset(&f->env, 0, sizeof(f->env));
	use_mmap(f, MEM_BASE + MEM_SIZE - (MMAP_ENTRY_SIZE + 4), 2 * (MMAP_ENTRY_SIZE + 4));
	assert_int_equal(parse(f), KS_EFORMAT);
}

static void test_unterminated_cmdline_is_a_format_error(void **state)
{
	struct fake *f = *state;
	/* The last 8 readable bytes, none of them NUL. */
	uint32_t cmdline = MEM_BASE + MEM_SIZE - 8;
	memset(f->mem + MEM_SIZE - 8, 'x', 8);
	set_info(f, 0, MBI_FLAG_CMDLINE);
	set_info(f, MBI_CMDLINE, cmdline);
	assert_int_equal(parse(f), KS_EFORMAT);
	assert_null(f->env.cmdline);
}

static void test_cmdline_ending_at_the_last_readable_byte_is_fine(void **state)
{
	struct fake *f = *state;
	uint32_t cmdline = MEM_BASE + MEM_SIZE - 8;
	memcpy(f->mem + MEM_SIZE - 8, "nokaslr", 8);
	set_info(f, 0, MBI_FLAG_CMDLINE);
	set_info(f, MBI_CMDLINE, cmdline);
	assert_int_equal(parse(f), KS_OK);
	assert_string_equal(f->env.cmdline, "nokaslr");
	assert_avoided(&f->env, cmdline, 8);
}

static void test_unreadable_strings_are_format_errors(void **state)
{
	struct fake *f = *state;
	set_info(f, 0, MBI_FLAG_LOADER);
	set_info(f, MBI_LOADER_NAME, UNREADABLE);
	assert_int_equal(parse(f), KS_EFORMAT);

	memset(&f->env, 0, sizeof(f->env));
	static const struct module_spec mods[] = {{0x200000, 0x201000, "x"}};
	uint32_t list = place_modules(f, mods, 1);
	put32(f, list + 8, UNREADABLE); /* the module's string */
	set_info(f, 0, MBI_FLAG_MODS);
	set_info(f, MBI_MODS_COUNT, 1);
	set_info(f, MBI_MODS_ADDR, list);
	assert_int_equal(parse(f), KS_EFORMAT);
}

static void test_module_ending_before_it_starts_is_a_format_error(void **state)
{
	struct fake *f = *state;
	static const struct module_spec mods[] = {
		{0x200000, 0x201000, "good"},
		{0x300000, 0x2fffff, "backwards"},
	};
	uint32_t list = place_modules(f, mods, 2);
	set_info(f, 0, MBI_FLAG_MODS);
	set_info(f, MBI_MODS_COUNT, 2);
	set_info(f, MBI_MODS_ADDR, list);
	assert_int_equal(parse(f), KS_EFORMAT);
}

static void test_unreadable_module_list_is_a_format_error(void **state)
{
	struct fake *f = *state;
	set_info(f, 0, MBI_FLAG_MODS);
	set_info(f, MBI_MODS_COUNT, 2);
	set_info(f, MBI_MODS_ADDR, UNREADABLE);
	assert_int_equal(parse(f), KS_EFORMAT);
}

static void test_more_modules_than_the_table_is_no_space(void **state)
{
	struct fake *f = *state;
	struct module_spec mods[BOOTENV_MODULES_MAX + 1];
	for (uint32_t i = 0; i <= BOOTENV_MODULES_MAX; i++)
		mods[i] = (struct module_spec){0x400000 + i * 0x1000, 0x400000 + i * 0x1000 + 0x10,
					       NULL};
	uint32_t list = place_modules(f, mods, BOOTENV_MODULES_MAX + 1);
	set_info(f, 0, MBI_FLAG_MODS);
	set_info(f, MBI_MODS_COUNT, BOOTENV_MODULES_MAX + 1);
	set_info(f, MBI_MODS_ADDR, list);
	assert_int_equal(parse(f), KS_ENOSPC);
	assert_int_equal(f->env.modules_given, BOOTENV_MODULES_MAX + 1); /* for the message */
}

static void test_bootenv_avoid_reports_a_full_table(void **state)
{
	struct fake *f = *state;
	for (uint32_t i = 0; i < BOOTENV_AVOID_MAX; i++)
		assert_int_equal(bootenv_avoid(&f->env, i * 0x1000ull, 0x1000), KS_OK);
	assert_int_equal(bootenv_avoid(&f->env, 0, 0), KS_OK); /* empty ranges take no slot */
	assert_int_equal(bootenv_avoid(&f->env, 0x1000000, 1), KS_ENOSPC);
	assert_int_equal(f->env.avoid_count, BOOTENV_AVOID_MAX);
}

/* ---- maps no QEMU produces: overlapping and absurd entries ---- */

#define KERNEL_SIZE 0x100000ull /* a 1 MiB kernel */
#define KERNEL_ALIGN 0x200000ull
#define LOW_BOUND 0x1000000ull    /* 16 MiB: the i386 phys_min */
#define HIGH_BOUND 0x37ffffffull  /* 896 MiB - 1: the i386 phys_max */

/* Firmware maps seen in the wild overlap, and a corrupt one can hold anything. */
static const struct mmap_spec odd_map[] = {
	{0x100000, 0x7f00000, KSLIDE_MEM_USABLE},		   /* 1 .. 128 MiB */
	{0x2000000, 0x100000, KSLIDE_MEM_RESERVED},		   /* inside the usable range */
	{0x3000000, 0x200000, KSLIDE_MEM_BAD},		   /* bad RAM inside it too */
	{0x6000000, 0x1000000, 99},				   /* a type nobody defined */
	{0x100000000ull, 0xffffffffffffffffull, KSLIDE_MEM_USABLE}, /* runs past 2^64 */
	{0x5000000, 0, KSLIDE_MEM_USABLE},			   /* empty */
};
#define ODD_MAP_LEN (sizeof(odd_map) / sizeof(odd_map[0]))

/* [a, a + n) meets some odd_map entry that is not usable RAM. */
static bool meets_unusable(uint64_t a, uint64_t n)
{
	for (size_t i = 0; i < ODD_MAP_LEN; i++)
		if (odd_map[i].type != KSLIDE_MEM_USABLE && odd_map[i].length &&
		    a < odd_map[i].base + odd_map[i].length && odd_map[i].base < a + n)
			return true;
	return false;
}

static void test_overlapping_and_absurd_entries_are_kept_and_never_hold_a_slot(void **state)
{
	struct fake *f = *state;
	uint32_t mmap = place_mmap(f, odd_map, ODD_MAP_LEN, MMAP_ENTRY_SIZE);
	set_info(f, 0, MBI_FLAG_MMAP);
	use_mmap(f, mmap, ODD_MAP_LEN * (MMAP_ENTRY_SIZE + 4));

	/* The parser passes the map on as given; judging it is the policy's job. */
	assert_int_equal(parse(f), KS_OK);
	assert_int_equal(f->env.map_count, ODD_MAP_LEN);
	for (uint32_t i = 0; i < ODD_MAP_LEN; i++)
		assert_map_entry(&f->env, i, &odd_map[i]);

	/* The policy the stub needs: usable entries, minus every other entry and the loader's
	 * structures; then no slot may touch reserved, bad or unknown memory. */
	struct mem_range usable[ODD_MAP_LEN], avoid[ODD_MAP_LEN + BOOTENV_AVOID_MAX];
	size_t nu = 0, na = 0;
	for (uint32_t i = 0; i < f->env.map_count; i++) {
		struct mem_range r = {f->env.map[i].base, f->env.map[i].length};
		if (f->env.map[i].type == KSLIDE_MEM_USABLE)
			usable[nu++] = r;
		else
			avoid[na++] = r;
	}
	for (uint32_t i = 0; i < f->env.avoid_count; i++)
		avoid[na++] = f->env.avoid[i];
	struct slot_request req = {usable, nu, avoid, na, KERNEL_SIZE, KERNEL_ALIGN, LOW_BOUND,
				   HIGH_BOUND};
	struct span work[SLOT_WORK_SPANS(ODD_MAP_LEN, ODD_MAP_LEN + BOOTENV_AVOID_MAX)];
	struct slot_map map;
	assert_int_equal(slot_map_build(&map, &req, work, sizeof(work) / sizeof(work[0])), KS_OK);

	/* Oracle: every aligned base in the bounds, judged against the map directly. Usable RAM
	 * in the bounds is 1 .. 128 MiB only (the 2^64 entry starts at 4 GiB). */
	uint64_t expect = 0;
	for (uint64_t a = LOW_BOUND; a + KERNEL_SIZE - 1 <= HIGH_BOUND; a += KERNEL_ALIGN)
		if (a + KERNEL_SIZE <= 0x8000000 && !meets_unusable(a, KERNEL_SIZE))
			expect++;
	assert_int_equal(map.total, expect);
	assert_true(expect > 0);
	for (uint64_t i = 0; i < map.total; i++) {
		uint64_t a;
		assert_int_equal(slot_map_address(&map, i, &a), KS_OK);
		assert_false(meets_unusable(a, KERNEL_SIZE));
	}
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_full_info_fills_map_modules_strings_and_avoid_list),
		T(test_mmap_entries_step_by_their_own_size_field),
		T(test_module_without_cmdline_has_none),
		T(test_no_modules_need_no_module_list),
		T(test_exactly_the_module_limit_is_accepted),
		T(test_mem_upper_alone_gives_one_range_from_1mib),
		T(test_mem_upper_of_4gib_does_not_wrap),
		T(test_flags_zero_yields_nothing),
		T(test_map_beyond_the_table_keeps_the_first_and_counts_the_rest),
		T(test_unreadable_info_is_a_format_error),
		T(test_mmap_entry_smaller_than_20_bytes_is_a_format_error),
		T(test_mmap_entry_of_size_zero_is_a_format_error),
		T(test_mmap_entry_running_past_mmap_length_is_a_format_error),
		T(test_mmap_length_cutting_an_entry_is_a_format_error),
		T(test_unreadable_mmap_is_a_format_error),
		T(test_unterminated_cmdline_is_a_format_error),
		T(test_cmdline_ending_at_the_last_readable_byte_is_fine),
		T(test_unreadable_strings_are_format_errors),
		T(test_module_ending_before_it_starts_is_a_format_error),
		T(test_unreadable_module_list_is_a_format_error),
		T(test_more_modules_than_the_table_is_no_space),
		T(test_bootenv_avoid_reports_a_full_table),
		T(test_overlapping_and_absurd_entries_are_kept_and_never_hold_a_slot),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
