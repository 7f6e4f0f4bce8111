/*
 * The entry area: the only kernel pages a ring-3 process's page tables map, at a page-aligned
 * address drawn at every boot from the boot info's seed (kernel/secrecy/seed_random.h),
 * independently of the kernel's bases, inside [ENTRY_WINDOW_START, ENTRY_WINDOW_END)
 * (kernel/<arch>/layout.h).
 *
 *   page 0  ENTRY_PAGE_TABLES  IDT | GDT | TSS       read-only   what SIDT, SGDT show
 *   page 1  ENTRY_PAGE_CODE    the entry stubs       read-only   where every IDT gate leads
 *   page 2  ENTRY_PAGE_STACK   the entry stack       writable    where the TSS points
 *
 * Nothing in it points into the image: the gates name stubs in page 1, the TSS names the top
 * of page 2, the GDT holds flat segments only (the TSS descriptor is cleared once LTR has
 * loaded it), and the stack only ever holds the frame of the last trap from ring 3. Its frames
 * come from kernel/mm/frames.h, outside the image. The stubs reach the kernel through a value
 * only a register holds (the CPU's struct entry_percpu: x86-64 in the GS base, in an MSR while
 * ring 3 runs; i386 in DR0) and,
 * with page-table isolation, switch CR3 between a user space's two roots: the kernel's
 * (everything) and ring 3's (the user window and this area), one page apart.
 *
 * Safe to include from assembly.
 */
#ifndef KSLIDE_KERNEL_SECRECY_ENTRY_AREA_H
#define KSLIDE_KERNEL_SECRECY_ENTRY_AREA_H

#include "kernel/layout.h"

#define ENTRY_AREA_PAGES 3
#define ENTRY_PAGE_TABLES 0
#define ENTRY_PAGE_CODE 1
#define ENTRY_PAGE_STACK 2
#define ENTRY_WINDOW_PAGES ((ENTRY_WINDOW_END - ENTRY_WINDOW_START) / PAGE_SIZE)

/* A user space's ring-3 root is its kernel root plus one page: the stubs flip this CR3 bit. */
#define PTI_USER_ROOT_BIT PAGE_SIZE

/* struct entry_percpu, as the asm reaches it: x86-64 at %gs:offset, i386 at offset(DR0). */
#ifdef __x86_64__
#define ENTRY_WORD 8
#else
#define ENTRY_WORD 4
#endif
#define PERCPU_KERNEL_ENTRY (0 * ENTRY_WORD)
#define PERCPU_KERNEL_STACK (1 * ENTRY_WORD)
#define PERCPU_ENTRY_STACK (2 * ENTRY_WORD)
#define PERCPU_EXIT_STUB (3 * ENTRY_WORD)
#define PERCPU_USER_ENTRY_SP (4 * ENTRY_WORD)
#define PERCPU_KERNEL_SAVED_SP (5 * ENTRY_WORD)
/* What a trap from ring 3 leaves on the entry stack by the time kernel_entry runs: the CPU's
 * five words, the stub's error code and vector, and on i386 the stub's saved EAX. */
#ifdef __x86_64__
#define ENTRY_STACK_FRAME_BYTES (7 * ENTRY_WORD)
#else
#define ENTRY_STACK_FRAME_BYTES (8 * ENTRY_WORD)
#endif

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stdint.h>

#include "include/kslide/bootinfo.h"

/* What the entry code needs of the kernel, kept in the image and reached only through a
 * register (kernel/<arch>/vectors.S). One per CPU: the boot CPU's here, each AP's in
 * kernel/cpu/cpu_tables.c (cpu_entry_percpu). */
struct entry_percpu {
	uintptr_t kernel_entry;     /* kernel_entry in kernel/<arch>/vectors.S */
	uintptr_t kernel_stack_top; /* where a trap from ring 3 is copied to */
	uintptr_t entry_stack_top;  /* this CPU's slice of the entry stack, in the entry area */
	uintptr_t exit_stub;        /* the way back to ring 3, in the entry area */
	uintptr_t user_entry_sp;    /* where the last trap from ring 3 found its frame */
	uintptr_t kernel_saved_sp;  /* user_enter's stack, for arch_user_exit */
};
extern struct entry_percpu entry_percpu;

/* Draws the area's place, takes its frames, installs the stubs (without the CR3 switches
 * when pti is false) and maps it for the kernel and for every ring-3 root. Panics when there
 * is no memory for it. */
void entry_area_init(const struct kslide_bootinfo *bi, bool pti);

uintptr_t entry_area_base(void);
bool entry_area_pti(void);
/* The writable original of page n, at its direct-map address, and its frame. */
void *entry_area_page(unsigned n);
uint64_t entry_area_frame(unsigned n);
/* Where the stubs are in the area: vector v (0..31), the system call, the exit to ring 3. */
uintptr_t entry_area_vector(unsigned v);
uintptr_t entry_area_syscall(void);
uintptr_t entry_area_exit(void);
uintptr_t entry_area_stack_top(void);
/* True when page 1 holds exactly the stubs entry_area_init installed. */
bool entry_area_code_intact(void);

/* kernel/<arch>/space.c: map the area's frames at base, page n writable when writable[n], in
 * the kernel's tables and in the tables every ring-3 root shares. */
void arch_entry_area_map(uintptr_t base, const uint64_t frames[ENTRY_AREA_PAGES],
			 const bool writable[ENTRY_AREA_PAGES]);
#endif

#endif
