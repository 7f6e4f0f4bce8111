/*
 * crc32_pclmul_rounds (boot/x86_64/crc32_pclmul.h): lib/crc32.c's CRC-32 by carry-less
 * multiplication, folding four 128-bit lanes 64 bytes a round, then one lane 16 bytes at a
 * time, then 128 bits to 64 and 32, and a bit-reflected Barrett reduction to the remainder.
 * The method and its constants are those of Intel's white paper "Fast CRC Computation for
 * Generic Polynomials Using PCLMULQDQ Instruction" (2009) for the reflected polynomial
 * 0xEDB88320: R1..R5 are x^k mod P(x) for the fold distances, bit-reflected and shifted as
 * the paper shows; P' and u' are P(x) and floor(x^64 / P(x)). The VEX forms (AVX) take
 * unaligned memory operands and a separate destination.
 *
 * SysV: %edi = the CRC register (not inverted), %rsi = data, %rdx = n (>= 64, a multiple of
 * 16); the register after the data in %eax.
 */
#define K %xmm0
	.code64
	.section .text.crc32_pclmul_rounds, "ax"
	.globl crc32_pclmul_rounds
	.type crc32_pclmul_rounds, @function
crc32_pclmul_rounds:
	vmovdqu 0x00(%rsi), %xmm1
	vmovdqu 0x10(%rsi), %xmm2
	vmovdqu 0x20(%rsi), %xmm3
	vmovdqu 0x30(%rsi), %xmm4
	vmovd %edi, K
	vpxor K, %xmm1, %xmm1
	sub $0x40, %rdx
	add $0x40, %rsi
	vmovdqa r2r1(%rip), K
	cmp $0x40, %rdx
	jb 2f
1:	/* each lane := lane.lo * R1 ^ lane.hi * R2 ^ the next 64 bytes' lane */
	.irp r, 1, 2, 3, 4
	vpclmulqdq $0x11, K, %xmm\r, %xmm5
	vpclmulqdq $0x00, K, %xmm\r, %xmm\r
	vpxor %xmm5, %xmm\r, %xmm\r
	vpxor ((\r - 1) * 0x10)(%rsi), %xmm\r, %xmm\r
	.endr
	sub $0x40, %rdx
	add $0x40, %rsi
	cmp $0x40, %rdx
	jae 1b
2:	/* the four lanes into one, 128 bits apart */
	vmovdqa r4r3(%rip), K
	.irp r, 2, 3, 4
	vpclmulqdq $0x11, K, %xmm1, %xmm5
	vpclmulqdq $0x00, K, %xmm1, %xmm1
	vpxor %xmm5, %xmm1, %xmm1
	vpxor %xmm\r, %xmm1, %xmm1
	.endr
	cmp $0x10, %rdx
	jb 4f
3:	/* the rest, 16 bytes at a time */
	vpclmulqdq $0x11, K, %xmm1, %xmm5
	vpclmulqdq $0x00, K, %xmm1, %xmm1
	vpxor %xmm5, %xmm1, %xmm1
	vpxor (%rsi), %xmm1, %xmm1
	sub $0x10, %rdx
	add $0x10, %rsi
	cmp $0x10, %rdx
	jae 3b
4:	/* 128 bits to 64: the low half times R4 onto the high half, with 32 zero bits */
	vpclmulqdq $0x01, %xmm1, K, K
	vpsrldq $0x08, %xmm1, %xmm1
	vpxor K, %xmm1, %xmm1
	/* 64 to 32 */
	vmovdqa r5(%rip), K
	vmovdqa mask32(%rip), %xmm3
	vpsrldq $0x04, %xmm1, %xmm2
	vpand %xmm3, %xmm1, %xmm1
	vpclmulqdq $0x00, K, %xmm1, %xmm1
	vpxor %xmm2, %xmm1, %xmm1
	/* Barrett: the remainder of the 64-bit value by P(x), bit-reflected */
	vmovdqa rupoly(%rip), K
	vpand %xmm3, %xmm1, %xmm2
	vpclmulqdq $0x10, K, %xmm2, %xmm2
	vpand %xmm3, %xmm2, %xmm2
	vpclmulqdq $0x00, K, %xmm2, %xmm2
	vpxor %xmm1, %xmm2, %xmm1
	vpextrd $0x01, %xmm1, %eax
	ret
	.size crc32_pclmul_rounds, . - crc32_pclmul_rounds

	.section .rodata.crc32_pclmul_rounds, "a"
	.balign 16
r2r1:	.quad 0x0000000154442bd4, 0x00000001c6e41596
r4r3:	.quad 0x00000001751997d0, 0x00000000ccaa009e
r5:	.quad 0x0000000163cd6124, 0
mask32:	.quad 0x00000000ffffffff, 0
rupoly:	.quad 0x00000001db710641, 0x00000001f7011641
	.section .note.GNU-stack, "", @progbits
