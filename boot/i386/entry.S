/*
 * i386 stub entry. The boot loader jumps here in 32-bit protected mode, paging off (Multiboot
 * spec, "Machine state"): EAX = 0x2BADB002, EBX = physical address of the Multiboot info.
 * We only set up a stack and call stub_main(magic, info); it returns the kernel's physical
 * entry point, or 0 if the kernel must not be started, in which case we halt.
 */
#define MULTIBOOT_MAGIC 0x1BADB002
#define MULTIBOOT_PAGE_ALIGN (1 << 0)  /* modules page aligned */
#define MULTIBOOT_MEMORY_INFO (1 << 1) /* we want mem_* and the memory map */
#define MULTIBOOT_AOUT_KLUDGE (1 << 16) /* load by the address fields below, not as ELF */
#define MULTIBOOT_FLAGS (MULTIBOOT_PAGE_ALIGN | MULTIBOOT_MEMORY_INFO | MULTIBOOT_AOUT_KLUDGE)
#define KSLIDE_BOOT_MAGIC 0x6b534c44
#define STACK_BYTES 16384

	.section .multiboot, "a"
	.p2align 2
	.globl multiboot_header
multiboot_header:
	.long MULTIBOOT_MAGIC
	.long MULTIBOOT_FLAGS
	.long -(MULTIBOOT_MAGIC + MULTIBOOT_FLAGS)
	.long multiboot_header /* header_addr */
	.long _image_start     /* load_addr */
	.long _stub_end        /* load_end_addr: kslide-pack extends it over the payload */
	.long _stub_end        /* bss_end_addr: likewise */
	.long stub_entry       /* entry_addr */

	.text
	.globl stub_entry
stub_entry:
	cli
	cld
	movl $stack_top, %esp
	pushl $0
	popfl
	pushl %ebx
	pushl %eax
	call stub_main
	testl %eax, %eax
	jz 1f
	movl %eax, %ecx
	movl $KSLIDE_BOOT_MAGIC, %eax
	movl $boot_info, %ebx
	jmp *%ecx
1:	cli
	hlt
	jmp 1b

	.data
	.globl stub_version
stub_version:
	.asciz "kslide stub (i386, Multiboot)"

	.bss
	.p2align 4
stack_bottom:
	.skip STACK_BYTES
stack_top:
