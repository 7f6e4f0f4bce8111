/*
 * word_sums_avx2_rounds (boot/x86_64/word_sums_avx2.h): copy and sum 256 bytes a round, eight
 * rows of eight 32-bit words, then fold the lanes into the word sums. Unaligned loads and
 * stores: the payload sits in the image at any offset.
 *
 * The data as m rows of L = 8 words, row r lane l being word i = 8r + l. Per row, lane-wise:
 *
 *   SUM_OF_SUMS += SUM;  SUM += row
 *
 * one load, one store and two additions a row, about 0.13 instructions a byte where the scalar
 * loop takes 1.07 (docs/results.md). Afterwards SUM[l] = sum_r w[8r+l] and SUM_OF_SUMS[l] =
 * sum_r (m-1-r) w[8r+l]. Taken one word at a time from (a, b), the n = 8m words would give
 *
 *   a' = a + sum_i w[i]
 *   b' = b + n*a + sum_i (n - i) w[i]
 *
 * and n - i = 8(m-1-r) + (8-l), so sum_i (n - i) w[i] = sum_l (8 SUM_OF_SUMS[l] + (8-l) SUM[l]):
 * exact, all of it modulo 2^32, where the order of the additions does not matter.
 *
 * SysV: %rdi = struct word_sums *, %rsi = dst, %rdx = src, %rcx = n (a multiple of 256).
 */
#define SUM %ymm0
#define SUM_OF_SUMS %ymm1
#define LANES 8
#define ROUND 256
#define WORD_SUMS_SUM 0          /* struct word_sums, lib/word_sums.h */
#define WORD_SUMS_SUM_OF_SUMS 4

	.code64
	.section .text.word_sums_avx2_rounds, "ax"
	.globl word_sums_avx2_rounds
	.type word_sums_avx2_rounds, @function
word_sums_avx2_rounds:
	test %rcx, %rcx
	jz 2f
	vpxor SUM, SUM, SUM
	vpxor SUM_OF_SUMS, SUM_OF_SUMS, SUM_OF_SUMS
	/* Count an index up from -n to 0: one add and one branch a round. */
	add %rcx, %rsi
	add %rcx, %rdx
	mov %rcx, %r8
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
	add $ROUND, %rcx
	jnz 1b

	/* Lane-wise 8 SUM_OF_SUMS + (8-l) SUM, then both added across lanes at once. */
	vpslld $3, SUM_OF_SUMS, SUM_OF_SUMS
	vpmulld lane_weights(%rip), SUM, %ymm2
	vpaddd %ymm2, SUM_OF_SUMS, SUM_OF_SUMS
	vphaddd SUM_OF_SUMS, SUM, %ymm2	/* per 128-bit half: s01 s23 w01 w23 */
	vphaddd %ymm2, %ymm2, %ymm2	/* s0123 w0123 ... */
	vextracti128 $1, %ymm2, %xmm3
	vpaddd %xmm3, %xmm2, %xmm2	/* dword 0: sum of the words, 1: their weighted sum */
	vmovd %xmm2, %eax
	vpextrd $1, %xmm2, %edx
	vzeroupper
	/* b += n*a + weighted, a += sum; n in words. */
	shr $2, %r8
	mov WORD_SUMS_SUM(%rdi), %ecx
	imul %ecx, %r8d
	add %r8d, %edx
	add %edx, WORD_SUMS_SUM_OF_SUMS(%rdi)
	add %eax, WORD_SUMS_SUM(%rdi)
2:
	ret
	.size word_sums_avx2_rounds, . - word_sums_avx2_rounds

	.section .rodata.word_sums_avx2_rounds, "a"
	.balign 32
lane_weights:	/* 8 - l for lane l */
	.long LANES, LANES - 1, LANES - 2, LANES - 3, LANES - 4, LANES - 5, LANES - 6, LANES - 7

	.section .note.GNU-stack, "", @progbits
