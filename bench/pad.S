/*
 * Padding that makes a reference kernel PAD_BYTES larger, for the boot-cost benchmark: .data
 * filled with a pattern and one absolute pointer (R_386_32, or R_X86_64_64) at the start of
 * every PAD_STRIDE bytes, so the relocation table grows with the image.
 */
#ifndef PAD_STRIDE
#define PAD_STRIDE 256
#endif
#ifdef __x86_64__
#define POINTER .quad
#define POINTER_BYTES 8
#else
#define POINTER .long
#define POINTER_BYTES 4
#endif

	.section .data.bench_pad, "aw"
	.balign POINTER_BYTES
	.globl bench_pad
bench_pad:
	.rept PAD_BYTES / PAD_STRIDE
	POINTER bench_pad
	.fill PAD_STRIDE - POINTER_BYTES, 1, 0xa5
	.endr
