/*
 * bool try_write32(uintptr_t addr, uint32_t value): store value at addr from ring 0, and
 * return false instead of panicking if the store faults. trap() resumes a page fault at
 * try_write32_store at try_write32_fixup. The selftests use it to prove the descriptor
 * aliases read-only with the CPU's own write protection, not by reading a PTE.
 */
	.text
	.globl try_write32, try_write32_store, try_write32_fixup
try_write32:
try_write32_store:
	movl %esi, (%rdi)
	movl $1, %eax
	ret
try_write32_fixup:
	xorl %eax, %eax
	ret

	.section .note.GNU-stack, "", @progbits
