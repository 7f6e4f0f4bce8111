/* Recognising relaxed GOTPCRELX instructions by their bytes (see gotpcrelx.h). */
#include "tools/pack/gotpcrelx.h"

/* Opcodes and ModRM fields, from the Intel SDM, volume 2, and the x86-64 psABI, B.2. */
#define OP_LEA	     0x8d
#define OP_CALL_REL  0xe8
#define OP_JMP_REL   0xe9
#define OP_MOV_IMM   0xc7 /* mov $imm32, r/m (/0) */
#define OP_TEST_IMM  0xf7 /* test $imm32, r/m (/0) */
#define OP_BINOP_IMM 0x81 /* add, or, adc, sbb, and, sub, xor, cmp $imm32, r/m */
#define MODRM_MOD_MASK 0xc0
#define MODRM_MOD_REG  0xc0 /* mod = 11: a register operand, no memory */
#define MODRM_RIP_MASK 0xc7
#define MODRM_RIP      0x05 /* mod = 00, r/m = 101: disp32(%rip) */
#define REX_MASK       0xf0
#define REX	       0x40
#define REX_W	       0x08

enum gotpcrelx_form gotpcrelx_form(const uint8_t *code, size_t field, bool rex)
{
	if (field < GOTPCRELX_PREFIX)
		return GOTPCRELX_UNKNOWN;
	uint8_t prefix = code[field - 3], op = code[field - 2], modrm = code[field - 1];
	bool wide = rex && (prefix & REX_MASK) == REX && (prefix & REX_W);
	/* Immediate forms first: "sub $imm, %rax" has modrm 0xe8, like a call opcode. */
	if ((op == OP_MOV_IMM || op == OP_TEST_IMM || op == OP_BINOP_IMM) &&
	    (modrm & MODRM_MOD_MASK) == MODRM_MOD_REG)
		return wide ? GOTPCRELX_ABS32S : GOTPCRELX_ABS32;
	if (op == OP_LEA && (modrm & MODRM_RIP_MASK) == MODRM_RIP)
		return GOTPCRELX_PCREL;
	/* GNU ld: "addr32 call", "call; nop", "jmp; nop" put the opcode just before the field. */
	if (modrm == OP_CALL_REL || modrm == OP_JMP_REL)
		return GOTPCRELX_PCREL;
	/* lld keeps the label's offset on "jmp *foo@GOTPCREL(%rip)" -> "jmp foo; nop", so the
	 * displacement starts one byte before the labelled field. */
	if (op == OP_JMP_REL)
		return GOTPCRELX_PCREL;
	if ((modrm & MODRM_RIP_MASK) == MODRM_RIP)
		return GOTPCRELX_GOT_LOAD;
	return GOTPCRELX_UNKNOWN;
}
