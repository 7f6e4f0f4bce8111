/*
 * C references for the x86-64 relocation oracle: pointer tables, a switch jump table, string
 * and function pointers, and globals in .data, .rodata and .bss. Never run; only linked.
 */
#include <stddef.h>

long kernel_main(long op, long x);

struct op {
	const char *name;
	long (*fn)(long);
};

static long twice(long x) { return 2 * x; }
static long square(long x) { return x * x; }
static long negate(long x) { return -x; }

static const struct op ops[] = { /* .rodata: R_X86_64_64 to strings and functions */
	{ "twice", twice },
	{ "square", square },
	{ "negate", negate },
};

static long counter;		     /* .bss */
long *counter_ptr = &counter;	     /* .data pointing into .bss */
const char *greeting = "hello, x86-64"; /* .data pointing into .rodata */
long (*volatile hook)(long) = square;   /* .data function pointer */
const struct op *const first_op = &ops[0];

/* Dense cases: gcc makes a jump table, "jmp *.L(,%rdi,8)" (R_X86_64_32S) over .quad labels. */
static long dispatch(long op, long x)
{
	switch (op) {
	case 0: return x + 11;
	case 1: return x ^ 0x5a;
	case 2: return x * 7;
	case 3: return x - 13;
	case 4: return x << 3;
	case 5: return x | 0x100;
	case 6: return x / 3;
	case 7: return ~x;
	}
	return 0;
}

long kernel_main(long op, long x)
{
	size_t i = (size_t)op % (sizeof(ops) / sizeof(ops[0]));
	counter += ops[i].fn(x) + dispatch(op, x) + hook(x);
	return counter + (long)greeting[0] + (long)first_op->name[0] + *counter_ptr;
}
