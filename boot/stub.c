/*
 * The stub's policy: check the image, learn the machine from the boot loader, gather entropy,
 * pick a base uniformly among every slot, move the kernel there, relocate it, describe the
 * result in boot_info and enter the kernel the way its handoff says. On x86-64 the virtual
 * base is a second, independent draw over the window the image declares (virt_min..virt_max);
 * on i386 it follows the physical base.
 *
 *   0        1 MiB                     16 MiB (phys_min)                    phys_max
 *   |  BIOS  | stub | payload | relocs |......... slots, each `align` apart .........|
 *            ^ the boot loader put us here       ^ the kernel is copied to one of them
 *
 * Memory the loader handed over (info structure, memory map, command line, modules) and the
 * whole packed image are avoided, so the copy never overwrites its own source.
 *
 * The ways in and out are tables (boot/protocols.c): the loader is chosen by the magic the
 * entry code was given, the handoff by the image header; this file only chooses among them.
 *
 * Two levels of failure, as in Linux: warn() and carry on without randomization when that is
 * still safe, error() and refuse to start the kernel when an invariant is broken.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch/x86/arch_ops.h"
#include "boot/bootenv.h"
#include "boot/console.h"
#include "boot/handoff.h"
#include "boot/loader.h"
#include "boot/mapping.h"
#include "boot/placement.h"
#include "boot/random_dump.h"
#include "boot/stub.h"
#include "include/kslide/image.h"
#include "lib/cmdline.h"
#include "lib/cpu.h"
#include "lib/entropy.h"
#include "lib/errors.h"
#include "lib/image.h"
#include "lib/log2.h"
#include "lib/lz4.h"
#include "lib/pool.h"
#include "lib/reloc.h"
#include "lib/reloc_schedule.h"
#include "lib/slots.h"
#include "lib/string.h"
#include "lib/uniform.h"
#include "lib/word_sums.h"
#include "lib/zstd.h"

#define ENTROPY_OPTION "kslide.entropy" /* restrict sources, e.g. kslide.entropy=rdtsc,pit */
#define OPTION_MAX 64
#define ENTROPY_NONE "none" /* kslide.entropy=none: no source, a predictable base */
#ifdef __x86_64__
#define STUB_ARCH KSLIDE_ARCH_X86_64
#else
#define STUB_ARCH KSLIDE_ARCH_I386
#endif
#define ADDRESS_SPACE_END 0x100000000ull /* what the stub reaches before the handoff */

/* Filled in by kslide-pack; the stub reads it but never trusts it unverified. */
__attribute__((section(".kslide_header"), used)) struct kslide_image_header image_header = {
	.magic = KSLIDE_IMAGE_MAGIC,
};

extern uint8_t _image_start[];

struct kslide_bootinfo boot_info;

static struct boot_env env;
static struct entry_regs entry_regs;
static struct mem_range usable[BOOTENV_MAP_MAX];
/* Everything the loader handed over, then every map entry that is not usable RAM. */
static struct mem_range avoided[BOOTENV_AVOID_MAX + BOOTENV_MAP_MAX];
static struct span slot_work[SLOT_WORK_SPANS(BOOTENV_MAP_MAX, BOOTENV_AVOID_MAX + BOOTENV_MAP_MAX)];

struct virt_choice {
	uint64_t base;
	uint64_t slots; /* 0 when the virtual base was not drawn */
};

static const struct entry_regs *error(const char *what, const char *detail)
{
	console_print("kslide: error: %s: %s; not starting the kernel\n", what, detail);
	return NULL;
}

static void warn(const char *what)
{
	console_print("kslide: warning: %s\n", what);
}

static const void *identity_read(void *ctx, uint64_t addr, uint64_t len)
{
	(void)ctx;
	if (addr == 0 || addr > ADDRESS_SPACE_END || len > ADDRESS_SPACE_END - addr)
		return NULL;
	return (const void *)(uintptr_t)addr;
}

static const struct phys_reader physical_memory = { identity_read, NULL };

