/* Unit tests for tools/pack/gotpcrelx.c: what a linker left at a GOTPCRELX field. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tools/pack/gotpcrelx.h"

#define FIELD GOTPCRELX_PREFIX /* the 4-byte field follows REX, opcode and modrm */

/* Instruction bytes as objdump shows them, field at code[FIELD]. */
static enum gotpcrelx_form form(uint8_t rex, uint8_t op, uint8_t modrm, bool rex_label)
{
	const uint8_t code[] = { rex, op, modrm, 0x00, 0x10, 0x00, 0x81 };
	return gotpcrelx_form(code, FIELD, rex_label);
}

static void test_lea_rip_relative_is_pc_relative(void **state)
{
	(void)state;
	assert_int_equal(form(0x48, 0x8d, 0x05, true), GOTPCRELX_PCREL); /* lea x(%rip),%rax */
	assert_int_equal(form(0x4c, 0x8d, 0x3d, true), GOTPCRELX_PCREL); /* lea x(%rip),%r15 */
}

static void test_relaxed_call_and_jmp_are_pc_relative(void **state)
{
	(void)state;
	assert_int_equal(form(0x00, 0x67, 0xe8, false), GOTPCRELX_PCREL); /* addr32 call foo */
	assert_int_equal(form(0xc3, 0x90, 0xe9, false), GOTPCRELX_PCREL); /* ld: jmp foo; nop */
	assert_int_equal(form(0x00, 0xe9, 0x08, false), GOTPCRELX_PCREL); /* lld: field + 1 */
}

static void test_rex_w_immediate_is_sign_extended(void **state)
{
	(void)state;
	assert_int_equal(form(0x48, 0xc7, 0xc0, true), GOTPCRELX_ABS32S); /* mov $x,%rax */
	assert_int_equal(form(0x48, 0x81, 0xc1, true), GOTPCRELX_ABS32S); /* add $x,%rcx */
	assert_int_equal(form(0x49, 0xf7, 0xc0, true), GOTPCRELX_ABS32S); /* test $x,%r8 */
}

static void test_sub_from_rax_is_not_mistaken_for_a_call(void **state)
{
	(void)state; /* 48 81 e8: sub $x,%rax; its modrm is the call opcode */
	assert_int_equal(form(0x48, 0x81, 0xe8, true), GOTPCRELX_ABS32S);
}

static void test_immediate_without_rex_w_is_zero_extended(void **state)
{
	(void)state;
	assert_int_equal(form(0x41, 0xc7, 0xc0, true), GOTPCRELX_ABS32);  /* mov $x,%r8d */
	assert_int_equal(form(0x48, 0xc7, 0xc0, false), GOTPCRELX_ABS32); /* no REX label */
}

static void test_unrelaxed_loads_go_through_the_got(void **state)
{
	(void)state;
	assert_int_equal(form(0x48, 0x8b, 0x05, true), GOTPCRELX_GOT_LOAD); /* mov */
	assert_int_equal(form(0x00, 0xff, 0x15, false), GOTPCRELX_GOT_LOAD); /* call * */
	assert_int_equal(form(0x00, 0xff, 0x25, false), GOTPCRELX_GOT_LOAD); /* jmp * */
}

static void test_other_bytes_are_unknown(void **state)
{
	(void)state;
	assert_int_equal(form(0x48, 0x89, 0xc0, true), GOTPCRELX_UNKNOWN); /* mov %rax,%rax */
	assert_int_equal(form(0x48, 0xc7, 0x00, true), GOTPCRELX_UNKNOWN); /* memory operand */
}

static void test_field_too_close_to_the_start_is_unknown(void **state)
{
	(void)state;
	const uint8_t code[] = { 0x8d, 0x05, 0, 0, 0, 0 };
	assert_int_equal(gotpcrelx_form(code, 2, false), GOTPCRELX_UNKNOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lea_rip_relative_is_pc_relative),
		cmocka_unit_test(test_relaxed_call_and_jmp_are_pc_relative),
		cmocka_unit_test(test_rex_w_immediate_is_sign_extended),
		cmocka_unit_test(test_sub_from_rax_is_not_mistaken_for_a_call),
		cmocka_unit_test(test_immediate_without_rex_w_is_zero_extended),
		cmocka_unit_test(test_unrelaxed_loads_go_through_the_got),
		cmocka_unit_test(test_other_bytes_are_unknown),
		cmocka_unit_test(test_field_too_close_to_the_start_is_unknown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
