/*
 * From the memory map to slots (stub_parts.h): usable RAM minus everything the loader handed
 * over, the packed image and every map entry that is not usable RAM, cut into aligned places
 * for the kernel (lib/slots.h); and memory lent to the arch's mapping and to handoffs, which
 * is avoided from then on.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "boot/console.h"
#include "boot/stub_parts.h"
#include "lib/errors.h"
#include "lib/image.h"
#include "lib/wipe.h"

static struct mem_range usable[BOOTENV_MAP_MAX];
/* Everything the loader handed over, then every map entry that is not usable RAM. */
static struct mem_range avoided[BOOTENV_AVOID_MAX + BOOTENV_MAP_MAX];
static struct span slot_work[SLOT_WORK_SPANS(BOOTENV_MAP_MAX, BOOTENV_AVOID_MAX + BOOTENV_MAP_MAX)];

static size_t collect_usable(void)
{
	size_t n = 0;
	for (uint32_t i = 0; i < stub_env.map_count; i++) {
		if (stub_env.map[i].type != KSLIDE_MEM_USABLE)
			continue;
		usable[n].start = stub_env.map[i].base;
		usable[n].length = stub_env.map[i].length;
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
	for (uint32_t i = 0; i < stub_env.avoid_count; i++)
		avoided[n++] = stub_env.avoid[i];
	for (uint32_t i = 0; i < stub_env.map_count; i++) {
		if (stub_env.map[i].type == KSLIDE_MEM_USABLE)
			continue;
		avoided[n].start = stub_env.map[i].base;
		avoided[n].length = stub_env.map[i].length;
		n++;
	}
	return n;
}

/* Slots for 'size' bytes of free usable RAM whose last byte lies in [min, max_last]. */
int slots_build(struct slot_map *map, uint64_t size, uint64_t align, uint64_t min,
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

bool slots_link_base_free(void)
{
	struct slot_map map;
	uint64_t link = image_header.link_phys_base;
	uint64_t size = image_header.memory_size;
	return slots_build(&map, size, IMAGE_MIN_ALIGN, link, link + size - 1) == KS_OK &&
	       map.total == 1;
}

static bool overlaps(uint64_t a, uint64_t a_len, uint64_t b, uint64_t b_len)
{
	return a_len && b_len && a < b + b_len && b < a + a_len;
}

/* Why the link address cannot take the kernel: the first thing found in the way. */
void slots_refuse_link_address(void)
{
	uint64_t link = image_header.link_phys_base, size = image_header.memory_size;
	console_print("kslide: error: no safe place for the kernel: its link address 0x%llx is "
		      "not free usable memory: ",
		      (unsigned long long)link);
	/* The image first: where it lies, the loader put the modules after it. */
	if (overlaps(link, size, (uintptr_t)stub_image, image_header.image_file_size)) {
		console_print("the packed image itself lies there (kslide-pack --compress makes it "
			      "smaller)");
		goto done;
	}
	for (uint32_t i = 0; i < stub_env.module_count; i++) {
		const struct kslide_module *m = &stub_env.modules[i];
		if (overlaps(link, size, m->start, m->end - m->start)) {
			console_print("module %u [0x%llx, 0x%llx) lies there", (unsigned)i,
				      (unsigned long long)m->start, (unsigned long long)m->end);
			goto done;
		}
	}
	for (uint32_t i = 0; i < stub_env.map_count; i++) {
		const struct kslide_mem_entry *e = &stub_env.map[i];
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
int slots_lend(uint64_t size, uint64_t *addr)
{
	struct slot_map map;
	int rc = slots_build(&map, size, IMAGE_MIN_ALIGN, LOAN_MIN, ADDRESS_SPACE_END - 1);
	if (rc == KS_OK && map.total == 0)
		rc = KS_ENOENT;
	if (rc == KS_OK)
		rc = slot_map_address(&map, 0, addr);
	return rc == KS_OK ? bootenv_avoid(&stub_env, *addr, size) : rc;
}

/* Once nothing more is lent: the tables above and the avoid list have held the kernel's
 * range (stub_relocate.c adds it, so that loans keep clear of it). */
void slots_forget(void)
{
	wipe(usable, sizeof(usable));
	wipe(avoided, sizeof(avoided));
	wipe(slot_work, sizeof(slot_work));
	wipe(stub_env.avoid, sizeof(stub_env.avoid));
	stub_env.avoid_count = 0;
}
