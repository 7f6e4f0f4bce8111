/*
 * The reference kernel: reports where it landed, runs its self-checks (or the suite named by
 * selftest=NAME) and ends the QEMU run with the verdict.
 */
#include <stddef.h>
#include <stdint.h>

#include "include/kslide/bootinfo.h"
#include "kernel/arch.h"
#include "kernel/boot_entry.h"
#include "kernel/console.h"
#include "kernel/memory.h"
#include "kernel/mm/phys_map.h"
#include "kernel/mm/space.h"
#include "kernel/qemu_exit.h"
#include "kernel/report.h"
#include "kernel/secrecy/entry_area.h"
#include "kernel/secrecy/kptr.h"
#include "kernel/secrecy/sysctl.h"
#include "kernel/selftest/selftest.h"
#include "kernel/smp/smp.h"
#include "lib/cmdline.h"
#include "lib/string.h"
#include "lib/wipe.h"

#define SUITE_NAME_MAX 32
#define NOPTI_FLAG "nopti" /* ring 3 on the kernel's page tables, for comparison */

void kernel_main(uint32_t magic, uintptr_t boot_info_phys);

/* The boot info, the kernel's own copy: what the stub left holds the bases and the seed, and
 * lies outside the image, where the direct map reaches it; it is wiped once copied, and so
 * are the stub's x86-64 page tables. */
static struct kslide_bootinfo boot_info;

static size_t given_size(const struct kslide_bootinfo *given)
{
	return given->size < sizeof(boot_info) ? given->size : sizeof(boot_info);
}

static const struct kslide_bootinfo *take_boot_info(uint32_t magic, uintptr_t located)
{
	struct kslide_bootinfo *given = phys_to_virt(located);
	memcpy(&boot_info, given, given_size(given));
	wipe(given, given_size(given));
	uintptr_t second = boot_info_second_copy(magic);
	if (second && second != located) {
		given = phys_to_virt(second);
		if (given->magic == boot_info.magic)
			wipe(given, given_size(given));
	}
	/* x86-64: the stub's page tables for the jump, which map the virtual base onto the
	 * physical one; the entry code has left them for the kernel's own (paging_init). */
	if (boot_info.handoff_end > boot_info.handoff_start)
		wipe(phys_to_virt(boot_info.handoff_start),
		     boot_info.handoff_end - boot_info.handoff_start);
	return &boot_info;
}

static const char *command_line(const struct kslide_bootinfo *bi)
{
	return bi->cmdline ? phys_to_virt(bi->cmdline) : "";
}

void kernel_main(uint32_t magic, uintptr_t boot_info_phys)
{
	console_init();
	const char *how;
	uintptr_t located = boot_info_locate(magic, boot_info_phys, &how);
	if (!located) {
		kprintf("kernel: not started by the kslide stub (magic 0x%x)\n", magic);
		qemu_exit(QEMU_EXIT_FAIL);
	}
	if (magic != KSLIDE_BOOT_MAGIC)
		kprintf("kernel: boot info from %s\n", how);
	const struct kslide_bootinfo *bi = take_boot_info(magic, located);
	const char *cmdline = command_line(bi);
	kprintf("kernel: running at virt=0x%llx phys=0x%llx slide=0x%llx",
		(unsigned long long)bi->virt_base, (unsigned long long)bi->phys_base,
		(unsigned long long)kslide_phys_slide(bi));
	if (kslide_virt_slide(bi) != kslide_phys_slide(bi))
		kprintf(" vslide=0x%llx", (unsigned long long)kslide_virt_slide(bi));
	kprintf("%s\n", (bi->flags & KSLIDE_BOOT_RANDOMIZED) ? "" : " (not randomized)");
	if (bi->flags & KSLIDE_BOOT_LOW_ENTROPY)
		kprintf("kernel: low entropy: %u bits credited for %llu x %llu possible bases\n",
			(unsigned)bi->entropy_credited, (unsigned long long)bi->phys_slots,
			(unsigned long long)(bi->virt_slots ? bi->virt_slots : 1));
	report_usable_memory(bi);

	/* The secrecy half: from here on the base is not to be shown to user mode. The console
	 * is the machine owner's (it showed the base already); the syslog is not. */
	kptr_init(bi);
	sysctl_init(bi->flags & KSLIDE_BOOT_RANDOMIZED);
	bool pti = !cmdline_has_flag(cmdline, strlen(cmdline), NOPTI_FLAG);
	arch_image_protect();
	phys_map_init();
	arch_cpu_init(bi, pti);
	space_init();
	smp_init(bi);
	kprintf("kernel: umip=%s kptr_restrict=%d dmesg_restrict=%d idt=0x%llx\n",
		arch_umip_enabled() ? "on" : "off", sysctl_kptr_restrict, sysctl_dmesg_restrict,
		(unsigned long long)arch_idt_alias());
	kprintf("kernel: entry area 0x%llx, %u pages, page-table isolation %s, direct map 0x%llx\n",
		(unsigned long long)entry_area_base(), ENTRY_AREA_PAGES, pti ? "on" : "off",
		(unsigned long long)DIRECT_MAP);

	char suite[SUITE_NAME_MAX];
	const char *name = NULL;
	if (cmdline_get(cmdline, strlen(cmdline), "selftest", suite, sizeof(suite)) == 0)
		name = suite;
	unsigned failed = selftest_run(name, bi);
	kprintf("kernel: self-check %s\n", failed ? "FAILED" : "passed");
	qemu_exit(failed ? QEMU_EXIT_FAIL : QEMU_EXIT_PASS);
}
