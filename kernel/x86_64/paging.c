/*
 * The x86-64 kernel's own address space, replacing the stub's tables before anything else
 * runs (the stub's tables map the first 4 GiB one to one, which leaves no room for user space
 * and ties the kernel to memory the stub owns):
 *
 *   0x0000000000000000 ... lower half          empty: user space
 *   DIRECT_MAP_WINDOW (first 8 TiB)            the direct map, at a base drawn per boot
 *                                              (direct_map.c): all RAM up to the highest
 *                                              usable byte (at most DIRECT_MAP_LIMIT),
 *                                              2 MiB pages, RW NX; the image's text and
 *                                              rodata frames RO NX (4 KiB pages where the
 *                                              image starts or its data starts mid 2 MiB)
 *   virt_base                                  the kernel image, wherever the stub put it:
 *                                              text RO X, rodata RO NX, data and bss RW NX
 *   FIXED_AREA (0xffffffffff000000)            mappings at fixed addresses, added later
 *
 * No mapping is both writable and executable (W^X): only the image's text and the entry
 * area's code page may be executed, and neither may be written (CR0.WP, set by cpu_load,
 * makes ring 0 honour that). The stub applied the relocations before it jumped here, so the
 * text may be read-only from the kernel's first table on. Without NX (a CPU that lacks it)
 * the NX bits stay 0 (a reserved bit otherwise) and only the read-only half holds. The
 * direct map's alias of the text and rodata is read-only too, as Linux makes it: a kernel
 * write through the direct map cannot change code or constants either.
 *
 * The tables come from a pool in .bss; lib/pagetable builds them.
 */
#include <stdint.h>

#include "include/kslide/bootinfo.h"
#include "kernel/arch.h"
#include "kernel/console.h"
#include "kernel/memory.h"
#include "kernel/mm/walk.h"
#include "kernel/qemu_exit.h"
#include "kernel/smp/trampoline.h"
#include "kernel/x86_64/paging.h"
#include "arch/x86/sysregs.h"
#include "arch/x86/x86.h"
#include "lib/cpu.h"
#include "lib/errors.h"
#include "lib/pagetable.h"

/* Two PDPTs (the direct map's 64 GiB may straddle a 512 GiB boundary), a PD per GiB of
 * direct map and the two PTs of its read-only alias's ends, plus the image (a PDPT, up to two PDs and its PTs
 * when 4 KiB aligned: KERNEL_IMAGE_MAX / 2 MiB + 2), plus FIXED_AREA's PDPT, PD and the two PTs
 * the entry area needs when it straddles 2 MiB. */
#define KERNEL_IMAGE_MAX (64ull << 20)
#define FIXED_AREA_TABLES 4
#define POOL_PAGES                                                                           \
	(PT_ROOT_PAGES + 2 + (DIRECT_MAP_LIMIT >> 30) + 2 + 3 + (KERNEL_IMAGE_MAX >> 21) + 2 +      \
	 FIXED_AREA_TABLES)

static uint64_t pool[POOL_PAGES][PT_ENTRIES] __attribute__((aligned(PT_SIZE_4K)));
static struct pt_builder kernel_space;
static uint64_t phys_base, virt_base;
static uintptr_t start_phys_at_entry;
static uint64_t nx;

uint64_t paging_nx(void)
{
	return nx;
}

/* CPUID's word on NX (SDM Vol. 2A, CPUID leaf 80000001H, EDX bit 20), asked only when the
 * extended leaf exists. */
static bool cpu_has_nx(void)
{
	uint32_t r[4];
	cpuid(CPUID_LEAF_EXT_MAX, 0, r);
	if (r[0] < CPUID_LEAF_EXT_INFO)
		return false;
	cpuid(CPUID_LEAF_EXT_INFO, 0, r);
	return (r[3] & CPUID_80000001_EDX_NX) != 0;
}

/* The image in its three parts, virt_base onwards; size is the whole image's, bss included. */
static int map_image(uint64_t size)
{
	uint64_t text = (uintptr_t)_kernel_text_end - virt_base;
	uint64_t data = (uintptr_t)_kernel_data_start - virt_base;
	int rc = pt_map(&kernel_space, virt_base, phys_base, text, 0);
	if (rc == KS_OK && data > text)
		rc = pt_map(&kernel_space, virt_base + text, phys_base + text, data - text, nx);
	if (rc == KS_OK)
		rc = pt_map(&kernel_space, virt_base + data, phys_base + data, size - data,
			    PTE_WRITABLE | nx);
	return rc;
}

