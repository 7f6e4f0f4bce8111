/*
 * The Multiboot (v1) header both stubs start with. The stub is a flat binary, so the a.out
 * kludge fields tell the loader where to put it; kslide-pack extends load_end and bss_end
 * over the payload it appends. The loader enters stub_entry in 32-bit protected mode, paging
 * off (Multiboot spec, "Machine state"), with EAX = 0x2BADB002 and EBX = the info's address.
 * The graphics fields are zero; kslide-pack fills them (and sets flags bit 2) when a packed
 * Multiboot kernel asks its loader for a video mode.
 */
#define MULTIBOOT_MAGIC 0x1BADB002
#define MULTIBOOT_PAGE_ALIGN (1 << 0)  /* modules page aligned */
#define MULTIBOOT_MEMORY_INFO (1 << 1) /* we want mem_* and the memory map */
#define MULTIBOOT_AOUT_KLUDGE (1 << 16) /* load by the address fields below, not as ELF */
#define MULTIBOOT_FLAGS (MULTIBOOT_PAGE_ALIGN | MULTIBOOT_MEMORY_INFO | MULTIBOOT_AOUT_KLUDGE)

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
	.long 0                /* mode_type, width, height, depth: see above */
	.long 0
	.long 0
	.long 0