static uint32_t cmdline_length(void)
{
	return env.cmdline ? (uint32_t)strlen(env.cmdline) : 0;
}

static bool has_flag(const char *flag)
{
	return cmdline_has_flag(env.cmdline, cmdline_length(), flag);
}

static bool randomization_wanted(void)
{
	if (image_header.flags & KSLIDE_IMAGE_NOKASLR_DEFAULT)
		return has_flag("kaslr") && !has_flag("nokaslr");
	return !has_flag("nokaslr");
}

/* word[0, len) as a NUL-terminated string in out[cap], cut short with "..." if it must be. */
static const char *word_text(const char *word, size_t len, char *out, size_t cap)
{
	static const char cut[] = "...";
	size_t keep = len < cap ? len : cap - sizeof(cut);
	memcpy(out, word, keep);
	if (keep < len)
		memcpy(out + keep, cut, sizeof(cut));
	else
		out[keep] = '\0';
	return out;
}

static bool word_equals(const char *word, size_t len, const char *text)
{
	return len == strlen(text) && memcmp(word, text, len) == 0;
}

/* A kslide.entropy= item that names no source is said, not silently dropped. */
static void warn_unknown_sources(const char *list)
{
	size_t pos = 0, len;
	const char *item;
	while (cmdline_list_next(list, &pos, &item, &len)) {
		bool known = word_equals(item, len, ENTROPY_NONE);
		for (int s = 0; s < ENTROPY_SOURCE_COUNT; s++)
			known |= word_equals(item, len, entropy_source_name((enum entropy_source)s));
		char text[OPTION_MAX];
		if (known)
			continue;
		console_print("kslide: warning: %s= names \"%s\", no source this stub knows (",
			      ENTROPY_OPTION, word_text(item, len, text, sizeof(text)));
		for (int s = 0; s < ENTROPY_SOURCE_COUNT; s++)
			console_print("%s, ", entropy_source_name((enum entropy_source)s));
		console_print("or %s); ignored\n", ENTROPY_NONE);
	}
}

/*
 * The stub takes every "kslide." word off the kernel's command line (cmdline_is_stub_word),
 * so one it does not know (a typo: kslide.entopy=pit) would vanish without a trace.
 */
static void warn_unknown_words(void)
{
	static const char *const flags[] = { "nokaslr", "kaslr" };
	static const char *const keys[] = { ENTROPY_OPTION "=", RANDOM_OPTION "=",
					    PLACEMENT_PHYS_OPTION "=", PLACEMENT_VIRT_OPTION "=" };
	size_t pos = 0, len;
	const char *word;
	while (cmdline_next_stub_word(env.cmdline, cmdline_length(), &pos, &word, &len)) {
		bool known = false;
		for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
			known |= word_equals(word, len, flags[i]);
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			known |= len >= strlen(keys[i]) && memcmp(word, keys[i], strlen(keys[i])) == 0;
		char text[OPTION_MAX];
		if (!known)
			console_print("kslide: warning: \"%s\" ignored: not an option of the stub "
				      "(nokaslr, kaslr, %s=, %s=, %s=, %s=)\n",
				      word_text(word, len, text, sizeof(text)), ENTROPY_OPTION,
				      RANDOM_OPTION, PLACEMENT_PHYS_OPTION, PLACEMENT_VIRT_OPTION);
	}
}

static uint32_t allowed_sources(void)
{
	char list[OPTION_MAX];
	int rc = cmdline_get(env.cmdline, cmdline_length(), ENTROPY_OPTION, list, sizeof(list));
	if (rc == KS_ENOSPC)
		console_print("kslide: warning: %s= ignored: its value is longer than %u characters; "
			      "every source is used\n",
			      ENTROPY_OPTION, OPTION_MAX - 1);
	if (rc != KS_OK)
		return ENTROPY_ALL;
	uint32_t mask = 0;
	for (int s = 0; s < ENTROPY_SOURCE_COUNT; s++)
		if (cmdline_list_has(list, entropy_source_name((enum entropy_source)s)))
			mask |= ENTROPY_BIT(s);
	warn_unknown_sources(list);
	return mask;
}

