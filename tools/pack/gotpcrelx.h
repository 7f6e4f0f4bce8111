/*
 * What a linker left at an R_X86_64_(REX_)GOTPCRELX field. With --emit-relocs, lld keeps the
 * GOTPCRELX label after it has relaxed the instruction (GNU ld 2.40 relabels it), so the
 * instruction bytes, not the label, say whether the field is PC-relative or absolute.
 *
 *   before relaxing                    after                          field
 *   mov  foo@GOTPCREL(%rip), %reg      lea  foo(%rip), %reg           PC-relative
 *   call/jmp *foo@GOTPCREL(%rip)       call foo (67 e8 / e8 90), jmp  PC-relative
 *   mov/test/binop foo@GOTPCREL(%rip)  c7 / f7 / 81 with modrm mod=11 imm32: absolute
 *
 *   REX.W  opcode  modrm  | field (4 bytes)
 *   [P-3]  [P-2]   [P-1]  | [P]
 */
#ifndef KSLIDE_TOOLS_PACK_GOTPCRELX_H
#define KSLIDE_TOOLS_PACK_GOTPCRELX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes before the field that gotpcrelx_form reads (REX, opcode, modrm). */
#define GOTPCRELX_PREFIX 3u

enum gotpcrelx_form {
	GOTPCRELX_PCREL,    /* lea foo(%rip), call foo or jmp foo: moves with the code */
	GOTPCRELX_ABS32,    /* imm32 of a 32-bit operation: zero-extended (RELOC_ADD32) */
	GOTPCRELX_ABS32S,   /* imm32 of a REX.W operation: sign-extended (RELOC_ADD32S) */
	GOTPCRELX_GOT_LOAD, /* not relaxed: reads a GOT entry, which nothing relocates */
	GOTPCRELX_UNKNOWN,  /* none of the forms above */
};

/*
 * The form of the instruction whose GOTPCRELX field starts at code[field]; field must be at
 * least GOTPCRELX_PREFIX (else UNKNOWN). rex: the label was R_X86_64_REX_GOTPCRELX, so
 * code[field - 3] is a REX prefix whose W bit decides the width of an immediate.
 */
enum gotpcrelx_form gotpcrelx_form(const uint8_t *code, size_t field, bool rex);

#endif
