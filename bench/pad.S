/*
 * Padding that makes the reference kernel PAD_BYTES larger, for the boot-cost benchmark:
 * .data filled with a pattern and one absolute pointer (an R_386_32 relocation) at the start
 * of every PAD_STRIDE bytes, so the relocation table grows with the image.
 */
#ifndef PAD_STRIDE
#define PAD_STRIDE 256
#endif

	.section .data.bench_pad, "aw"
	.balign 4
	.globl bench_pad
bench_pad:
	.rept PAD_BYTES / PAD_STRIDE
	.long bench_pad
	.fill PAD_STRIDE - 4, 1, 0xa5
	.endr