/* Everything the loader told us goes into the pool too, credited nothing. */
static void mix_boot_env(struct mix_pool *pool)
{
	pool_mix(pool, env.map, env.map_count * sizeof(env.map[0]));
	pool_mix(pool, env.modules, env.module_count * sizeof(env.modules[0]));
	if (env.cmdline)
		pool_mix(pool, env.cmdline, cmdline_length());
}

static void gather_entropy(struct rng *rng, struct entropy_report *report)
{
	struct cpu_features cpu;
	struct mix_pool pool;
	cpu_probe(&x86_arch_ops, &cpu);
	pool_init(&pool);
	entropy_gather(&x86_arch_ops, &cpu, allowed_sources(), &pool, report);
	mix_boot_env(&pool);
	rng_init_from_pool(rng, &pool);
}

static size_t collect_usable(void)
{
	size_t n = 0;
	for (uint32_t i = 0; i < env.map_count; i++) {
		if (env.map[i].type != KSLIDE_MEM_USABLE)
			continue;
		usable[n].start = env.map[i].base;
		usable[n].length = env.map[i].length;
		n++;
	}
	return n;
}

/*
 * A reserved, ACPI or bad entry wins over a usable one it overlaps, as in Linux: firmware
 * maps may overlap, and the kernel must never land on memory some entry says is taken.
 */
static size_t collect_avoided(void)
{
	size_t n = 0;
	for (uint32_t i = 0; i < env.avoid_count; i++)
		avoided[n++] = env.avoid[i];
	for (uint32_t i = 0; i < env.map_count; i++) {
		if (env.map[i].type == KSLIDE_MEM_USABLE)
			continue;
		avoided[n].start = env.map[i].base;
		avoided[n].length = env.map[i].length;
		n++;
	}
	return n;
}

/* Slots for 'size' bytes of free usable RAM whose last byte lies in [min, max_last]. */
static int build_slots(struct slot_map *map, uint64_t size, uint64_t align, uint64_t min,
		       uint64_t max_last)
{
	struct slot_request req = {
		.usable = usable,
		.usable_count = collect_usable(),
		.avoid = avoided,
		.avoid_count = collect_avoided(),
		.image_size = size,
		.align = align,
		.min = min,
		.max_last = max_last,
	};
	return slot_map_build(map, &req, slot_work, sizeof(slot_work) / sizeof(slot_work[0]));
}

static bool link_base_is_free(void)
{
	struct slot_map map;
	uint64_t link = image_header.link_phys_base;
	uint64_t size = image_header.memory_size;
	return build_slots(&map, size, IMAGE_MIN_ALIGN, link, link + size - 1) == KS_OK &&
	       map.total == 1;
}

static bool overlaps(uint64_t a, uint64_t a_len, uint64_t b, uint64_t b_len)
{
	return a_len && b_len && a < b + b_len && b < a + a_len;
}

/* Why the link address cannot take the kernel: the first thing found in the way. */
static void refuse_link_address(void)
{
	uint64_t link = image_header.link_phys_base, size = image_header.memory_size;
	console_print("kslide: error: no safe place for the kernel: its link address 0x%llx is "
		      "not free usable memory: ",
		      (unsigned long long)link);
	/* The image first: where it lies, the loader put the modules after it. */
	if (overlaps(link, size, (uintptr_t)_image_start, image_header.image_file_size)) {
		console_print("the packed image itself lies there (kslide-pack --compress makes it "
			      "smaller)");
		goto done;
	}
	for (uint32_t i = 0; i < env.module_count; i++) {
		const struct kslide_module *m = &env.modules[i];
		if (overlaps(link, size, m->start, m->end - m->start)) {
			console_print("module %u [0x%llx, 0x%llx) lies there", (unsigned)i,
				      (unsigned long long)m->start, (unsigned long long)m->end);
			goto done;
		}
	}
	for (uint32_t i = 0; i < env.map_count; i++) {
		const struct kslide_mem_entry *e = &env.map[i];
		if (e->type != KSLIDE_MEM_USABLE && overlaps(link, size, e->base, e->length)) {
			console_print("the memory map says [0x%llx, 0x%llx) is not RAM (type %u)",
				      (unsigned long long)e->base,
				      (unsigned long long)(e->base + e->length), (unsigned)e->type);
			goto done;
		}
	}
	console_print("it is beyond RAM, or under the loader's information");
done:
	console_print("; not starting the kernel\n");
}

