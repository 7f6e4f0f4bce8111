/*
 * The PVH header of the x86-64 stub: the ELF note that names its 32-bit entry
 * (include/protocol/pvh.h), and the extent of the image for the stub to check against. A
 * PVH monitor reads the note from the ELF that kslide-pack --format pvh wraps around the image
 * (tools/pack/container_pvh.c, whose PT_NOTE points at these bytes where the PT_LOAD puts
 * them), loads the image at the link address and enters pvh_entry (boot/x86_64/entry.S) in
 * 32-bit protected mode, paging off, with EBX = its hvm_start_info. x86-64 only: ELF64 is the
 * class every PVH monitor loads (Firecracker and Cloud Hypervisor load no other), and an
 * x86-64 kernel is what they start.
 */
#include "include/protocol/pvh.h"

#define ELF64_NOTE_ADDRESS_SIZE 8 /* the descriptor as Linux writes it in an ELF64: _ASM_PTR */

	.section .pvh, "a"
	.p2align 2
	.globl pvh_note, pvh_load_end
pvh_note:
	.long PVH_NOTE_NAME_SIZE
	.long ELF64_NOTE_ADDRESS_SIZE
	.long XEN_ELFNOTE_PHYS32_ENTRY
	.asciz PVH_NOTE_NAME
	.quad pvh_entry
/* Where the loaded image ends: the stub's end here, kslide-pack stretches it over the payload
 * as it writes the PT_LOAD that loads exactly this much (loader_pvh.c's loaded_size). */
pvh_load_end:
	.long _stub_end
