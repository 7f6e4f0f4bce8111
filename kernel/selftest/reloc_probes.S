/*
 * Relocation probes. The same targets are listed three times: as absolute pointers in .rodata
 * and in .data (the stub must have moved these by the virtual slide), and PC-relative in .text
 * (which no relocation touches). At run time "address of entry + PC-relative value" is the
 * truth (kernel/selftest/reloc.c).
 */
#define PROBES \
	PROBE(kernel_main) PROBE(probe_data_word) PROBE(probe_bss_word) \
	PROBE(probe_string) PROBE(_kernel_start) PROBE(_kernel_end) PROBE(selftest_run)

#ifdef __x86_64__
#define POINTER .quad
#define POINTER_ALIGN 3
#else
#define POINTER .long
#define POINTER_ALIGN 2
#endif

/* A PIE keeps relocated constants in .data.rel.ro, as the compiler does for const pointers. */
#ifdef __PIE__
	.section .data.rel.ro, "aw"
#else
	.section .rodata
#endif
	.p2align POINTER_ALIGN
	.globl probe_abs_rodata
probe_abs_rodata:
#define PROBE(sym) POINTER sym;
	PROBES
#undef PROBE

	.data
	.p2align POINTER_ALIGN
	.globl probe_abs_data
probe_abs_data:
#define PROBE(sym) POINTER sym;
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

/* uintptr_t probe_pcrel_runtime(void): where probe_pcrel really is, found from the IP. */
	.globl probe_pcrel_runtime
probe_pcrel_runtime:
#ifdef __x86_64__
	leaq probe_pcrel(%rip), %rax
#else
	call 1f
1:	popl %eax
	addl $(probe_pcrel - 1b), %eax
#endif
	ret

	.section .note.GNU-stack, "", @progbits