#define LOAN_MIN 0x100000ull /* below 1 MiB lie the BIOS's areas */

/*
 * Lends memory to the arch's mapping and to handoffs (boot/mapping.h): the lowest free stretch
 * below 4 GiB, avoided from then on, so later loans and the kernel never land on it.
 */
static int lend_memory(uint64_t size, uint64_t *addr)
{
	struct slot_map map;
	int rc = build_slots(&map, size, IMAGE_MIN_ALIGN, LOAN_MIN, ADDRESS_SPACE_END - 1);
	if (rc == KS_OK && map.total == 0)
		rc = KS_ENOENT;
	if (rc == KS_OK)
		rc = slot_map_address(&map, 0, addr);
	return rc == KS_OK ? bootenv_avoid(&env, *addr, size) : rc;
}

static const struct kernel_handoff *reject_image(const char *why);

/* Decode one frame of the image's codec into dst, which it must fill exactly. */
static int decode(void *workspace, uint8_t *dst, size_t size, const uint8_t *src, size_t len,
		  const struct decode_progress *progress, const char **why)
{
	size_t got = 0;
	int rc = KS_EFORMAT;
	*why = "unknown codec";
	if (image_header.payload_codec == KSLIDE_CODEC_ZSTD)
		rc = zstd_decompress(workspace, ZSTD_WORKSPACE_SIZE, dst, size, src, len, &got,
				     progress, why);
	else if (image_header.payload_codec == KSLIDE_CODEC_LZ4)
		rc = lz4_decompress(dst, size, src, len, &got, progress, why);
	if (rc == KS_OK && got != size) {
		rc = KS_EFORMAT;
		*why = "it decodes to fewer bytes than the header says";
	}
	return rc;
}

/*
 * A compressed payload (docs/format.md): its relocation table decoded first, into lent memory;
 * then the payload decoded straight into the slot, no second copy, and each field relocated
 * as soon as the decoder will not read it again (lib/reloc_schedule.h: a zstd image's early
 * fields right after their block, the late ones at the frame's end; LZ4's a block behind);
 * then its bss cleared and the fields there patched. The stored bytes were summed before
 * anything moved (check_image), and decoding is deterministic, so a decode error here means a
 * packer or decoder fault, not a damaged file. The zstd workspace is lent memory too, a fixed
 * ZSTD_WORKSPACE_SIZE; the decoders refuse a window they cannot hold (lib/zstd.h).
 */
