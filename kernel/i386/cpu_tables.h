/*
 * i386 descriptor tables: the IDT, GDT and TSS share one page-aligned page of .bss, reached by
 * the CPU only through a read-only alias at FIXMAP_VIRT. SIDT, SGDT and the TSS base therefore
 * show fixed addresses whatever the slide; the kernel writes the TSS through the direct map.
 */
#ifndef KSLIDE_KERNEL_I386_CPU_TABLES_H
#define KSLIDE_KERNEL_I386_CPU_TABLES_H

#include <stdint.h>

#define IDT_ENTRIES 256
#define GDT_ENTRIES 6

/* The 32-bit TSS (Intel SDM Vol. 3A, 8.2.1); only esp0, ss0 and iomap_base matter here. */
struct tss32 {
	uint32_t link, esp0, ss0, esp1, ss1, esp2, ss2, cr3, eip, eflags;
	uint32_t eax, ecx, edx, ebx, esp, ebp, esi, edi;
	uint32_t es, cs, ss, ds, fs, gs, ldt;
	uint16_t trap, iomap_base;
};

struct cpu_tables {
	uint64_t idt[IDT_ENTRIES];
	uint64_t gdt[GDT_ENTRIES];
	struct tss32 tss;
};

/* The fixed aliases (constant: these are what user mode may learn). */
#define IDT_ALIAS (FIXMAP_VIRT + 0)
#define GDT_ALIAS (FIXMAP_VIRT + IDT_ENTRIES * 8)
#define TSS_ALIAS (GDT_ALIAS + GDT_ENTRIES * 8)

/* The writable original, through the direct map (kernel only). */
extern struct cpu_tables *const cpu_tables;
/* The page table behind the fixmap, for the selftests. */
extern uint32_t fixmap_page_table[];
extern uint32_t boot_page_dir[];

#endif
