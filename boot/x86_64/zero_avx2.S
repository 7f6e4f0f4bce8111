/*
 * zero_avx2 (boot/x86_64/zero_avx2.h): whole rounds of eight unaligned 32-byte stores, then
 * 32 bytes at a time, then the last few a byte at a time.
 *
 * SysV: %rdi = dst, %rsi = n.
 */
#define ROUND 256
#define ROW 32
	.code64
	.section .text.zero_avx2, "ax"
	.globl zero_avx2
	.type zero_avx2, @function
zero_avx2:
	vpxor %ymm0, %ymm0, %ymm0
	/* n - ROUND, borrowing when no whole round is left: one sub and one branch a round. */
	sub $ROUND, %rsi
	jb 2f
1:
	.irp i, 0, 1, 2, 3, 4, 5, 6, 7
	vmovdqu %ymm0, (\i * ROW)(%rdi)
	.endr
	add $ROUND, %rdi
	sub $ROUND, %rsi
	jae 1b
2:
	add $ROUND, %rsi
	cmp $ROW, %rsi
	jb 4f
3:
	vmovdqu %ymm0, (%rdi)
	add $ROW, %rdi
	sub $ROW, %rsi
	cmp $ROW, %rsi
	jae 3b
4:
	vzeroupper
	test %rsi, %rsi
	jz 6f
5:
	movb $0, (%rdi)
	inc %rdi
	dec %rsi
	jnz 5b
6:
	ret
	.size zero_avx2, . - zero_avx2
	.section .note.GNU-stack, "", @progbits