static int decode_and_relocate(const struct kslide_bootinfo *bi)
{
	const struct kslide_image_header *h = &image_header;
	uint8_t *dst = (uint8_t *)(uintptr_t)bi->phys_base;
	const uint8_t *payload = _image_start + h->payload_offset;
	const uint8_t *table = _image_start + h->relocs_offset;
	size_t size = (size_t)h->payload_file_size, stored = (size_t)h->payload_stored_size;
	void *workspace = NULL;
	uint64_t lent;
	const char *why;
	int rc = KS_OK;
	if (h->payload_codec == KSLIDE_CODEC_ZSTD &&
	    (rc = lend_memory(ZSTD_WORKSPACE_SIZE, &lent)) == KS_OK)
		workspace = (void *)(uintptr_t)lent;
	/* The table's frame holds its runs too (lib/reloc_schedule.h). */
	size_t table_size = (size_t)h->relocs_size, runs_size = (size_t)h->relocs_runs_size;
	if (rc == KS_OK && h->relocs_size != 0 &&
	    (rc = lend_memory(table_size + runs_size, &lent)) == KS_OK) {
		rc = decode(workspace, (uint8_t *)(uintptr_t)lent, table_size + runs_size, table,
			    (size_t)h->relocs_stored_size, NULL, &why);
		if (rc != KS_OK) {
			error("cannot decompress the relocation table", why);
			return rc;
		}
		table = (const uint8_t *)(uintptr_t)lent;
	}
	if (rc != KS_OK) {
		error("no memory for the decoder", ks_strerror(rc));
		return rc;
	}
	int64_t slide = (int64_t)kslide_virt_slide(bi);
	struct reloc_schedule schedule;
	reloc_schedule_init(&schedule, dst, h->payload_mem_size, table, table_size,
			    table + table_size, runs_size, slide);
	struct decode_progress progress = reloc_schedule_progress(&schedule);
	rc = decode(workspace, dst, size, payload, stored, &progress, &why);
	if (rc == KS_OK) {
		memset(dst + size, 0, (size_t)(h->payload_mem_size - size));
		rc = reloc_schedule_finish(&schedule);
	}
	int table_status = reloc_schedule_status(&schedule);
	if (rc == KS_EORDER && table_status == KS_EORDER) {
		/* Groups out of image order: decode again, which undoes the fields patched so far,
		 * then the general two-pass path. */
		rc = decode(workspace, dst, size, payload, stored, NULL, &why);
		if (rc == KS_OK) {
			memset(dst + size, 0, (size_t)(h->payload_mem_size - size));
			rc = reloc_apply(dst, h->payload_mem_size, table, h->relocs_size, slide);
			table_status = rc;
		}
	}
	if (rc != KS_OK && table_status == rc)
		error("relocation table rejected", ks_strerror(rc));
	else if (rc != KS_OK)
		error("cannot decompress the kernel", why);
	return rc;
}

/*
 * Map, copy, clear bss, apply the fixups. Absolute addresses in the image are virtual ones, so
 * they move by the virtual slide (on i386 the same as the physical one).
 */
static int move_and_relocate(struct kslide_bootinfo *bi, struct kernel_mapping *mapping)
{
	const struct kslide_image_header *h = &image_header;
	*mapping = (struct kernel_mapping){
		.phys = bi->phys_base, .virt = bi->virt_base, .size = h->memory_size
	};
	/* The kernel's new home must not be lent out. */
	int rc = bootenv_avoid(&env, bi->phys_base, h->memory_size);
	if (rc == KS_OK)
		rc = mapping_prepare(mapping, lend_memory);
	if (rc != KS_OK) {
		error("cannot map the kernel", ks_strerror(rc));
		return rc;
	}
	bi->handoff_start = mapping->tables_start;
	bi->handoff_end = mapping->tables_end;
	if (h->payload_codec != KSLIDE_CODEC_NONE)
		return decode_and_relocate(bi);
	/* One pass: each block is summed as it is copied and patched while still in cache. */
	struct word_sums sums = { 0, 0 };
	rc = reloc_move((uint8_t *)(uintptr_t)bi->phys_base, _image_start + h->payload_offset,
			h->payload_file_size, h->payload_mem_size, _image_start + h->relocs_offset,
			h->relocs_size, (int64_t)kslide_virt_slide(bi), &sums);
	if (!image_payload_sums_match(h, &sums)) {
		reject_image(IMAGE_CORRUPT);
		return KS_EFORMAT;
	}
	if (rc != KS_OK)
		error("relocation table rejected", ks_strerror(rc));
	return rc;
}

static size_t append(char *out, size_t n, size_t cap, const char *text)
{
	while (*text && n + 1 < cap)
		out[n++] = *text++;
	out[n] = '\0';
	return n;
}

/* "rdrand,rdtsc": the sources that answered, or "none". */
static void describe_sources(const struct entropy_report *report, char *out, size_t cap)
{
	size_t n = append(out, 0, cap, "");
	for (int s = 0; s < ENTROPY_SOURCE_COUNT; s++) {
		if (!(report->answered & ENTROPY_BIT(s)))
			continue;
		if (n)
			n = append(out, n, cap, ",");
		n = append(out, n, cap, entropy_source_name((enum entropy_source)s));
	}
	if (n == 0)
		append(out, 0, cap, "none");
}

