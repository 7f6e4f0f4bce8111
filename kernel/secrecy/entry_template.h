/*
 * What both arches' entry-stub templates (kernel/<arch>/entry.S) share, as assembler macros:
 * the template's bounds, the stubs of the 32 exception vectors and the system call (suffixless
 * PUSH is as wide as the mode), the record of one CR3 switch for kernel/secrecy/entry_area.c, and
 * the table of where each stub lies. Assembly only.
 */
#ifndef KSLIDE_KERNEL_SECRECY_ENTRY_TEMPLATE_H
#define KSLIDE_KERNEL_SECRECY_ENTRY_TEMPLATE_H

#include "kernel/cpu/trap_vectors.h"

/* Everything from here to ENTRY_TEMPLATE_END is copied into the entry area's code page. */
.macro ENTRY_TEMPLATE_BEGIN
	.section .rodata.entry_pti, "a"
	.p2align 2
	.globl entry_pti_sites_start
	.hidden entry_pti_sites_start
entry_pti_sites_start:
	.section .rodata.entry_text, "a"
	.p2align 4
	.globl entry_text_start
	.hidden entry_text_start
entry_text_start:
.endm

/* A CR3 switch from \from to \to, whose first two bytes are a 2-byte NOP: with page-table
 * isolation off, entry_area.c makes them a short jump over the rest. */
.macro PTI_RECORD from, to
	.pushsection .rodata.entry_pti, "a"
	.long \from - entry_text_start, \to - \from - 2
	.popsection
.endm

/* Each vector's stub pushes an error code (0 when the CPU pushes none) and its number; the
 * system call's falls through into what follows ENTRY_VECTORS: entry_common. */
.macro ENTRY_VECTOR n, cpu_pushes_error
entry_vector_\n:
	.if \cpu_pushes_error == 0
	push $0
	.endif
	push $\n
	jmp entry_common
.endm

.macro ENTRY_VECTORS
#define V(n, cpu_pushes_error) ENTRY_VECTOR n, cpu_pushes_error;
	TRAP_VECTORS(V)
#undef V
entry_vector_syscall:
	push $0
	push $0x80
.endm

/* Closes the template and lists, for the IDT, where each stub is in it: differences of the
 * template's own labels, which need no relocation. */
.macro ENTRY_TEMPLATE_END
	.globl entry_text_end
	.hidden entry_text_end
entry_text_end:
	.section .rodata.entry_pti, "a"
	.globl entry_pti_sites_end
	.hidden entry_pti_sites_end
entry_pti_sites_end:
	.section .rodata
	.p2align 2
	.globl entry_vector_offsets, entry_syscall_offset, entry_exit_offset
	.hidden entry_vector_offsets, entry_syscall_offset, entry_exit_offset
entry_vector_offsets:
#define V(n, cpu_pushes_error) .long entry_vector_##n - entry_text_start;
	TRAP_VECTORS(V)
#undef V
entry_syscall_offset:
	.long entry_vector_syscall - entry_text_start
entry_exit_offset:
	.long entry_exit_to_user - entry_text_start
	.section .note.GNU-stack, "", @progbits
.endm

#endif
