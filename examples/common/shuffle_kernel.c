/*
 * The kernel proper of the --shuffle examples (examples/shuffle-i386, a Multiboot 1 kernel, and
 * examples/shuffle-x86_64, a higher-half x86-64 Multiboot one moved by one slide, by the i386
 * stub or, packed --format efi, by the x86-64 stub): every function is its own section
 * (-ffunction-sections), so the stub lays them out in a new order at every boot. It checks its
 * own results through every kind of reference the shuffle must follow, then prints where its
 * functions ended up and ends QEMU with its verdict. Each example's boot code, in plain .text,
 * calls kernel_main(magic, info) and offers fixed_sum. The references (i386 / x86-64
 * relocation types):
 *   - static functions calling each other (PC-relative, between two moving units: R_386_PC32 /
 *     R_X86_64_PLT32);
 *   - the entry in plain .text calling kernel_main (PC-relative, fixed site, moving target),
 *     and the functions calling fixed_sum there (PC-relative, moving site, fixed target);
 *   - a constant table and a data word of function pointers (absolute, fixed site, moving
 *     target: R_386_32 / R_X86_64_64), and function addresses taken in code (absolute, both
 *     moving: R_386_32 / R_X86_64_32S);
 *   - a switch compiled to a jump table in .rodata (absolute, to places inside one function:
 *     R_386_32 / R_X86_64_64);
 *   - x86-64: kernel_main's physical address in the boot code's .rodata (R_X86_64_32 of
 *     kernel_main - KERNEL_VMA, fixed site, moving target);
 *   - each function's own address against the instruction pointer it really runs at, which no
 *     relocation computes: absolute addresses must agree with where the code is.
 */
#include <stdint.h>

#include "../common/console.h"

#define MULTIBOOT_BOOTLOADER_MAGIC 0x2BADB002
/* The x86-64 example has a Multiboot 2 header too: GRUB's multiboot2, or the x86-64 stub of a
 * PE started by UEFI firmware, enter it with this one. */
#define MULTIBOOT2_BOOTLOADER_MAGIC 0x36D76289
#define OPS 16
/* A function's code lies within this many bytes of its address (they are all small). */
#define FUNCTION_REACH 0x200u

void kernel_main(uint32_t magic, const void *mbi);
int fixed_sum(int a, int b); /* the boot code, in plain .text */
#ifdef __x86_64__
#define KERNEL_VMA 0xffffffff80000000ull
extern const uint32_t kernel_main_phys; /* fixed.S: .long kernel_main - KERNEL_VMA */
#endif

static unsigned failures;

static void check(int ok, const char *what, int arg)
{
	if (!ok) {
		failures++;
		kprintf("shuffle-example: FAIL %s (%d)\n", what, arg);
	}
}

/* The return address: where the caller really runs, from the stack, no relocation. */
static __attribute__((noinline)) uintptr_t caller_ip(void)
{
	return (uintptr_t)__builtin_return_address(0);
}

/* The function at 'self' (an absolute address) is the one running this call. */
#define CHECK_RUNNING_AT(self, name)                                                              \
	do {                                                                                      \
		uintptr_t ip = caller_ip();                                                       \
		check(ip - (uintptr_t)(self) < FUNCTION_REACH, "runs where its address says: " name, \
		      0);                                                                         \
	} while (0)