static void fill_boot_info(uint64_t base, uint64_t slots, const struct virt_choice *virt,
			   uint32_t flags, const struct entropy_report *report, struct rng *rng)
{
	const struct kslide_image_header *h = &image_header;
	struct kslide_bootinfo *bi = &boot_info;
	bi->magic = KSLIDE_BOOT_MAGIC;
	bi->version = KSLIDE_BOOTINFO_VERSION;
	bi->size = sizeof(*bi);
	bi->flags = flags;
	bi->phys_base = base;
	bi->link_phys_base = h->link_phys_base;
	bi->link_virt_base = h->link_virt_base;
	bi->virt_base = virt->base;
	bi->image_size = h->payload_mem_size;
	bi->phys_slots = slots;
	bi->virt_slots = virt->slots;
	bi->align = h->align;
	bi->virt_align = h->virt_align;
	bi->entropy_answered = report->answered;
	bi->entropy_credited = report->credited_bits;
	rng_bytes(rng, bi->seed, sizeof(bi->seed));
	bi->cmdline = env.cmdline_phys;
	bi->mmap = (uintptr_t)env.map;
	bi->mmap_count = env.map_count;
	bi->modules = (uintptr_t)env.modules;
	bi->module_count = env.module_count;
	bi->bootinfo_start = (uintptr_t)_image_start;
	bi->bootinfo_end = (uintptr_t)_image_start + h->image_file_size;
	bi->efi_system_table = env.efi_system_table;
	bi->efi_bits = env.efi_bits;
	if (env.efi_boot_services)
		bi->flags |= KSLIDE_BOOT_EFI_BOOT_SERVICES;
}

static void report_line(const struct kslide_bootinfo *bi, const struct entropy_report *report)
{
	char sources[OPTION_MAX];
	describe_sources(report, sources, sizeof(sources));
	console_print("kslide: base=0x%llx phys=0x%llx slots=%llu", (unsigned long long)bi->virt_base,
		      (unsigned long long)bi->phys_base, (unsigned long long)bi->phys_slots);
	if (bi->virt_align)
		console_print(" vslots=%llu", (unsigned long long)bi->virt_slots);
	console_print(" align=0x%llx", (unsigned long long)bi->align);
	if (bi->virt_align && bi->virt_align != bi->align)
		console_print(" valign=0x%llx", (unsigned long long)bi->virt_align);
	console_print(" entropy=%s credited=%u\n", sources, (unsigned)report->credited_bits);
}

/*
 * Honesty about entropy: the draw can be no harder to guess than the bits the sources are
 * credited with, however many bases there are. Say so when the credit falls short of
 * log2(physical x virtual slots), and tell the kernel.
 */
static uint32_t check_credit(uint64_t phys_slots, uint64_t virt_slots, uint32_t credited)
{
	uint32_t possible = log2_fixed(phys_slots) + log2_fixed(virt_slots);
	if ((uint64_t)credited * LOG2_ONE >= possible)
		return 0;
	console_print("kslide: warning: %u bits of entropy credited, fewer than the %u.%02u bits "
		      "of the possible bases: the base is easier to guess than the slot count says\n",
		      (unsigned)credited, (unsigned)(possible / LOG2_ONE),
		      (unsigned)((possible % LOG2_ONE) * 100 / LOG2_ONE));
	return KSLIDE_BOOT_LOW_ENTROPY;
}

/*
 * Pick the base: random among all slots, the slot kslide.phys= names on an image packed for
 * it, or the link base when asked or when nothing fits. KS_ENOENT: the link base is taken;
 * KS_EINVAL: the chosen base is no slot (both said).
 */
