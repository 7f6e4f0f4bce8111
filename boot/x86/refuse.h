/*
 * How every refusal ends: the stub has said why on the console ("kslide: error: ..."); it
 * leaves that on the screen for a few seconds, then resets the machine, so a refused boot
 * never hangs. What comes next is the firmware's or the monitor's choice (the next boot
 * entry; QEMU with -no-reboot exits, status 0).
 *
 * The wait: REFUSE_WAIT_TICKS changes of the CMOS RTC's seconds register (4 to 5 seconds),
 * read through ports 0x70/0x71 (every PC and QEMU's pc, q35 and microvm machines have it).
 * Where no RTC answers, the seconds never change and REFUSE_WAIT_POLLS reads end the wait:
 * each read is two port accesses, ~110 ns under QEMU's TCG (measured: 20,000,000 reads took
 * 2.2 s), 1 to 2 us on hardware, so the bound lies well past the RTC's five seconds on both.
 * The reset, in the order Linux's reboot code tries them (arch/x86/kernel/reboot.c):
 * the keyboard controller's reset line (0xFE to port 0x64), the PCI reset control register
 * (0x06, hard reset, to port 0xCF9: PIIX and ICH chipsets), then a triple fault (an IDT of
 * limit 0 and an interrupt), which resets any x86.
 *
 * One macro serves 32-bit protected mode and long mode (the assembler encodes each); it
 * uses no memory but its own rodata, reached as link address + BASE (a register in
 * parentheses, or nothing), so it runs from the self-check too, before the stub trusts
 * anything or has moved its addresses (boot/x86/self_relocate.h). Clobbers EAX, EBX, ECX, EDX.
 */
#ifndef KSLIDE_BOOT_X86_REFUSE_H
#define KSLIDE_BOOT_X86_REFUSE_H

#define CMOS_INDEX 0x70
#define CMOS_DATA 0x71
#define RTC_SECONDS 0x00
#define REFUSE_WAIT_TICKS 5
#define REFUSE_WAIT_POLLS 100000000
#define KBC_COMMAND 0x64
#define KBC_PULSE_RESET 0xfe
#define PCI_RESET_CONTROL 0xcf9
#define PCI_RESET_HARD 0x06 /* SYS_RST | RST_CPU: a full reset */

.macro REFUSE_AND_RESET base
	cli
	movb $RTC_SECONDS, %al
	outb %al, $CMOS_INDEX
	inb $CMOS_DATA, %al
	movb %al, %ah
	xorl %ebx, %ebx
	movl $REFUSE_WAIT_POLLS, %ecx
7:	movb $RTC_SECONDS, %al
	outb %al, $CMOS_INDEX
	inb $CMOS_DATA, %al
	cmpb %al, %ah
	je 8f
	movb %al, %ah
	addl $1, %ebx
	cmpl $REFUSE_WAIT_TICKS, %ebx
	jae 9f
8:	subl $1, %ecx
	jnz 7b
9:	movb $KBC_PULSE_RESET, %al
	outb %al, $KBC_COMMAND
	movw $PCI_RESET_CONTROL, %dx
	movb $PCI_RESET_HARD, %al
	outb %al, %dx
	lidt 7f\base
	int3
8:	hlt
	jmp 8b
	.pushsection .rodata
7:	.word 0 /* limit 0: every vector faults, the fault too */
	.quad 0
	.popsection
.endm

#endif
