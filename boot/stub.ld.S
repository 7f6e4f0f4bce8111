/*
 * The stub's linker script, one for both arches: mk/boot.mk runs it through the C preprocessor
 * with STUB_ARCH_i386 or STUB_ARCH_x86_64 defined (and no predefined macros, so that the word
 * i386 survives), into $(BUILD)/<arch>/stub.ld.
 *
 * The stub is linked at 1 MiB, where its Multiboot headers ask to be loaded; a loader may put
 * it elsewhere (a Multiboot2 loader that honours the relocatable tag), and the entry then
 * moves its own addresses there first (boot/x86/self_relocate.h) with the table
 * kslide-stub-relocs made of this link's relocations (--emit-relocs): it lies last, so that
 * the second link, with the table, moves nothing before it. stub_link_override (--defsym,
 * before -T) links a copy elsewhere for the oracle that judges the table. Its bss is kept in
 * the file (inside .data) because kslide-pack appends the payload right after the stub: memory
 * past the file's end belongs to the payload's neighbours, not to us.
 */
#if defined(STUB_ARCH_i386)
OUTPUT_FORMAT("elf32-i386")
OUTPUT_ARCH(i386)
#elif defined(STUB_ARCH_x86_64)
OUTPUT_FORMAT("elf64-x86-64")
OUTPUT_ARCH(i386:x86-64)
#else
#error "define STUB_ARCH_i386 or STUB_ARCH_x86_64"
#endif
ENTRY(stub_entry)

/* Above the BIOS's first MiB: what every PC loader can load to. */
#define STUB_LOAD_ADDRESS 0x100000

SECTIONS
{
	. = DEFINED(stub_link_override) ? stub_link_override : STUB_LOAD_ADDRESS;
	_image_start = .;
	.multiboot : { KEEP(*(.multiboot)) }
	.multiboot2 : { KEEP(*(.multiboot2)) }
	/* x86-64's PVH note (boot/x86_64/pvh_header.S): a word kslide-pack fills, so unchecked. */
	.pvh : { KEEP(*(.pvh)) }
	/* x86-64's EFI mark (boot/x86_64/efi_header.S), for kslide-pack --format efi. */
	.efi : { KEEP(*(.efi)) }
	.kslide_header : { KEEP(*(.kslide_header)) }
	/* From here to _stub_end the entry code checks itself (boot/x86/self_check.h), its own
	 * few instructions first. */
	_stub_checked_start = .;
	.text : { *(.text.entry) *(.text .text.*) }
	.rodata : { *(.rodata .rodata.*) }
	.data : {
		KEEP(*(.data .data.*))
		*(.bss .bss.*)
		*(COMMON)
		/* Contents, so the section stays PROGBITS and objcopy writes the zeros out even
		 * when every input section is bss. */
		LONG(0)
		. = ALIGN(16);
	}
	.stub_relocs : { KEEP(*(.stub_relocs)) }
	_stub_end = .;
	/DISCARD/ : { *(.comment) *(.note .note.*) *(.eh_frame*) }
}