static int choose_base(const struct slot_map *map, const struct placement *chosen,
		       struct rng *rng, uint64_t *base, uint32_t *flags)
{
	if (!randomization_wanted()) {
		*flags |= KSLIDE_BOOT_NOKASLR;
		console_print("kslide: nokaslr: kernel stays at its link address 0x%llx\n",
			      (unsigned long long)image_header.link_phys_base);
		if (chosen->phys_given)
			console_print("kslide: %s= ignored: nokaslr\n", PLACEMENT_PHYS_OPTION);
		if (chosen->virt_given)
			console_print("kslide: %s= ignored: nokaslr\n", PLACEMENT_VIRT_OPTION);
	} else if (chosen->phys_given) {
		*flags |= KSLIDE_BOOT_DEBUG_PLACEMENT;
		return placement_take("phys", chosen->phys, map, base) == KS_OK ? KS_OK : KS_EINVAL;
	} else if (map->total == 0) {
		*flags |= KSLIDE_BOOT_FALLBACK;
		warn("no slot fits the kernel in usable memory; using its link address");
	} else {
		*flags |= KSLIDE_BOOT_RANDOMIZED;
		uint64_t index = uniform_below(map->total, rng_next_u64, rng);
		return slot_map_address(map, index, base);
	}
	*base = image_header.link_phys_base;
	return link_base_is_free() ? KS_OK : KS_ENOENT;
}

/*
 * The virtual base. Where the image declares no window of its own it keeps the link
 * layout's virtual-to-physical offset; otherwise it is a second draw, independent of the
 * physical one, over every aligned base that keeps the kernel inside the window (or the one
 * kslide.virt= names, on an image packed for it).
 */
static int choose_virt(bool randomize, const struct placement *chosen, uint64_t phys,
		       struct rng *rng, struct virt_choice *out)
{
	const struct kslide_image_header *h = &image_header;
	out->slots = 0;
	if (!h->virt_align) {
		out->base = h->link_virt_base + (phys - h->link_phys_base);
		return KS_OK;
	}
	out->base = h->link_virt_base;
	struct mem_range window = { h->virt_min, h->virt_max - h->virt_min + 1 };
	struct span work[SLOT_WORK_SPANS(1, 0)];
	struct slot_request req = {
		.usable = &window,
		.usable_count = 1,
		.image_size = h->payload_mem_size,
		.align = h->virt_align,
		.min = h->virt_min,
		.max_last = h->virt_max,
	};
	struct slot_map map;
	int rc = slot_map_build(&map, &req, work, sizeof(work) / sizeof(work[0]));
	if (rc != KS_OK)
		return rc;
	out->slots = map.total;
	if (randomize && chosen->virt_given)
		return placement_take("virt", chosen->virt, &map, &out->base);
	if (!randomize || map.total == 0)
		return KS_OK;
	return slot_map_address(&map, uniform_below(map.total, rng_next_u64, rng), &out->base);
}

static const struct kernel_handoff *reject_image(const char *why)
{
	error("image rejected", why);
	return NULL;
}

/* Check the image as this loader loaded it; returns the handoff it names. */
static const struct kernel_handoff *check_image(const struct boot_loader *loader)
{
	const char *why;
	if (image_header.version != KSLIDE_IMAGE_VERSION) {
		console_print("kslide: error: image rejected: image format version %u, this stub reads "
			      "version %u; not starting the kernel\n",
			      (unsigned)image_header.version, (unsigned)KSLIDE_IMAGE_VERSION);
		return NULL;
	}
	if (image_verify(_image_start, loader->loaded_size(), &image_header, &why) != KS_OK)
		return reject_image(why);
	/* A compressed payload is summed now, before the decoder reads it; an uncompressed one
	 * while it is copied (move_and_relocate). */
	if (image_header.payload_codec != KSLIDE_CODEC_NONE) {
		struct word_sums sums;
		image_payload_sums(_image_start, &image_header, &sums);
		if (!image_payload_sums_match(&image_header, &sums))
			return reject_image(IMAGE_CORRUPT);
	}
	if (image_header.arch != STUB_ARCH)
		return reject_image("built for another architecture than this stub");
	const struct kernel_handoff *handoff = kernel_handoff_for(image_header.handoff);
	if (!handoff)
		return reject_image("it names a handoff this stub does not know");
	return handoff;
}

