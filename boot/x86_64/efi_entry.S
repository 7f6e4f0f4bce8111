/*
 * The EFI entry (protocol 3, BOOT_PROTOCOL_UEFI): the firmware calls it as an EFI application
 * (UEFI 2.10, 2.3.4 "x64 Platforms"), in long mode, paging on and identity, with the Microsoft
 * x64 ABI: RCX = the image handle, RDX = the system table, the return address on the stack.
 * Not written yet past its first duty: a refusal never hangs. It says so on COM1, as every
 * entry does, and returns EFI_UNSUPPORTED to the firmware, which then tries its next boot
 * option. Only RIP-relative addressing, so it runs wherever the firmware loaded the image;
 * it touches only the registers the ABI lets a callee clobber (RAX, RCX, RDX, R8).
 */
#include "include/protocol/uefi.h"

#define COM1 0x3f8
#define COM1_LINE_STATUS (COM1 + 5)
#define LSR_THR_EMPTY 0x20

	.code64
	.section .text, "ax"
	.globl efi_entry
efi_entry:
	leaq efi_refusal(%rip), %r8
1:	movzbl (%r8), %ecx
	testl %ecx, %ecx
	jz 3f
	movw $COM1_LINE_STATUS, %dx
2:	inb %dx, %al
	testb $LSR_THR_EMPTY, %al
	jz 2b
	movw $COM1, %dx
	movl %ecx, %eax
	outb %al, %dx
	incq %r8
	jmp 1b
3:	movabsq $EFI_UNSUPPORTED, %rax
	ret

	.section .rodata
efi_refusal:
	.asciz "kslide: started by UEFI, whose entry is not written yet: returning to the firmware\r\n"
