/*
 * The base policy (stub_parts.h): gather entropy, then draw the physical base uniformly among
 * every slot (or keep the link base when asked, or when nothing fits), and on x86-64 the
 * virtual base in a second, independent draw over the image's window.
 */
#include <stdbool.h>
#include <stdint.h>

#include "arch/x86/arch_ops.h"
#include "boot/console.h"
#include "boot/placement.h"
#include "boot/stub_parts.h"
#include "include/kslide/bootinfo.h"
#include "lib/cpu.h"
#include "lib/errors.h"
#include "lib/jitter.h"
#include "lib/log2.h"
#include "lib/uniform.h"
#include "lib/wipe.h"

/* Everything the loader told us goes into the pool too, credited nothing. */
static void mix_boot_env(struct mix_pool *pool)
{
	pool_mix(pool, stub_env.map, stub_env.map_count * sizeof(stub_env.map[0]));
	pool_mix(pool, stub_env.modules, stub_env.module_count * sizeof(stub_env.modules[0]));
	if (stub_env.cmdline)
		pool_mix(pool, stub_env.cmdline, stub_cmdline_length());
}

/* How a jitter collection ended, when it fell short: the figures the rule asks for. */
static void say_jitter(const struct jitter_report *j, uint32_t wanted, uint32_t credited)
{
	/* What it cost, in the units of the bound: a PIT count step is 0.84 us (mode 2) or
	 * 0.42 us (mode 3). */
	console_print("kslide: jitter: %u bits from %u samples in %u PIT steps\n",
		      (unsigned)j->credited, (unsigned)j->samples, (unsigned)j->pit_steps);
	if (j->stop == JITTER_HEALTH_FAILED)
		console_print("kslide: warning: jitter: the %s test failed at sample %u; "
			      "%u bits credited\n",
			      j->health == HEALTH_RCT_FAILED ? "repetition count" : "adaptive proportion",
			      (unsigned)j->samples, (unsigned)j->credited);
	else if (j->stop == JITTER_PREDICTABLE)
		console_print("kslide: warning: jitter: predictable: lag %u guessed %u of the first "
			      "%u samples; nothing credited\n",
			      (unsigned)j->lag, (unsigned)j->lag_hits, JITTER_STARTUP_SAMPLES);
	else if (j->stop == JITTER_PIT_STOPPED)
		console_print("kslide: warning: jitter: the PIT does not count; no samples\n");
	if (j->stop != JITTER_TARGET_MET)
		console_print("kslide: warning: jitter: %u of the %u bits wanted after %u samples "
			      "and %u PIT steps (bound %u): %u bits short\n",
			      (unsigned)credited, (unsigned)wanted, (unsigned)j->samples,
			      (unsigned)j->pit_steps, JITTER_BOUND_PIT_STEPS,
			      (unsigned)(wanted - credited));
}

/*
 * 'wanted' is the bits of the bases (0 when none is drawn): where no RDRAND/RDSEED answered,
 * timer jitter tops the credit up to it (lib/jitter.h), or says how far short it stayed.
 */
void choose_gather_entropy(struct rng *rng, struct entropy_report *report, uint32_t wanted)
{
	struct cpu_features cpu;
	struct mix_pool pool;
	struct jitter_report jitter;
	cpu_probe(&x86_arch_ops, &cpu);
	pool_init(&pool);
	entropy_gather(&x86_arch_ops, &cpu, options_entropy_sources(), &pool, report);
	/* The firmware's words are in the pool now (or not allowed): no copy stays behind in
	 * the stub's image, which the kernel may read. */
	wipe(arch_firmware_rng, sizeof(arch_firmware_rng));
	jitter_top_up(&x86_arch_ops, &cpu, options_entropy_sources(), wanted, &pool, report,
		      &jitter);
	if (report->present & ENTROPY_BIT(ENTROPY_JITTER))
		say_jitter(&jitter, wanted, report->credited_bits);
	mix_boot_env(&pool);
	rng_init_from_pool(rng, &pool);
}

/* The bits of the bases, rounded up: log2(physical x virtual slots), as report_check_credit. */
uint32_t choose_wanted_bits(uint64_t phys_slots)
{
	if (!options_randomize() || phys_slots == 0)
		return 0;
	uint32_t possible = log2_fixed(phys_slots) + log2_fixed(choose_virt_slots());
	return (possible + LOG2_ONE - 1) / LOG2_ONE;
}

/*
 * Pick the base: random among all slots, the slot kslide.phys= names on an image packed for
 * it, or the link base when asked or when nothing fits. KS_ENOENT: the link base is taken;
 * KS_EINVAL: the chosen base is no slot (both said).
 */
int choose_base(const struct slot_map *map, const struct placement *chosen, struct rng *rng,
		uint64_t *base, uint32_t *flags)
{
	if (!options_randomize()) {
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
		stub_warn("no slot fits the kernel in usable memory; using its link address");
	} else {
		*flags |= KSLIDE_BOOT_RANDOMIZED;
		uint64_t index = uniform_below(map->total, rng_next_u64, rng);
		return slot_map_address(map, index, base);
	}
	*base = image_header.link_phys_base;
	return slots_link_base_free() ? KS_OK : KS_ENOENT;
}

/*
 * The virtual base. Where the image declares no window of its own it keeps the link
 * layout's virtual-to-physical offset; otherwise it is a second draw, independent of the
 * physical one, over every aligned base that keeps the kernel inside the window (or the one
 * kslide.virt= names, on an image packed for it).
 */
#define VIRT_WORK_SPANS SLOT_WORK_SPANS(1, 0)

/* Every aligned virtual base that keeps the kernel inside the image's window; the map lies
 * in 'work', the caller's. */
static int virt_slots_build(struct slot_map *map, struct span work[VIRT_WORK_SPANS])
{
	const struct kslide_image_header *h = &image_header;
	struct mem_range window = {h->virt_min, h->virt_max - h->virt_min + 1};
	struct slot_request req = {
		.usable = &window,
		.usable_count = 1,
		.image_size = h->payload_mem_size,
		.align = h->virt_align,
		.min = h->virt_min,
		.max_last = h->virt_max,
	};
	return slot_map_build(map, &req, work, VIRT_WORK_SPANS);
}

/* How many virtual bases there are, known before any draw: 1 without a window of its own. */
uint64_t choose_virt_slots(void)
{
	struct slot_map map;
	struct span work[VIRT_WORK_SPANS];
	if (!image_header.virt_align || virt_slots_build(&map, work) != KS_OK || map.total == 0)
		return 1;
	return map.total;
}

int choose_virt(bool randomize, const struct placement *chosen, uint64_t phys, struct rng *rng,
		struct virt_choice *out)
{
	const struct kslide_image_header *h = &image_header;
	out->slots = 0;
	if (!h->virt_align) {
		out->base = h->link_virt_base + (phys - h->link_phys_base);
		return KS_OK;
	}
	out->base = h->link_virt_base;
	struct slot_map map;
	struct span work[VIRT_WORK_SPANS];
	int rc = virt_slots_build(&map, work);
	if (rc != KS_OK)
		return rc;
	out->slots = map.total;
	if (randomize && chosen->virt_given)
		return placement_take("virt", chosen->virt, &map, &out->base);
	if (!randomize || map.total == 0)
		return KS_OK;
	return slot_map_address(&map, uniform_below(map.total, rng_next_u64, rng), &out->base);
}
