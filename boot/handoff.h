/*
 * The ways out: how the stub enters the kernel. One entry per protocol (boot/handoff_*.c),
 * chosen by the image header's `handoff` field (KSLIDE_HANDOFF_*, kslide-pack --handoff NAME).
 * A handoff runs after the kernel has been moved and relocated; it builds whatever structure
 * its protocol hands over and decides, in C, every register the kernel is entered with. The
 * entry code (boot/<arch>/entry.S) only loads struct entry_regs and jumps.
 */
#ifndef KSLIDE_BOOT_HANDOFF_H
#define KSLIDE_BOOT_HANDOFF_H

/* Offsets of struct entry_regs, for the entry code. */
#define ENTRY_REGS_ENTRY 0
#define ENTRY_REGS_EAX 8
#define ENTRY_REGS_EBX 12
#define ENTRY_REGS_ECX 16
#define ENTRY_REGS_EDX 20
#define ENTRY_REGS_ESI 24
#define ENTRY_REGS_EDI 28
#define ENTRY_REGS_EBP 32

#ifdef __ASSEMBLER__
/*
 * Load the struct entry_regs that ptr (%esi on i386, %rsi on x86-64) points to into the
 * registers, ESI last since it holds the pointer; the entry address is the caller's to push.
 */
.macro LOAD_ENTRY_REGS ptr
	movl ENTRY_REGS_EAX(\ptr), %eax
	movl ENTRY_REGS_EBX(\ptr), %ebx
	movl ENTRY_REGS_ECX(\ptr), %ecx
	movl ENTRY_REGS_EDX(\ptr), %edx
	movl ENTRY_REGS_EDI(\ptr), %edi
	movl ENTRY_REGS_EBP(\ptr), %ebp
	movl ENTRY_REGS_ESI(\ptr), %esi
.endm

/*
 * Forget what the stub computed, once stub_main has returned with ptr (as above) holding its
 * struct entry_regs and the entry address taken (i386: pushed for ret; x86-64: in R11): zero
 * the stack below the stack pointer, [\bottom, SP), where the frames of stub_main and all it
 * called lay (the bases, the generator, the entropy samples), and the entry address in the
 * struct (the kernel's base plus its entry offset). On i386, whose handoffs define every
 * register, what stays is the word ret reads. Scratch: AX, CX, DI, which LOAD_ENTRY_REGS
 * loads afterwards.
 */
.macro WIPE_STUB_STATE ptr, bottom
#ifdef __x86_64__
	leaq \bottom(%rip), %rdi
	movq %rsp, %rcx
	subq %rdi, %rcx
	shrq $3, %rcx
	xorl %eax, %eax
	rep stosq
	movq %rax, ENTRY_REGS_ENTRY(\ptr)
#else
	movl $\bottom, %edi
	movl %esp, %ecx
	subl %edi, %ecx
	shrl $2, %ecx
	xorl %eax, %eax
	rep stosl
	movl %eax, ENTRY_REGS_ENTRY(\ptr)
	movl %eax, ENTRY_REGS_ENTRY + 4(\ptr)
#endif
.endm
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "boot/bootenv.h"
#include "boot/mapping.h"
#include "include/kslide/bootinfo.h"
#include "include/kslide/image.h"

/*
 * The machine state at the jump, besides what the stub's mode gives (i386: 32-bit protected
 * mode, paging off; x86-64: long mode on the tables of boot/x86_64/mapping.c; both: interrupts
 * off, flat segments of the stub's GDT, code 0x10, data 0x18). On x86-64 the 32-bit values
 * are zero-extended into RAX... RBP.
 */
struct entry_regs {
	uint64_t entry; /* the address jumped to */
	uint32_t eax, ebx, ecx, edx, esi, edi, ebp;
};

_Static_assert(offsetof(struct entry_regs, eax) == ENTRY_REGS_EAX, "entry.S offsets");
_Static_assert(offsetof(struct entry_regs, ebp) == ENTRY_REGS_EBP, "entry.S offsets");

/* What a handoff may use. */
struct handoff_context {
	const struct kslide_image_header *image;
	const uint8_t *data;    /* the image's handoff data, image->handoff_data_size bytes */
	struct boot_env *env;   /* what the loader said, with its raw magic and info address */
	struct kslide_bootinfo *bootinfo; /* what the stub did: bases, slots, entropy, seed */
	const struct kernel_mapping *mapping;
	memory_lender lend;     /* memory for the structures the handoff builds */
	const struct phys_reader *mem; /* physical memory, for what the loader gave */
	const char *why;        /* out, on error: what went wrong, for the console */
};

struct kernel_handoff {
	const char *name; /* as kslide-pack --handoff spells it */
	uint32_t id;      /* KSLIDE_HANDOFF_* */
	/* Build the protocol's structures and the registers. KS_OK, or an error with ctx->why. */
	int (*enter)(struct handoff_context *ctx, struct entry_regs *regs);
	/* The kernel is given the stub's own boot_info (by its address) and wipes it once read;
	 * otherwise the stub wipes it after the jump is set up: the protocol copied what it
	 * needed, or needs none of it. */
	bool bootinfo_in_place;
};

extern const struct kernel_handoff handoff_kslide;
extern const struct kernel_handoff handoff_multiboot;
extern const struct kernel_handoff handoff_linux;

/* The handoff an image names (boot/protocols.c), or NULL. */
const struct kernel_handoff *kernel_handoff_for(uint32_t id);

#endif /* __ASSEMBLER__ */
#endif
