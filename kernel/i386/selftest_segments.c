/*
 * The leak suite's i386 case for ring 3's segment registers. The entry stubs and
 * kernel/i386/vectors.S run with ring 3's DS and ES until alltraps loads the kernel's, and
 * again after trapret; ring 3 may load a null selector or its own code segment, on which
 * hardware faults at the first access (a #GP in ring 0). TCG checks neither null selectors nor
 * limits, but it does add a segment's base: so besides null and USER_CS, the process also
 * makes its calls on a segment whose base moves every kernel address into the lower half.
 * Any access the entry path made through DS or ES would miss the kernel's variables there
 * and the run would end without the suite's line.
 */
#include <stdint.h>

#include "kernel/console.h"
#include "kernel/cpu/cpu_tables.h"
#include "kernel/cpu/descriptor.h"
#include "kernel/proc/proc.h"
#include "kernel/proc/syscall.h"
#include "kernel/selftest/leak_closure.h"
#include "kernel/user/leak.h"

/* The GDT slot the TSS descriptor held until LTR loaded it (cpu_tss_descriptor_clear): empty
 * while the kernel runs, lent to the test's segment for the one process. */
#define SPARE_SLOT (TSS_SEL / 8)
#define SPARE_SELECTOR (TSS_SEL | 3)
/* Its base: 4 GiB - KERNEL_VIRT_OFFSET, so that kernel address a reads as a - 0xC0000000, in
 * the lower half, where nothing but the user window is mapped (kernel/layout.h). */
#define SPARE_BASE ((uint32_t)0 - KERNEL_VIRT_OFFSET)

struct kernel_segments {
	unsigned calls;
	unsigned wrong; /* calls whose C side ran with another DS or ES than KERNEL_DS */
};

static void note_segments(void *ctx, unsigned nr, long result)
{
	struct kernel_segments *k = ctx;
	uint16_t ds, es;
	(void)nr, (void)result;
	__asm__ volatile("movw %%ds, %0\n\tmovw %%es, %1" : "=r"(ds), "=r"(es));
	k->calls++;
	k->wrong += ds != KERNEL_DS || es != KERNEL_DS;
}

static uint64_t *gdt_of(unsigned cpu)
{
	return cpu == 0 ? cpu_tables->gdt : cpu_tables->ap[cpu - 1].gdt;
}

bool leak_entry_segments(const struct kslide_bootinfo *bi)
{
	static struct kernel_segments k;
	uint64_t *slot = &gdt_of(proc_pinned_cpu())[SPARE_SLOT];
	(void)bi;
	if (*slot != 0) {
		kprintf("# segments: GDT slot %u is in use\n", SPARE_SLOT);
		return false;
	}
	*slot = segment(SPARE_BASE, SEG_LIMIT_4G, SEG_USER_DATA, SEG_FLAGS_FLAT);
	k = (struct kernel_segments){ 0, 0 };
	syscall_observe(note_segments, &k);
	int status = proc_run(&user_program_leak, 0, LEAK_SEGMENTS, SPARE_SELECTOR);
	syscall_observe(NULL, NULL);
	*slot = 0;
	kprintf("leak: exit segments status=0x%x\n", (unsigned)status);
	kprintf("# segments: %u system calls, %u with the kernel's C on other segments\n",
		k.calls, k.wrong);
	return status == 0 && k.calls > 0 && k.wrong == 0;
}
