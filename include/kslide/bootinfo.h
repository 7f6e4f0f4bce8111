/*
 * What a kernel receives from the kslide stub, with interrupts disabled and
 *
 *   EAX = KSLIDE_BOOT_MAGIC
 *   EBX = physical address of a struct kslide_bootinfo
 *
 * i386: 32-bit protected mode, paging off, flat 4 GiB code and data segments; the stub jumps
 * to the entry point's new physical address.
 *
 * x86-64: 64-bit long mode, 4-level paging on; the stub jumps to the entry point's new
 * virtual address. RDI and RSI hold the same two values as EAX and EBX, so the entry may be
 * a C function kernel_entry(uint32_t magic, uint64_t boot_info). The page tables (in
 * handoff_start..handoff_end) map the kernel's virtual range onto its physical one, and map
 * physical [0, 4 GiB) and the kernel's physical range one to one, so the boot info is
 * readable at its physical address. The GDT is the stub's; the stack is undefined.
 *
 * The struct and everything it points to lie in memory the kernel must leave alone until it
 * has copied what it needs: bootinfo_start..bootinfo_end and handoff_start..handoff_end
 * below, plus the command line and modules. The struct holds both bases and the seed, and the
 * x86-64 tables map one base onto the other: a kernel that keeps its base secret wipes both
 * once it is done with them, as the reference kernel does (kernel/main.c); the stub keeps no
 * other copy (on i386, but for the stack word its last RET reads: the entry address).
 *
 * Every field is fixed-width so i386 and x86-64 kernels share this header.
 */
#ifndef KSLIDE_BOOTINFO_H
#define KSLIDE_BOOTINFO_H

#include <stdint.h>

#define KSLIDE_BOOT_MAGIC 0x6b534c44u /* "DLSk" in memory: the stub's handshake in EAX */
#define KSLIDE_BOOTINFO_VERSION 2u

/* flags */
#define KSLIDE_BOOT_RANDOMIZED (1u << 0)  /* base chosen at random among slots */
#define KSLIDE_BOOT_NOKASLR (1u << 1)     /* "nokaslr" (or the image default) kept the link base */
#define KSLIDE_BOOT_PREDICTABLE (1u << 2) /* no entropy credited: the base is guessable */
#define KSLIDE_BOOT_FALLBACK (1u << 3)    /* randomization impossible (no slot); link base used */
#define KSLIDE_BOOT_EFI_BOOT_SERVICES (1u << 4) /* the firmware's boot services still run */
/* fewer bits credited than log2(phys_slots x virt_slots): the base is easier to guess than
 * the slot counts say */
#define KSLIDE_BOOT_LOW_ENTROPY (1u << 5)
/* a base was chosen on the command line (kslide.phys=, kslide.virt=), on an image packed
 * with kslide-pack --debug-placement: not random (KSLIDE_BOOT_RANDOMIZED is then clear) */
#define KSLIDE_BOOT_DEBUG_PLACEMENT (1u << 6)

/* Entropy sources, bit numbers of entropy_answered (same order as lib/entropy.h). */
#define KSLIDE_ENTROPY_RDSEED (1u << 0)
#define KSLIDE_ENTROPY_RDRAND (1u << 1)
#define KSLIDE_ENTROPY_RDTSC (1u << 2)
#define KSLIDE_ENTROPY_PIT (1u << 3)
#define KSLIDE_ENTROPY_RTC (1u << 4)
#define KSLIDE_ENTROPY_EFIRNG (1u << 5)

/* Memory map entry types (Multiboot/e820 numbering). */
#define KSLIDE_MEM_USABLE 1u
#define KSLIDE_MEM_RESERVED 2u
#define KSLIDE_MEM_ACPI_RECLAIMABLE 3u
#define KSLIDE_MEM_ACPI_NVS 4u
#define KSLIDE_MEM_BAD 5u

#define KSLIDE_SEED_BYTES 32

struct kslide_mem_entry {
	uint64_t base;
	uint64_t length;
	uint32_t type;
	uint32_t reserved;
};

struct kslide_module {
	uint64_t start; /* physical, [start, end) */
	uint64_t end;
	uint64_t cmdline; /* physical address of a NUL-terminated string, or 0 */
};

struct kslide_bootinfo {
	uint32_t magic; /* KSLIDE_BOOT_MAGIC */
	uint32_t version;
	uint32_t size; /* sizeof(struct kslide_bootinfo) as the stub knew it */
	uint32_t flags;

	uint64_t phys_base;      /* where the image's first byte is now */
	uint64_t link_phys_base; /* where it was linked */
	uint64_t virt_base;      /* the virtual address of the first byte, after the slide */
	uint64_t link_virt_base;
	uint64_t image_size; /* bytes in memory, including zeroed bss */

	uint64_t phys_slots; /* how many bases were possible */
	uint64_t virt_slots; /* 0 where the virtual base follows the physical one (i386) */
	uint64_t align;

	uint32_t entropy_answered; /* KSLIDE_ENTROPY_* */
	uint32_t entropy_credited; /* conservative bits */

	/* Fresh random bytes for the kernel (e.g. a pointer-hashing key); never the ones that
	 * chose the base. */
	uint8_t seed[KSLIDE_SEED_BYTES];

	uint64_t cmdline; /* physical address of the NUL-terminated command line, or 0 */
	uint64_t mmap;    /* physical address of mmap_count struct kslide_mem_entry */
	uint32_t mmap_count;
	uint32_t module_count;
	uint64_t modules; /* physical address of module_count struct kslide_module */

	uint64_t bootinfo_start; /* physical range holding this struct and its tables */
	uint64_t bootinfo_end;
	uint64_t handoff_start; /* physical range of the x86-64 entry page tables; 0, 0 on i386 */
	uint64_t handoff_end;
	uint64_t virt_align; /* 0 where the virtual base follows the physical one */

	/* UEFI, as the loader reported it: the system table's physical address (0 without
	 * UEFI) and the firmware's width, 32 or 64 (0 without UEFI). */
	uint64_t efi_system_table;
	uint32_t efi_bits;
	uint32_t reserved;
};

/* The slide: how far the kernel moved from where it was linked. */
static inline uint64_t kslide_phys_slide(const struct kslide_bootinfo *bi)
{
	return bi->phys_base - bi->link_phys_base;
}

static inline uint64_t kslide_virt_slide(const struct kslide_bootinfo *bi)
{
	return bi->virt_base - bi->link_virt_base;
}

#endif
