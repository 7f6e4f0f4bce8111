/*
 * What the stub did, told (stub_parts.h): struct kslide_bootinfo for the kernel, the
 * "kslide: base=..." line for the console, and the warning when the entropy credited falls
 * short of the bases possible.
 */
#include <stddef.h>
#include <stdint.h>

#include "boot/console.h"
#include "boot/stub.h"
#include "boot/stub_parts.h"
#include "lib/log2.h"

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

void report_boot_info(uint64_t base, uint64_t slots, const struct virt_choice *virt, uint32_t flags,
		      const struct entropy_report *report, struct rng *rng)
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
	bi->cmdline = stub_env.cmdline_phys;
	bi->mmap = (uintptr_t)stub_env.map;
	bi->mmap_count = stub_env.map_count;
	bi->modules = (uintptr_t)stub_env.modules;
	bi->module_count = stub_env.module_count;
	bi->bootinfo_start = (uintptr_t)stub_image;
	bi->bootinfo_end = (uintptr_t)stub_image + h->image_file_size;
	bi->efi_system_table = stub_env.efi_system_table;
	bi->efi_bits = stub_env.efi_bits;
	if (stub_env.efi_boot_services)
		bi->flags |= KSLIDE_BOOT_EFI_BOOT_SERVICES;
}

void report_line(const struct kslide_bootinfo *bi, const struct entropy_report *report)
{
	char sources[OPTION_MAX];
	describe_sources(report, sources, sizeof(sources));
	console_print("kslide: base=0x%llx phys=0x%llx slots=%llu",
		      (unsigned long long)bi->virt_base, (unsigned long long)bi->phys_base,
		      (unsigned long long)bi->phys_slots);
	if (bi->virt_align)
		console_print(" vslots=%llu", (unsigned long long)bi->virt_slots);
	console_print(" align=0x%llx", (unsigned long long)bi->align);
	if (bi->virt_align && bi->virt_align != bi->align)
		console_print(" valign=0x%llx", (unsigned long long)bi->virt_align);
	console_print(" entropy=%s credited=%u", sources, (unsigned)report->credited_bits);
	if (shuffle_report() >= 0) /* an image packed with --shuffle: how many units moved */
		console_print(" shuffled=%u", (unsigned)shuffle_report());
	console_print("\n");
}

void report_usable_map(void)
{
	const char *sep = "";
	console_print("kslide: usable=");
	for (uint32_t i = 0; i < stub_env.map_count; i++) {
		const struct kslide_mem_entry *e = &stub_env.map[i];
		if (e->type != KSLIDE_MEM_USABLE)
			continue;
		console_print("%s0x%llx-0x%llx", sep, (unsigned long long)e->base,
			      (unsigned long long)(e->base + e->length));
		sep = ",";
	}
	console_print("\n");
}

/*
 * Honesty about entropy: the draw can be no harder to guess than the bits the sources are
 * credited with, however many bases there are. Say so when the credit falls short of
 * log2(physical x virtual slots), and tell the kernel.
 */
uint32_t report_check_credit(uint64_t phys_slots, uint64_t virt_slots, uint32_t credited)
{
	uint32_t possible = log2_fixed(phys_slots) + log2_fixed(virt_slots);
	if ((uint64_t)credited * LOG2_ONE >= possible)
		return 0;
	console_print(
		"kslide: warning: %u bits of entropy credited, fewer than the %u.%02u bits "
		"of the possible bases: the base is easier to guess than the slot count says\n",
		(unsigned)credited, (unsigned)(possible / LOG2_ONE),
		(unsigned)((possible % LOG2_ONE) * 100 / LOG2_ONE));
	return KSLIDE_BOOT_LOW_ENTROPY;
}
