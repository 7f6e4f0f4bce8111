/*
 * The checks of syscall3_checked (kernel/user/<arch>/crt0.S), as assembler macros both arches
 * share: registers are loaded with MARK(n) (values no kernel would leave behind, small enough
 * for a sign-extended 32-bit immediate) before the system call, and each that does not come
 * back as it went in sets a bit in EAX. Assembly only.
 */
#ifndef KSLIDE_KERNEL_USER_SYSCALL_CHECK_H
#define KSLIDE_KERNEL_USER_SYSCALL_CHECK_H

#ifdef __x86_64__
#define CHANGED_BITS %rax
#else
#define CHANGED_BITS %eax
#endif
#define MARK(n) (0x5a5a0001 + (n) * 0x10101)
#define CHANGED_FLAGS (1 << 14) /* the flags word */

/* \reg still holds MARK(\n), or bit \n is set. */
.macro CHECK reg, n
	cmp $MARK(\n), \reg
	je 1f
	orl $(1 << \n), %eax
1:
.endm

/* \reg still equals the word at \saved, or bit \bit is set. */
.macro CHECK_SAVED reg, saved, bit
	cmp \saved, \reg
	je 1f
	orl $(1 << \bit), %eax
1:
.endm

/* The flags word at \after still equals the one at \before (\scratch is free), or the
 * flags bit is set; then the bits go to the word \changed points at. */
.macro CHECK_FLAGS_AND_STORE after, before, changed, scratch
	mov \after, \scratch
	cmp \before, \scratch
	je 1f
	orl $CHANGED_FLAGS, %eax
1:	mov \changed, \scratch
	mov CHANGED_BITS, (\scratch)
.endm

#endif
