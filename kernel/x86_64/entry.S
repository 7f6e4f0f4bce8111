/*
 * The x86-64 entry stubs: a template kernel/secrecy/entry_area.c copies into the entry area's code
 * page, where every IDT gate leads. It refers to nothing outside itself (only differences of
 * its own labels, no relocation; tests/boot/leak.sh checks the linked kernel), so the copy
 * holds no address of the image. kernel/secrecy/entry_template.h has the parts i386 shares.
 *
 * From ring 3 the CPU arrives on the entry stack (TSS.rsp0) with the user's CR3 and GS. The
 * stub pushes its error code and vector, swaps in the kernel's GS base (which ring 3 never
 * sees: SWAPGS keeps it in IA32_KERNEL_GS_BASE while ring 3 runs), switches CR3 to the
 * kernel root of the space (the ring-3 root minus one page) and jumps to
 * entry_percpu.kernel_entry through %gs. From ring 0 (a fault in the kernel) GS and CR3 are
 * the kernel's already. kernel_entry (vectors.S) moves the frame off the entry stack.
 *
 * The way back: vectors.S leaves the IRET frame on the entry stack and jumps to
 * entry_exit_to_user, which switches CR3 to the ring-3 root, swaps GS back and returns.
 */
#include "kernel/secrecy/entry_area.h"
#include "kernel/secrecy/entry_template.h"

#define OFFSET_OF_CS 24 /* vector, error code, RIP, then CS */

/* CR3 from one root of the space to the other, RAX kept. */
.macro PTI_SWITCH op, mask
.Lpti_\@:
	.byte 0x66, 0x90
	pushq %rax
	movq %cr3, %rax
	\op $\mask, %rax
	movq %rax, %cr3
	popq %rax
.Lpti_end_\@:
	PTI_RECORD .Lpti_\@, .Lpti_end_\@
.endm

	ENTRY_TEMPLATE_BEGIN

/* On the entry stack: RIP, CS, RFLAGS, RSP, SS for ring 3; the kernel's CR3 and GS. */
entry_exit_to_user:
	PTI_SWITCH orq, PTI_USER_ROOT_BIT
	swapgs
	iretq

	ENTRY_VECTORS
entry_common:
	testb $3, OFFSET_OF_CS(%rsp)
	jz 1f
	swapgs
	PTI_SWITCH andq, ~PTI_USER_ROOT_BIT
1:	jmp *%gs:PERCPU_KERNEL_ENTRY

	ENTRY_TEMPLATE_END