/* All RAM through the direct map, writable but for the image's text and rodata: [0, ro) and
 * [ro_end, end) RW NX, [ro, ro_end) RO NX. pt_map gives a 2 MiB page to each whole 2 MiB
 * stretch of one part and 4 KiB pages where a part ends inside one (the image starts at
 * 4 KiB in the -4k builds), so no large page straddles two parts. */
static int map_direct(uint64_t end, uint64_t ro, uint64_t ro_end)
{
	int rc = pt_map(&kernel_space, DIRECT_MAP, 0, ro, PTE_WRITABLE | nx);
	if (rc == KS_OK)
		rc = pt_map(&kernel_space, DIRECT_MAP + ro, ro, ro_end - ro, nx);
	if (rc == KS_OK && end > ro_end)
		rc = pt_map(&kernel_space, DIRECT_MAP + ro_end, ro_end, end - ro_end,
			    PTE_WRITABLE | nx);
	return rc;
}

uint64_t kernel_virt_to_phys(const void *p)
{
	return (uintptr_t)p - virt_base + phys_base;
}

static uint64_t round_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) & ~(a - 1);
}

/* End of the highest usable RAM, read through the stub's one-to-one map. */
static uint64_t ram_end(const struct kslide_bootinfo *bi)
{
	const struct kslide_mem_entry *map = (const void *)(uintptr_t)bi->mmap;
	uint64_t end = 0;
	for (uint32_t i = 0; i < bi->mmap_count; i++)
		if (map[i].type == KSLIDE_MEM_USABLE && map[i].base + map[i].length > end)
			end = map[i].base + map[i].length;
	/* The boot info and what it points to must stay reachable. */
	if (bi->bootinfo_end > end)
		end = bi->bootinfo_end;
	end = round_up(end, PT_SIZE_2M);
	return end > DIRECT_MAP_LIMIT ? DIRECT_MAP_LIMIT : end;
}

static void load_cr3(uint64_t pml4)
{
	__asm__ volatile("mov %0, %%cr3" : : "r"(pml4) : "memory");
}

int paging_init(uint64_t boot_info_phys)
{
	const struct kslide_bootinfo *bi = (const void *)(uintptr_t)boot_info_phys;
	if (bi->magic != KSLIDE_BOOT_MAGIC)
		return KS_EINVAL;
	phys_base = bi->phys_base;
	virt_base = bi->virt_base;
	/* The stub's tables, read before they go: where the hardware runs us. */
	start_phys_at_entry = walk_virt_to_phys((uintptr_t)_start, 0);
	uint64_t size = round_up(bi->image_size, PT_SIZE_4K);
	if ((uintptr_t)_kernel_start != virt_base || (uintptr_t)_kernel_data_start - virt_base > size)
		return KS_EINVAL;
	/* Before the first table with an NX bit goes live: a reserved bit until NXE is set. */
	if (cpu_has_nx()) {
		wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_NXE);
		nx = PTE_NX;
	}
	direct_map_draw(bi);
	int rc = pt_init(&kernel_space, pool, POOL_PAGES, kernel_virt_to_phys(pool));
	if (rc == KS_OK)
		rc = map_direct(ram_end(bi), phys_base,
				phys_base + ((uintptr_t)_kernel_data_start - virt_base));
	if (rc == KS_OK)
		rc = map_image(size);
	if (rc != KS_OK)
		return rc;
	load_cr3(kernel_space.pml4_phys);
	return KS_OK;
}

void arch_image_protect(void)
{
	/* paging_init mapped the image in its parts from the first table on. */
}

/* From the entry code when paging_init fails: say so and end the run as a failure. */
void paging_failed(int rc);
void paging_failed(int rc)
{
	console_init();
	kprintf("kernel: cannot build the kernel's page tables: %s\n", ks_strerror(rc));
	qemu_exit(QEMU_EXIT_FAIL);
}

uintptr_t start_phys_runtime(void)
{
	return start_phys_at_entry;
}

struct pt_builder *paging_kernel_space(void)
{
	return &kernel_space;
}
