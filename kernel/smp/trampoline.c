/* kernel/smp/trampoline.h: putting the trampoline below 1 MiB for one start, and taking it away. */
#include <stddef.h>

#include "kernel/cpu/descriptor.h"
#include "kernel/memory.h"
#include "kernel/smp/smp.h"
#include "kernel/smp/trampoline.h"
#include "lib/string.h"

_Static_assert(offsetof(struct trampoline_data, far32_offset) == TD_FAR32, "TD_FAR32");
_Static_assert(offsetof(struct trampoline_data, far64_offset) == TD_FAR64, "TD_FAR64");
_Static_assert(offsetof(struct trampoline_data, cr3) == TD_CR3, "TD_CR3");
_Static_assert(offsetof(struct trampoline_data, efer) == TD_EFER, "TD_EFER");
_Static_assert(offsetof(struct trampoline_data, entry) == TD_ENTRY, "TD_ENTRY");
_Static_assert(offsetof(struct trampoline_data, stack) == TD_STACK, "TD_STACK");
_Static_assert(offsetof(struct trampoline_data, cpu) == TD_CPU, "TD_CPU");
_Static_assert(offsetof(struct trampoline_data, gdt) == TD_GDT, "TD_GDT");
_Static_assert(sizeof(struct trampoline_data) == TD_BYTES, "TD_BYTES");

unsigned trampoline_pages(void)
{
	return 1 + arch_trampoline_root_pages();
}

struct trampoline_data *trampoline_place(uint64_t phys, uintptr_t entry)
{
	uint8_t *page = phys_to_virt(phys);
	memcpy(page, trampoline_start, (size_t)(trampoline_end - trampoline_start));
	struct trampoline_data *d =
		(struct trampoline_data *)(page + (trampoline_data - trampoline_start));
	d->gdt[TRAMPOLINE_CS32 / 8] = segment(0, SEG_LIMIT_4G, SEG_KERNEL_CODE, 0xc);
	d->gdt[TRAMPOLINE_DS / 8] = segment(0, SEG_LIMIT_4G, SEG_KERNEL_DATA, 0xc);
	d->gdt[TRAMPOLINE_CS64 / 8] = segment(0, SEG_LIMIT_4G, SEG_KERNEL_CODE, 0xa);
	d->gdt_limit = sizeof(d->gdt) - 1;
	d->gdt_base = (uint32_t)phys + (uint32_t)(trampoline_data - trampoline_start) + TD_GDT;
	d->far32_offset = (uint32_t)phys + (uint32_t)(trampoline_pm32 - trampoline_start);
	d->far32_selector = TRAMPOLINE_CS32;
	d->far64_offset = (uint32_t)phys + (uint32_t)(trampoline_lm64 - trampoline_start);
	d->far64_selector = TRAMPOLINE_CS64;
	d->cr3 = arch_trampoline_root(phys + PAGE_SIZE);
	d->efer = arch_trampoline_efer();
	d->entry = entry;
	return d;
}

void trampoline_remove(uint64_t phys)
{
	arch_trampoline_root_drop();
	memset(phys_to_virt(phys), 0, (size_t)trampoline_pages() * PAGE_SIZE);
}
