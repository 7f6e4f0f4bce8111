/*
 * Building and loading the x86-64 descriptor tables. As on i386 (kernel/i386/cpu_tables.c)
 * the alias is read-only and the CPU writes descriptors in two cases: the accessed bit of a
 * segment it loads, and the busy bit of the TSS it loads with LTR. So every segment
 * descriptor is built with its accessed bit already set, LTR runs while GDTR still points at
 * the writable copy, and only then do GDTR and IDTR move to the alias for good.
 *
 * No IST stacks: every trap runs on rsp0 from ring 3 or on the current stack in ring 0, and a
 * double fault in the kernel is a panic (or a triple fault) either way.
 */
#include <stddef.h>

#include "arch/x86/arch_ops.h"
#include "arch/x86/sysregs.h"
#include "kernel/arch.h"
#include "kernel/oops.h"
#include "kernel/x86_64/cpu_tables.h"
#include "kernel/x86_64/paging.h"
#include "lib/cpu.h"
#include "lib/errors.h"

#define TRAP_STACK_BYTES 16384

/* Descriptor fields (Intel SDM Vol. 3A, 3.4.5, 6.14.1 and 8.2.3). */
#define SEG_KERNEL_CODE 0x9b /* present, DPL 0, code, execute/read, accessed */
#define SEG_KERNEL_DATA 0x93 /* present, DPL 0, data, read/write, accessed */
#define SEG_USER_CODE 0xfb   /* the same at DPL 3 */
#define SEG_USER_DATA 0xf3
#define SEG_TSS 0x89            /* present, DPL 0, 64-bit TSS, available */
#define SEG_FLAGS_CODE64 0xa    /* 4 KiB granularity, L: 64-bit code */
#define SEG_FLAGS_DATA 0xc      /* 4 KiB granularity, 32-bit (ignored in long mode) */
#define SEG_LIMIT_4G 0xfffff
#define GATE_INTERRUPT 0x8e      /* present, DPL 0, 64-bit interrupt gate */
#define GATE_INTERRUPT_USER 0xee /* the same, callable with INT from ring 3 */

union cpu_tables_page {
	struct cpu_tables t;
	uint8_t page[PAGE_SIZE];
};
_Static_assert(sizeof(struct cpu_tables) <= PAGE_SIZE, "descriptor tables exceed a page");
_Static_assert(offsetof(struct cpu_tables, gdt) == GDT_ALIAS - FIXMAP_VIRT, "GDT alias");
_Static_assert(offsetof(struct cpu_tables, tss) == TSS_ALIAS - FIXMAP_VIRT, "TSS alias");

/* Alone in its page: the alias must show nothing but the tables. */
static union cpu_tables_page tables_page __attribute__((aligned(PAGE_SIZE)));
struct cpu_tables *const cpu_tables = &tables_page.t;
static uint8_t trap_stack[TRAP_STACK_BYTES] __attribute__((aligned(16)));
static bool umip_enabled;

/* The entry stubs of kernel/x86_64/vectors.S: trap_vector_table[i] handles vector i (0..31),
 * syscall_vector the system call. */
extern void (*const trap_vector_table[32])(void);
void syscall_vector(void);

static uint64_t segment(uint32_t base, uint32_t limit, uint8_t access, uint8_t flags)
{
	return (limit & 0xffff) | ((uint64_t)(base & 0xffffff) << 16) | ((uint64_t)access << 40) |
	       ((uint64_t)((limit >> 16) & 0xf) << 48) | ((uint64_t)(flags & 0xf) << 52) |
	       ((uint64_t)(base >> 24) << 56);
}

static struct gate64 gate(uintptr_t handler, uint8_t type)
{
	uint64_t low = (handler & 0xffff) | ((uint64_t)KERNEL_CS << 16) | ((uint64_t)type << 40) |
		       ((uint64_t)((handler >> 16) & 0xffff) << 48);
	return (struct gate64){ low, handler >> 32 };
}

static void build_tables(void)
{
	struct cpu_tables *t = cpu_tables;
	t->gdt[KERNEL_CS / 8] = segment(0, SEG_LIMIT_4G, SEG_KERNEL_CODE, SEG_FLAGS_CODE64);
	t->gdt[KERNEL_DS / 8] = segment(0, SEG_LIMIT_4G, SEG_KERNEL_DATA, SEG_FLAGS_DATA);
	t->gdt[USER_DS / 8] = segment(0, SEG_LIMIT_4G, SEG_USER_DATA, SEG_FLAGS_DATA);
	t->gdt[USER_CS / 8] = segment(0, SEG_LIMIT_4G, SEG_USER_CODE, SEG_FLAGS_CODE64);
	/* The 16-byte system descriptor: the usual 8 bytes, then base bits 63..32. */
	uint64_t tss = TSS_ALIAS;
	t->gdt[TSS_SEL / 8] = segment((uint32_t)tss, sizeof(struct tss64) - 1, SEG_TSS, 0);
	t->gdt[TSS_SEL / 8 + 1] = tss >> 32;

	t->tss.rsp[0] = (uintptr_t)(trap_stack + sizeof(trap_stack));
	t->tss.iomap_base = sizeof(struct tss64); /* no I/O bitmap: no ports for ring 3 */

	for (unsigned v = 0; v < 32; v++)
		t->idt[v] = gate((uintptr_t)trap_vector_table[v], GATE_INTERRUPT);
	t->idt[SYSCALL_VECTOR] = gate((uintptr_t)syscall_vector, GATE_INTERRUPT_USER);
}

/* CS by a far return (long mode has no far jump to an immediate), then the data segments. */
static void load_segments(void)
{
	__asm__ volatile("pushq %0\n\t"
			 "leaq 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"
			 "lretq\n"
			 "1:\n\t"
			 "movw %w1, %%ds\n\tmovw %w1, %%es\n\tmovw %w1, %%ss\n\t"
			 "movw %w1, %%fs\n\tmovw %w1, %%gs"
			 :
			 : "i"(KERNEL_CS), "r"(KERNEL_DS)
			 : "rax", "memory");
}

static void map_alias(void)
{
	/* Read-only and supervisor: pt_map's flags without PTE_WRITABLE. */
	int rc = pt_map(paging_kernel_space(), FIXMAP_VIRT, kernel_virt_to_phys(&tables_page),
			PAGE_SIZE, 0);
	if (rc != KS_OK)
		panic("cannot map the descriptor-table alias: %s", ks_strerror(rc));
	invlpg(FIXMAP_VIRT);
	write_cr0(read_cr0() | CR0_WP);
}

void arch_cpu_init(void)
{
	build_tables();
	map_alias();
	struct desc_ptr gdt = { .limit = sizeof(cpu_tables->gdt) - 1,
				.base = (uintptr_t)cpu_tables->gdt };
	lgdt(&gdt);
	load_segments();
	ltr(TSS_SEL); /* marks the descriptor busy: a write, so before GDTR moves to the alias */

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
