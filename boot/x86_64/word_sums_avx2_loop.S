/*
 * word_sums_avx2_rounds (boot/x86_64/word_sums_avx2.h): copy and sum 256 bytes a round, eight
 * rows of eight 32-bit words. Per row one load, one store and the two lane-wise additions of
 * lib/word_sums.h (sum_of_sums += sum, then sum += row), so about 0.13 instructions a byte
 * where the scalar loop takes 1.07 (docs/results.md). Unaligned loads and stores: the payload
 * sits in the image at any offset and the slot's alignment says nothing of it.
 *
 * SysV: %rdi = lanes, %rsi = dst, %rdx = src, %rcx = n (a multiple of 256).
 */
#define SUM %ymm0
#define SUM_OF_SUMS %ymm1

	.code64
	.section .text.word_sums_avx2_rounds, "ax"
	.globl word_sums_avx2_rounds
	.type word_sums_avx2_rounds, @function
word_sums_avx2_rounds:
	vpxor SUM, SUM, SUM
	vpxor SUM_OF_SUMS, SUM_OF_SUMS, SUM_OF_SUMS
	test %rcx, %rcx
	jz 2f
	/* Count an index up from -n to 0: one add and one branch a round. */
	add %rcx, %rsi
	add %rcx, %rdx
	neg %rcx
1:
	.irp r, 2, 3, 4, 5, 6, 7, 8, 9
	vmovdqu ((\r - 2) * 32)(%rdx, %rcx), %ymm\r
	.endr
	.irp r, 2, 3, 4, 5, 6, 7, 8, 9
	vmovdqu %ymm\r, ((\r - 2) * 32)(%rsi, %rcx)
	.endr
	.irp r, 2, 3, 4, 5, 6, 7, 8, 9
	vpaddd SUM, SUM_OF_SUMS, SUM_OF_SUMS
	vpaddd %ymm\r, SUM, SUM
	.endr
	add $256, %rcx
	jnz 1b
2:
	vmovdqu SUM, (%rdi)
	vmovdqu SUM_OF_SUMS, 32(%rdi)
	vzeroupper
	ret
	.size word_sums_avx2_rounds, . - word_sums_avx2_rounds

	.section .note.GNU-stack, "", @progbits
