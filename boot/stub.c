/*
 * The stub's policy: check the image, learn the machine from the boot loader, gather entropy,
 * pick a base uniformly among every slot, move the kernel there, relocate it (and, packed with
 * --shuffle, lay its function sections out in a random order), describe the
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
 * The ways in and out are tables (boot/protocols.c): the loader is chosen by the protocol the
 * entry code named (struct boot_entry, boot/entry.h), the handoff by the image header; this file
 * only chooses among them.
 *
 * Two levels of failure, as in Linux: warn() and carry on without randomization when that is
 * still safe, error() and refuse to start the kernel when an invariant is broken.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "boot/console.h"
#include "boot/random_dump.h"
#include "boot/stub.h"
#include "boot/stub_parts.h"
#include "lib/errors.h"
#include "lib/wipe.h"

/* Filled in by kslide-pack; the stub reads it but never trusts it unverified. */
__attribute__((section(".kslide_header"), used)) struct kslide_image_header image_header = {
	.magic = KSLIDE_IMAGE_MAGIC,
};

struct kslide_bootinfo boot_info;
struct boot_env stub_env;
const uint8_t *stub_image;

static struct entry_regs entry_regs;

const struct entry_regs *stub_error(const char *what, const char *detail)
{
	console_print("kslide: error: %s: %s; not starting the kernel\n", what, detail);
	return NULL;
}

void stub_warn(const char *what)
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

const struct entry_regs *stub_main(const struct boot_entry *entry)
{
	console_init();
	const struct boot_loader *loader = boot_loader_for(entry);
	if (!loader)
		return stub_error("boot loader", "an entry of a protocol this stub does not know");
	const char *refused = loader->check(entry);
	if (refused)
		return stub_error("boot loader", refused);
	stub_image = (const uint8_t *)(uintptr_t)entry->image_start;
	const struct kernel_handoff *handoff = image_check(loader, entry);
	if (!handoff)
		return NULL;
	int rc = loader->parse(&physical_memory, entry, &stub_env);
	stub_env.loader_magic = entry->magic;
	stub_env.loader_info = (uint32_t)entry->info;
	if (rc == KS_OK)
		rc = bootenv_avoid(&stub_env, (uintptr_t)stub_image, image_header.image_file_size);
	if (rc != KS_OK && stub_env.modules_given > BOOTENV_MODULES_MAX) {
		console_print("kslide: error: boot information unusable: %u modules; at most %u are "
			      "supported; not starting the kernel\n",
			      (unsigned)stub_env.modules_given, (unsigned)BOOTENV_MODULES_MAX);
		return NULL;
	}
	if (rc != KS_OK)
		return stub_error("boot information unusable", stub_env.why ? stub_env.why : ks_strerror(rc));
	/* image= says where the loader put the stub (the Multiboot2 relocatable tag lets it
	 * choose); it is no secret: the kernel goes elsewhere. */
	console_print("kslide: loader=\"%s\" map=%s entries=%u image=0x%llx\n",
		      stub_env.loader_name ? stub_env.loader_name : "",
		      stub_env.map_source ? stub_env.map_source : "none", (unsigned)stub_env.map_count,
		      (unsigned long long)entry->image_start);
	if (stub_env.map_dropped)
		stub_warn("memory map longer than the stub's table; extra entries ignored");
	options_warn_unknown_words(loader->protocol == BOOT_PROTOCOL_UEFI);
	struct placement chosen;
	if (placement_read(stub_env.cmdline, stub_cmdline_length(), image_header.flags,
			   image_header.virt_align != 0, &chosen) != KS_OK)
		return NULL;

	/* The slots first: the count decides how many bits of entropy the draw wants, and
	 * does not depend on the pool. */
	struct slot_map map;
	rc = slots_build(&map, image_header.memory_size, image_header.align,
			 image_header.phys_min, image_header.phys_max);
	if (rc != KS_OK)
		return stub_error("slot search failed", ks_strerror(rc));

	struct rng rng;
	struct entropy_report report;
	choose_gather_entropy(&rng, &report, choose_wanted_bits(map.total));

	uint64_t base;
	uint32_t flags = 0;
	rc = choose_base(&map, &chosen, &rng, &base, &flags);
	if (rc == KS_ENOENT)
		slots_refuse_link_address();
	if (rc != KS_OK)
		return NULL;
	if (report.credited_bits == 0) {
		flags |= KSLIDE_BOOT_PREDICTABLE;
		if (flags & KSLIDE_BOOT_RANDOMIZED)
			stub_warn("NO ENTROPY: no source could be credited; the base is PREDICTABLE");
	}
	struct virt_choice virt;
	rc = choose_virt(flags & (KSLIDE_BOOT_RANDOMIZED | KSLIDE_BOOT_DEBUG_PLACEMENT), &chosen,
			 base, &rng, &virt);
	if (rc == KS_ENOENT)
		return NULL; /* kslide.virt= named no slot; said */
	if (rc != KS_OK)
		return stub_error("no virtual base", "the image's virtual window cannot hold the kernel");
	/* A base chosen on either axis: the boot is a debug placement, not a random one. */
	if (chosen.virt_given && (flags & KSLIDE_BOOT_RANDOMIZED))
		flags = (flags & ~KSLIDE_BOOT_RANDOMIZED) | KSLIDE_BOOT_DEBUG_PLACEMENT;
	if ((flags & KSLIDE_BOOT_RANDOMIZED) && report.credited_bits > 0)
		flags |= report_check_credit(map.total, virt.slots, report.credited_bits);
	report_boot_info(base, map.total, &virt, flags, &report, &rng);
	if (stub_env.trial) {
		/* Drawn and said; nothing is moved, and the loader is returned to. */
		report_line(&boot_info, &report);
		report_usable_map();
		rng_wipe(&rng);
		slots_forget();
		wipe(&boot_info, sizeof(boot_info));
		return NULL;
	}
	random_dump(stub_env.cmdline, stub_cmdline_length(), &rng);
	shuffle_take_key(&rng, flags & KSLIDE_BOOT_RANDOMIZED);
	/* Nothing is drawn after this: the key that made the bases and the seed goes now. The
	 * stack it lay on is wiped by the entry code (boot/<arch>/entry.S) before the jump. */
	rng_wipe(&rng);
	struct kernel_mapping mapping;
	if (relocate_kernel(&boot_info, &mapping) != KS_OK || shuffle_kernel(&boot_info) != KS_OK)
		return NULL;
	struct handoff_context ctx = {
		.image = &image_header,
		.data = stub_image + image_header.handoff_data_offset,
		.env = &stub_env,
		.bootinfo = &boot_info,
		.mapping = &mapping,
		.lend = slots_lend,
		.mem = &physical_memory,
	};
	if (handoff->enter(&ctx, &entry_regs) != KS_OK)
		return stub_error(handoff->name, ctx.why ? ctx.why : "cannot enter the kernel");
	report_line(&boot_info, &report);
	/* Every copy of the bases outside what the kernel is handed goes now: the slot tables
	 * and the avoid list, which held the kernel's range so that loans kept clear of it, and
	 * boot_info unless the kernel reads it in place (and wipes it then). */
	slots_forget();
	if (!handoff->bootinfo_in_place)
		wipe(&boot_info, sizeof(boot_info));
	return &entry_regs;
}
