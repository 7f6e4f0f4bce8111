/*
 * The EFI entry (protocol 3, BOOT_PROTOCOL_UEFI): the firmware calls it as an EFI application
 * (UEFI 2.10, 2.3.4 "x64 Platforms"), in long mode, paging on and identity, interrupts on,
 * with the Microsoft x64 ABI: RCX = the image handle, RDX = the system table, the return
 * address on the stack. It keeps what the ABI says a callee keeps (RBX, RBP, RDI, RSI,
 * R12-R15 on the firmware's stack, RSP in efi_firmware_rsp; XMM6-15 too, which the stub's C,
 * built without SSE, never touches), moves the stub's addresses to where the firmware put
 * it (the PE has no .reloc: boot/x86/self_relocate.h, docs/format.md), and calls
 * efi_main(handle, system table) (boot/efi_main.c) on the stub's own stack. That returns
 * the registers to enter the kernel with, as stub_main does, or NULL:
 *   - the kernel's registers: boot services have exited; load the stub's GDT and join the
 *     x86-64 entry's last steps (stub_enter_kernel, boot/x86_64/entry.S);
 *   - NULL before ExitBootServices (the reason is on COM1): restore the firmware's stack and
 *     registers and return EFI_LOAD_ERROR, and the firmware goes on to its next boot option
 *     (EFI_SUCCESS after a trial draw, boot/efi_trial.c: efi_return_status);
 *   - NULL after it: nothing to return to; the usual refusal, a reset after a few seconds.
 * Until the stub has moved its addresses only RIP-relative addressing is used.
 */
#include "boot/x86/self_relocate.h"
#include "include/protocol/uefi.h"

#define COM1 0x3f8
#define COM1_LINE_STATUS (COM1 + 5)
#define LSR_THR_EMPTY 0x20
#define CODE64_SELECTOR 0x10 /* the stub's GDT (boot/x86_64/entry.S) */
#define DATA_SELECTOR 0x18

	.code64
	.section .text, "ax"
	.globl efi_entry
efi_entry:
	pushq %rbx
	pushq %rbp
	pushq %rdi
	pushq %rsi
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	movq %rsp, efi_firmware_rsp(%rip)
	movq %rcx, %r12
	movq %rdx, %r13
	/* The stub's 32-bit relocation fields need all of it below 4 GiB. */
	leaq _stub_end(%rip), %rax
	shrq $32, %rax
	jnz above_4g
	leaq _image_start(%rip), %rbp
	movl $_image_start, %eax /* the link address: this field is moved too, after use */
	subl %eax, %ebp
	STUB_RELOCATE_SELF64
	leaq stack_top(%rip), %rsp
	movq %r12, %rdi
	movq %r13, %rsi
	call efi_main
	cmpb $0, efi_boot_services_exited(%rip)
	je return_to_firmware
	cli
	lgdt stub_gdt_pointer(%rip)
	pushq $CODE64_SELECTOR
	leaq 1f(%rip), %rcx
	pushq %rcx
	lretq
1:	movl $DATA_SELECTOR, %ecx
	movl %ecx, %ds
	movl %ecx, %es
	movl %ecx, %ss
	xorl %ecx, %ecx
	movl %ecx, %fs
	movl %ecx, %gs
	jmp stub_enter_kernel

	/* Boot services still run: whatever stub_main returned, it cannot be a kernel's
	 * registers (the loader exits them first), so it refused. */
return_to_firmware:
	movq efi_return_status(%rip), %rax
	jmp 3f
above_4g:
	leaq efi_above_4g(%rip), %r8
1:	movzbl (%r8), %ecx
	testl %ecx, %ecx
	jz 2f
	movw $COM1_LINE_STATUS, %dx
4:	inb %dx, %al
	testb $LSR_THR_EMPTY, %al
	jz 4b
	movw $COM1, %dx
	movl %ecx, %eax
	outb %al, %dx
	incq %r8
	jmp 1b
2:	movabsq $EFI_UNSUPPORTED, %rax
3:	movq efi_firmware_rsp(%rip), %rsp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rsi
	popq %rdi
	popq %rbp
	popq %rbx
	ret

	.section .rodata
efi_above_4g:
	.asciz "kslide: error: UEFI loaded the stub above 4 GiB, where it cannot run; returning to the firmware\r\n"

	.bss
	.p2align 3
efi_firmware_rsp:
	.skip 8
