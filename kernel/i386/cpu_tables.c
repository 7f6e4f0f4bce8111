/*
 * Building and loading the descriptor tables. The order matters because the alias is
 * read-only and the CPU writes descriptors in two cases: the accessed bit of a segment it
 * loads, and the busy bit of the TSS it loads with LTR. So every segment descriptor is built
 * with its accessed bit already set, LTR runs while GDTR still points at the writable copy,
 * and only then do GDTR and IDTR move to the alias for good.
 */
#include <stddef.h>

#include "arch/x86/arch_ops.h"
#include "arch/x86/sysregs.h"
#include "kernel/arch.h"
#include "kernel/i386/cpu_tables.h"
#include "kernel/i386/layout.h"
#include "lib/cpu.h"

#define TRAP_STACK_BYTES 8192
#define SYSCALL_VECTOR 0x80

/* Descriptor fields (Intel SDM Vol. 3A, 3.4.5 and 6.11). */
#define SEG_KERNEL_CODE 0x9b /* present, DPL 0, code, execute/read, accessed */
#define SEG_KERNEL_DATA 0x93 /* present, DPL 0, data, read/write, accessed */
#define SEG_USER_CODE 0xfb   /* the same at DPL 3 */
#define SEG_USER_DATA 0xf3
#define SEG_TSS 0x89         /* present, DPL 0, 32-bit TSS, available */
#define SEG_FLAGS_FLAT 0xc   /* 4 KiB granularity, 32-bit */
#define SEG_LIMIT_4G 0xfffff
#define GATE_INTERRUPT 0x8e      /* present, DPL 0, 32-bit interrupt gate */
#define GATE_INTERRUPT_USER 0xee /* the same, callable with INT from ring 3 */

union cpu_tables_page {
	struct cpu_tables t;
	uint8_t page[PAGE_SIZE];
};
_Static_assert(sizeof(struct cpu_tables) <= PAGE_SIZE, "descriptor tables exceed a page");

/* Alone in its page: the alias must show nothing but the tables. */
static union cpu_tables_page tables_page __attribute__((aligned(PAGE_SIZE)));
struct cpu_tables *const cpu_tables = &tables_page.t;
uint32_t fixmap_page_table[PAGE_SIZE / 4] __attribute__((aligned(PAGE_SIZE)));
static uint8_t trap_stack[TRAP_STACK_BYTES] __attribute__((aligned(16)));
static bool umip_enabled;

/* The entry stubs of kernel/i386/vectors.S: trap_vector_table[i] handles vector i (0..31),
 * syscall_vector the system call. */
extern const uintptr_t trap_vector_table[32];
void syscall_vector(void);

static uint64_t segment(uint32_t base, uint32_t limit, uint8_t access, uint8_t flags)
{
	return (limit & 0xffff) | ((uint64_t)(base & 0xffffff) << 16) | ((uint64_t)access << 40) |
	       ((uint64_t)((limit >> 16) & 0xf) << 48) | ((uint64_t)(flags & 0xf) << 52) |
	       ((uint64_t)(base >> 24) << 56);
}

static uint64_t gate(uintptr_t handler, uint8_t type)
{
	return (handler & 0xffff) | ((uint64_t)KERNEL_CS << 16) | ((uint64_t)type << 40) |
	       ((uint64_t)(handler >> 16) << 48);
}

static uint32_t virt_to_phys(const void *p)
{
	return (uint32_t)(uintptr_t)p - KERNEL_VIRT_OFFSET;
}

static void build_tables(void)
{
	struct cpu_tables *t = cpu_tables;
	t->gdt[KERNEL_CS / 8] = segment(0, SEG_LIMIT_4G, SEG_KERNEL_CODE, SEG_FLAGS_FLAT);
	t->gdt[KERNEL_DS / 8] = segment(0, SEG_LIMIT_4G, SEG_KERNEL_DATA, SEG_FLAGS_FLAT);
	t->gdt[USER_CS / 8] = segment(0, SEG_LIMIT_4G, SEG_USER_CODE, SEG_FLAGS_FLAT);
	t->gdt[USER_DS / 8] = segment(0, SEG_LIMIT_4G, SEG_USER_DATA, SEG_FLAGS_FLAT);
	t->gdt[TSS_SEL / 8] = segment(TSS_ALIAS, sizeof(struct tss32) - 1, SEG_TSS, 0);

	t->tss.esp0 = (uint32_t)(uintptr_t)(trap_stack + sizeof(trap_stack));
	t->tss.ss0 = KERNEL_DS;
	t->tss.iomap_base = sizeof(struct tss32); /* no I/O bitmap: no ports for ring 3 */

	for (unsigned v = 0; v < 32; v++)
		t->idt[v] = gate(trap_vector_table[v], GATE_INTERRUPT);
	t->idt[SYSCALL_VECTOR] = gate((uintptr_t)syscall_vector, GATE_INTERRUPT_USER);
}

static void load_segments(void)
{
	__asm__ volatile("ljmp %0, $1f\n1:\n\t"
			 "movw %w1, %%ds\n\tmovw %w1, %%es\n\tmovw %w1, %%fs\n\t"
			 "movw %w1, %%gs\n\tmovw %w1, %%ss"
			 :
			 : "i"(KERNEL_CS), "r"(KERNEL_DS)
			 : "memory");
}

static void map_alias(void)
{
	boot_page_dir[PDE_INDEX_OF_FIXMAP] =
		virt_to_phys(fixmap_page_table) | PTE_PRESENT | PTE_WRITABLE;
	fixmap_page_table[0] = virt_to_phys(&tables_page) | PTE_PRESENT; /* read-only */
	invlpg(FIXMAP_VIRT);
	write_cr0(read_cr0() | CR0_WP);
}

void arch_cpu_init(void)
{
	build_tables();
	struct desc_ptr gdt = { .limit = sizeof(cpu_tables->gdt) - 1,
				.base = (uintptr_t)cpu_tables->gdt };
	lgdt(&gdt);
	load_segments();
	ltr(TSS_SEL); /* marks the descriptor busy: a write, so before the alias */

	map_alias();
	gdt.base = GDT_ALIAS;
	lgdt(&gdt);
	struct desc_ptr idt = { .limit = sizeof(cpu_tables->idt) - 1, .base = IDT_ALIAS };
	lidt(&idt);

	struct cpu_features f;
	cpu_probe(&x86_arch_ops, &f);
	if (f.umip) {
		write_cr4(read_cr4() | CR4_UMIP);
		umip_enabled = true;
	}
}

bool arch_umip_enabled(void)
{
	return umip_enabled;
}

uintptr_t arch_idt_alias(void)
{
	return IDT_ALIAS;
}
