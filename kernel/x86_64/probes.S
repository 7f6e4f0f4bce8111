/*
 * Relocation probes (as kernel/i386/probes.S): the same targets as absolute 64-bit pointers
 * in .rodata and .data, which the stub must have moved by the virtual slide, and as 32-bit
 * PC-relative offsets in .text, which nothing touches.
 */
#define PROBES \
	PROBE(kernel_main) PROBE(probe_data_word) PROBE(probe_bss_word) \
	PROBE(probe_string) PROBE(_kernel_start) PROBE(_kernel_end) PROBE(selftest_run)

/* A PIE keeps relocated constants in .data.rel.ro, as the compiler does for const pointers. */
#ifdef __PIE__
	.section .data.rel.ro, "aw"
#else
	.section .rodata
#endif
	.p2align 3
	.globl probe_abs_rodata
probe_abs_rodata:
#define PROBE(sym) .quad sym;
	PROBES
#undef PROBE

	.data
	.p2align 3
	.globl probe_abs_data
probe_abs_data:
#define PROBE(sym) .quad sym;
	PROBES
#undef PROBE

	.text
	.p2align 2
	.globl probe_pcrel, probe_count
probe_pcrel:
#define PROBE(sym) .long sym - .;
	PROBES
#undef PROBE
probe_pcrel_end:

probe_count:
	.long (probe_pcrel_end - probe_pcrel) / 4

/* uintptr_t probe_pcrel_runtime(void): where probe_pcrel really is, from RIP. */
	.globl probe_pcrel_runtime
probe_pcrel_runtime:
	leaq probe_pcrel(%rip), %rax
	ret
