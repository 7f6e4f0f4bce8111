/* The boot stubs, embedded in kslide-pack so that the tool is one self-contained file. */
	.section .rodata
	.globl stub_i386_start, stub_i386_end, stub_x86_64_start, stub_x86_64_end
	.p2align 4
stub_i386_start:
	.incbin STUB_I386
stub_i386_end:
	.p2align 4
stub_x86_64_start:
	.incbin STUB_X86_64
stub_x86_64_end:
	.section .note.GNU-stack, "", @progbits
