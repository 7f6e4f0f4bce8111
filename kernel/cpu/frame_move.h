/*
 * The one stack switch both arches' vectors.S make twice: a trap frame from the entry stack to
 * the kernel stack on the way in, the IRET frame back to the entry stack on the way out.
 * Assembly only; AX, CX, SP, WORD and IRET are the mode's registers, width and return.
 *
 * Both run while DS and ES may be ring 3's (i386 reloads them only after the move in, and has
 * put ring 3's back before the move out): a null selector, its code segment, anything it could
 * load. KDATA is the segment the moves store through instead: on i386 SS, which the CPU loaded
 * from the TSS on the way in and which stays the kernel's until IRET; long mode ignores DS.
 * Callers give \top and \entry_stack with their segment too (%ss: or %gs:).
 */
#ifndef KSLIDE_KERNEL_CPU_FRAME_MOVE_H
#define KSLIDE_KERNEL_CPU_FRAME_MOVE_H

#ifdef __x86_64__
#define AX %rax
#define CX %rcx
#define SP %rsp
#define WORD 8
#define IRET iretq
#define KDATA
#else
#define AX %eax
#define CX %ecx
#define SP %esp
#define WORD 4
#define IRET iret
#define KDATA %ss:
#endif
#define IRET_FRAME_WORDS 5 /* IP, CS, FLAGS, SP, SS */

/*
 * With AX and CX saved on top of the stack (CX lowest), moves the \words words above them to
 * the \words words below the top of the stack held in \top (a memory operand), makes that the
 * stack and takes AX and CX back. Through registers only: nothing about the new stack is left
 * behind on the old one (which, on the way in, ring 3's page tables map).
 */
.macro MOVE_FRAME words, top
	mov \top, AX
	sub $(\words * WORD), AX
	.set .Lmoved, 0
	.rept \words
	mov 2 * WORD + .Lmoved * WORD(SP), CX
	mov CX, KDATA .Lmoved * WORD(AX)
	.set .Lmoved, .Lmoved + 1
	.endr
	mov SP, CX
	mov AX, SP
	mov KDATA WORD(CX), AX
	mov KDATA (CX), CX
.endm

/*
 * The end of every trap, with the CPU's frame on top of the stack: back to ring 0 by IRET
 * here, or to ring 3 through the entry area: the frame moves below the entry stack's top
 * (held in \entry_stack) and the exit stub (its address in \exit_stub) returns from there.
 * \percpu_to_ax, when given, runs once AX and CX are saved, for an \entry_stack that needs AX.
 */
.macro RETURN_FROM_TRAP entry_stack, exit_stub, percpu_to_ax
	testb $3, WORD(SP) /* CS, after the IP */
	jz 1f
	push AX
	push CX
	\percpu_to_ax
	MOVE_FRAME IRET_FRAME_WORDS, \entry_stack
	jmp *\exit_stub
1:	IRET
.endm

#endif
