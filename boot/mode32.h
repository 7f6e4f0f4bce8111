/*
 * The Multiboot machine state's mode (Multiboot2 2.0, 3.3, "I386 machine state"): 32-bit
 * protected mode, paging off, flat segments, interrupts off. The i386 stub runs in it; the
 * x86-64 stub, in long mode, leaves it through a trampoline (boot/x86_64/mode32_trampoline.S).
 */
#ifndef KSLIDE_BOOT_MODE32_H
#define KSLIDE_BOOT_MODE32_H

#include <stdint.h>

#include "boot/handoff.h"
#include "boot/mapping.h"

/*
 * Make the jump set up in regs (EAX...EBP as the handoff chose them) reach the physical
 * address 'entry' in 32-bit protected mode with paging off, CS 0x10 and the data segments
 * 0x18 (flat, 4 GiB). i386: regs->entry = entry. x86-64: regs->entry names a copy of the
 * trampoline in a page from lend (below 4 GiB, mapped one to one by the tables the stub jumps
 * from), ESI that page and EDI the entry; the trampoline keeps EAX, EBX, ECX, EDX and EBP,
 * enters the kernel with ESI = 0, EDI = entry, ESP at the end of its page, CR4.PAE and
 * EFER.LME clear. KS_OK, or an error with *why (the entry above 4 GiB, no memory).
 */
int mode32_enter(struct entry_regs *regs, uint64_t entry, memory_lender lend, const char **why);

#endif
