/*
 * The i386 entry stubs: a template kernel/secrecy/entry_area.c copies into the entry area's code page,
 * where every IDT gate leads. It refers to nothing outside itself (only differences of its own
 * labels, no relocation; tests/boot/leak.sh checks the linked kernel), so the copy holds no
 * address of the image. kernel/secrecy/entry_template.h has the parts x86-64 shares.
 *
 * From ring 3 the CPU arrives on the entry stack (TSS.esp0) with the user's CR3. The stub
 * pushes its error code and vector and EAX (ring 3's, on the entry stack), switches CR3 to the
 * kernel root of the space (the ring-3 root minus one page), and jumps to the kernel through
 * this CPU's entry_percpu, whose address DR0 holds and only ring 0 can read
 * (kernel/i386/cpu_tables.c), read through SS: DS is still ring 3's (vectors.S says why). From ring 0 (a fault in the kernel) CR3 is the kernel's already.
 * kernel_entry (vectors.S) takes EAX back and moves the frame off the entry stack.
 *
 * The way back: vectors.S leaves the IRET frame on the entry stack and jumps to
 * entry_exit_to_user, which switches CR3 to the ring-3 root and returns.
 */
#include "kernel/secrecy/entry_area.h"
#include "kernel/secrecy/entry_template.h"

#define OFFSET_OF_CS 16 /* EAX, vector, error code, EIP, then CS */

/* CR3 from one root of the space to the other; EAX is free. */
.macro PTI_SWITCH op, mask
.Lpti_\@:
	.byte 0x66, 0x90
	movl %cr3, %eax
	\op $\mask, %eax
	movl %eax, %cr3
.Lpti_end_\@:
	PTI_RECORD .Lpti_\@, .Lpti_end_\@
.endm

	ENTRY_TEMPLATE_BEGIN

/* On the entry stack: EIP, CS, EFLAGS, ESP, SS for ring 3; the kernel's CR3. */
entry_exit_to_user:
	pushl %eax
	PTI_SWITCH orl, PTI_USER_ROOT_BIT
	popl %eax
	iret

	ENTRY_VECTORS
entry_common:
	pushl %eax
	testb $3, OFFSET_OF_CS(%esp)
	jz 1f
	PTI_SWITCH andl, ~PTI_USER_ROOT_BIT
1:	movl %dr0, %eax
	jmp *%ss:PERCPU_KERNEL_ENTRY(%eax)

	ENTRY_TEMPLATE_END