const struct entry_regs *stub_main(uint32_t loader_magic, uint32_t loader_info)
{
	console_init();
	const struct boot_loader *loader = boot_loader_for(loader_magic);
	if (!loader)
		return error("boot loader", "not started by a Multiboot loader");
	const struct kernel_handoff *handoff = check_image(loader);
	if (!handoff)
		return NULL;
	int rc = loader->parse(&physical_memory, loader_info, &env);
	env.loader_magic = loader_magic;
	env.loader_info = loader_info;
	if (rc == KS_OK)
		rc = bootenv_avoid(&env, (uintptr_t)_image_start, image_header.image_file_size);
	if (rc != KS_OK && env.modules_given > BOOTENV_MODULES_MAX) {
		console_print("kslide: error: boot information unusable: %u modules; at most %u are "
			      "supported; not starting the kernel\n",
			      (unsigned)env.modules_given, (unsigned)BOOTENV_MODULES_MAX);
		return NULL;
	}
	if (rc != KS_OK)
		return error("boot information unusable", env.why ? env.why : ks_strerror(rc));
	console_print("kslide: loader=\"%s\" map=%s entries=%u\n",
		      env.loader_name ? env.loader_name : "",
		      env.map_source ? env.map_source : "none", (unsigned)env.map_count);
	if (env.map_dropped)
		warn("memory map longer than the stub's table; extra entries ignored");
	warn_unknown_words();
	struct placement chosen;
	if (placement_read(env.cmdline, cmdline_length(), image_header.flags,
			   image_header.virt_align != 0, &chosen) != KS_OK)
		return NULL;

	struct rng rng;
	struct entropy_report report;
	gather_entropy(&rng, &report);

	struct slot_map map;
	rc = build_slots(&map, image_header.memory_size, image_header.align,
			 image_header.phys_min, image_header.phys_max);
	if (rc != KS_OK)
		return error("slot search failed", ks_strerror(rc));

	uint64_t base;
	uint32_t flags = 0;
	rc = choose_base(&map, &chosen, &rng, &base, &flags);
	if (rc == KS_ENOENT)
		refuse_link_address();
	if (rc != KS_OK)
		return NULL;
	if (report.credited_bits == 0) {
		flags |= KSLIDE_BOOT_PREDICTABLE;
		if (flags & KSLIDE_BOOT_RANDOMIZED)
			warn("NO ENTROPY: no source could be credited; the base is PREDICTABLE");
	}
	struct virt_choice virt;
	rc = choose_virt(flags & (KSLIDE_BOOT_RANDOMIZED | KSLIDE_BOOT_DEBUG_PLACEMENT),
			 &chosen, base, &rng, &virt);
	if (rc == KS_ENOENT)
		return NULL; /* kslide.virt= named no slot; said */
	if (rc != KS_OK)
		return error("no virtual base", "the image's virtual window cannot hold the kernel");
	/* A base chosen on either axis: the boot is a debug placement, not a random one. */
	if (chosen.virt_given && (flags & KSLIDE_BOOT_RANDOMIZED))
		flags = (flags & ~KSLIDE_BOOT_RANDOMIZED) | KSLIDE_BOOT_DEBUG_PLACEMENT;
	if ((flags & KSLIDE_BOOT_RANDOMIZED) && report.credited_bits > 0)
		flags |= check_credit(map.total, virt.slots, report.credited_bits);
	fill_boot_info(base, map.total, &virt, flags, &report, &rng);
	random_dump(env.cmdline, cmdline_length(), &rng);
	struct kernel_mapping mapping;
	if (move_and_relocate(&boot_info, &mapping) != KS_OK)
		return NULL;
	struct handoff_context ctx = {
		.image = &image_header,
		.data = _image_start + image_header.handoff_data_offset,
		.env = &env,
		.bootinfo = &boot_info,
		.mapping = &mapping,
		.lend = lend_memory,
	};
	if (handoff->enter(&ctx, &entry_regs) != KS_OK)
		return error(handoff->name, ctx.why ? ctx.why : "cannot enter the kernel");
	report_line(&boot_info, &report);
	return &entry_regs;
}
