/*
 * The stub checks itself before it trusts itself: the first instructions of both entries
 * (32-bit protected mode, before any write to memory but the loader's information read to
 * learn where the image lies; EAX and EBX, the loader's, survive)
 * sum the stub's words from the end of its kslide header to its end, its code, rodata and
 * data as the loader put them, and compare with the sums kslide-pack wrote into the header
 * (include/kslide/image.h, stub_sum). On a mismatch they write a fixed message to COM1,
 * polled, and reset the machine after a few seconds (boot/x86/refuse.h); nothing else of the
 * stub has run.
 *
 * What this cannot see is itself: a damaged instruction of these few may skip the check
 * (docs/reliability.md gives the exact bytes). The headers before the checked range are
 * checked by others: the Multiboot headers by the loader, the kslide header by the image's
 * CRC-32 (lib/image.c), which runs next. The sums see every changed byte: a changed word
 * changes the plain sum by a non-zero amount modulo 2^32; the sum of sums sees most swaps.
 */
#ifndef KSLIDE_BOOT_X86_SELF_CHECK_H
#define KSLIDE_BOOT_X86_SELF_CHECK_H

#include "boot/x86/refuse.h"
#include "include/kslide/image.h"

#define SELF_CHECK_COM1 0x3f8
#define SELF_CHECK_LSR (SELF_CHECK_COM1 + 5)
#define SELF_CHECK_THR_EMPTY 0x20

/*
 * Falls through when the stub is whole; otherwise says so and resets. The stub may lie away
 * from its link address, by EBP (boot/x86/self_relocate.h): every address here is link
 * address + EBP. Clobbers ECX, EDX, ESI, EDI; keeps EAX, EBX, EBP.
 */
.macro STUB_SELF_CHECK
	leal _stub_checked_start(%ebp), %esi
	leal _stub_end(%ebp), %edi
	xorl %ecx, %ecx
	xorl %edx, %edx
1:	addl (%esi), %ecx
	addl %ecx, %edx
	addl $4, %esi
	cmpl %edi, %esi
	jb 1b
	cmpl %ecx, image_header + KSLIDE_HEADER_STUB_SUM(%ebp)
	jne 2f
	cmpl %edx, image_header + KSLIDE_HEADER_STUB_SUM_OF_SUMS(%ebp)
	je 5f
2:	leal stub_corrupt_message(%ebp), %esi
3:	movw $SELF_CHECK_LSR, %dx
4:	inb %dx, %al
	testb $SELF_CHECK_THR_EMPTY, %al
	jz 4b
	lodsb
	movw $SELF_CHECK_COM1, %dx
	outb %al, %dx
	testb %al, %al
	jnz 3b
	/* The one 32-bit copy: the entries' other refusals in 32-bit mode come here too, after the
	 * stub has moved its addresses (EBP = 0 then). */
	.globl refuse_and_reset32
refuse_and_reset32:
	REFUSE_AND_RESET (%ebp)
	.pushsection .rodata
stub_corrupt_message:
	.asciz "kslide: error: the stub is corrupt (its own sums do not match); not starting the kernel\n"
	.popsection
5:
.endm

#endif