/* op_N(x) = x * (N + 3) + N * N, each through the fixed code's adder. */
#define OP(n)                                                                                     \
	static __attribute__((noinline)) int op##n(int x)                                         \
	{                                                                                         \
		CHECK_RUNNING_AT(op##n, "op" #n);                                                 \
		return fixed_sum(x * ((n) + 3), (n) * (n));                                       \
	}
OP(0) OP(1) OP(2) OP(3) OP(4) OP(5) OP(6) OP(7)
OP(8) OP(9) OP(10) OP(11) OP(12) OP(13) OP(14) OP(15)

static int expected(int n, int x)
{
	return x * (n + 3) + n * n;
}

/* In .rodata: absolute addresses of moving functions. */
static int (*const ops[OPS])(int) = { op0, op1, op2,  op3,  op4,  op5,  op6,  op7,
				      op8, op9, op10, op11, op12, op13, op14, op15 };
/* In .data, written at link time. */
static int (*volatile data_op)(int) = op9;

/* Mutual recursion between two moving functions. */
static int is_odd(unsigned n);
static __attribute__((noinline)) int is_even(unsigned n)
{
	return n == 0 ? 1 : is_odd(n - 1);
}
static __attribute__((noinline)) int is_odd(unsigned n)
{
	return n == 0 ? 0 : is_even(n - 1);
}

/* Dense enough for gcc to jump through a table of addresses inside this function. */
static __attribute__((noinline)) int dispatch(int k, int x)
{
	switch (k) {
	case 0: return op3(x) + 1;
	case 1: return op7(x) - 2;
	case 2: return op1(x) * 3;
	case 3: return op12(x) ^ 5;
	case 4: return op0(x) + op2(x);
	case 5: return op15(x) - 7;
	case 6: return op8(x) << 1;
	case 7: return op11(x) + 11;
	case 8: return op4(x) - 13;
	case 9: return op6(x) * 2;
	}
	return -1;
}

static int dispatch_expected(int k, int x)
{
	static const int via[] = { 3, 7, 1, 12, 0, 15, 8, 11, 4, 6 };
	int v = expected(via[k], x);
	switch (k) {
	case 0: return v + 1;
	case 1: return v - 2;
	case 2: return v * 3;
	case 3: return v ^ 5;
	case 4: return v + expected(2, x);
	case 5: return v - 7;
	case 6: return v << 1;
	case 7: return v + 11;
	case 8: return v - 13;
	}
	return v * 2;
}

/* A function address taken in code (an absolute reference from one unit to another). */
static __attribute__((noinline)) int (*pick(int n))(int)
{
	return n == 5 ? op5 : n == 13 ? op13 : op10;
}

/* Each check first thing in its function, so the call lies near the function's start. */
static __attribute__((noinline)) void run_checks(void)
{
	CHECK_RUNNING_AT(run_checks, "run_checks");
	for (int n = 0; n < OPS; n++)
		for (int x = -3; x < 40; x += 7)
			check(ops[n](x) == expected(n, x), "function table", n);
	check(op14(6) == expected(14, 6), "direct call", 14);
	check(data_op(21) == expected(9, 21), "pointer in .data", 9);
	check(pick(5)(4) == expected(5, 4) && pick(13)(4) == expected(13, 4) &&
		      pick(0)(4) == expected(10, 4),
	      "address taken in code", 0);
	check(pick(13) == ops[13], "the same address from code and from .rodata", 13);
	for (int k = 0; k < 10; k++)
		check(dispatch(k, 17) == dispatch_expected(k, 17), "switch jump table", k);
	check(dispatch(10, 1) == -1, "switch default", 10);
	for (unsigned n = 0; n < 40; n++)
		check(is_even(n) == !(n & 1) && is_odd(n) == (int)(n & 1), "mutual recursion",
		      (int)n);
#ifdef __x86_64__
	check((uintptr_t)kernel_main - KERNEL_VMA == kernel_main_phys,
	      "kernel_main's physical address in a 32-bit field", 0);
#endif
}

/* The functions' order: op indices by address, and each one's offset from fixed_sum, which
 * stays where it was linked. */
static void print_order(void)
{
	int rank[OPS];
	for (int n = 0; n < OPS; n++)
		rank[n] = n;
	for (int i = 1; i < OPS; i++) /* insertion sort by address */
		for (int j = i; j > 0 && (uintptr_t)ops[rank[j]] < (uintptr_t)ops[rank[j - 1]]; j--) {
			int keep = rank[j];
			rank[j] = rank[j - 1];
			rank[j - 1] = keep;
		}
	kprintf("shuffle-example: order");
	for (int i = 0; i < OPS; i++)
		kprintf(" %d", rank[i]);
	kprintf("\n");
	kprintf("shuffle-example: offsets");
	for (int n = 0; n < OPS; n++)
		kprintf(" op%d=0x%x", n, (unsigned)((uintptr_t)ops[n] - (uintptr_t)fixed_sum));
	kprintf(" kernel_main=0x%x\n", (unsigned)((uintptr_t)kernel_main - (uintptr_t)fixed_sum));
	/* the position of op0 among the ops: uniform over 0..OPS-1 when the order is */
	for (int i = 0; i < OPS; i++)
		if (rank[i] == 0)
			kprintf("shuffle-example: op0 position %d\n", i);
}

void kernel_main(uint32_t magic, const void *mbi)
{
	(void)mbi;
	CHECK_RUNNING_AT(kernel_main, "kernel_main");
	console_init();
	check(magic == MULTIBOOT_BOOTLOADER_MAGIC || magic == MULTIBOOT2_BOOTLOADER_MAGIC,
	      "started by a Multiboot loader", 0);
	run_checks();
	print_order();
	if (failures == 0)
		kprintf("shuffle-example: pass\n");
	else
		kprintf("shuffle-example: fail (%u)\n", failures);
	qemu_exit(failures ? 1 : 0);
}
