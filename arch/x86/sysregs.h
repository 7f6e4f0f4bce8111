/* System registers and descriptor-table instructions, for the reference kernels and the stub. */
#ifndef KSLIDE_ARCH_X86_SYSREGS_H
#define KSLIDE_ARCH_X86_SYSREGS_H

#include <stdint.h>

/* The operand of LGDT/LIDT/SGDT/SIDT: a 16-bit limit and a linear base. */
struct __attribute__((packed)) desc_ptr {
	uint16_t limit;
	uintptr_t base;
};

static inline void lgdt(const struct desc_ptr *p)
{
	__asm__ volatile("lgdt %0" : : "m"(*p) : "memory");
}

static inline void lidt(const struct desc_ptr *p)
{
	__asm__ volatile("lidt %0" : : "m"(*p) : "memory");
}

static inline void sgdt(struct desc_ptr *p)
{
	__asm__ volatile("sgdt %0" : "=m"(*p));
}

static inline void sidt(struct desc_ptr *p)
{
	__asm__ volatile("sidt %0" : "=m"(*p));
}

static inline void ltr(uint16_t sel)
{
	__asm__ volatile("ltr %0" : : "r"(sel) : "memory");
}

static inline uint16_t str(void)
{
	uint16_t sel;
	__asm__ volatile("str %0" : "=r"(sel));
	return sel;
}

/* LDTR: a null selector leaves no LDT, so LAR, LSL, VERR and VERW on a TI=1 selector fail
 * instead of reading a descriptor from wherever the reset LDT (base 0) points. */
static inline void lldt(uint16_t sel)
{
	__asm__ volatile("lldt %0" : : "r"(sel) : "memory");
}

static inline uint16_t sldt(void)
{
	uint16_t sel;
	__asm__ volatile("sldt %0" : "=r"(sel));
	return sel;
}

#define DEFINE_CR(n)                                                            \
	static inline uintptr_t read_cr##n(void)                                \
	{                                                                       \
		uintptr_t v;                                                    \
		__asm__ volatile("mov %%cr" #n ", %0" : "=r"(v));               \
		return v;                                                       \
	}                                                                       \
	static inline void write_cr##n(uintptr_t v)                             \
	{                                                                       \
		__asm__ volatile("mov %0, %%cr" #n : : "r"(v) : "memory");      \
	}
DEFINE_CR(0)
DEFINE_CR(2)
DEFINE_CR(3)
DEFINE_CR(4)
#undef DEFINE_CR

/* Model-specific registers (RDMSR and WRMSR fault on a CPU without them, and for an MSR it
 * does not have). */
static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return (uint64_t)hi << 32 | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t value)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)value), "d"((uint32_t)(value >> 32)));
}

static inline void invlpg(uintptr_t addr)
{
	__asm__ volatile("invlpg (%0)" : : "r"(addr) : "memory");
}

/* Extended control registers (XCR0: which state XSAVE manages and AVX may use). XGETBV and
 * XSETBV fault unless CR4.OSXSAVE is set. */
static inline uint64_t xgetbv(uint32_t xcr)
{
	uint32_t lo, hi;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(xcr));
	return (uint64_t)hi << 32 | lo;
}

static inline void xsetbv(uint32_t xcr, uint64_t value)
{
	__asm__ volatile("xsetbv" : : "c"(xcr), "a"((uint32_t)value), "d"((uint32_t)(value >> 32))
			 : "memory");
}

#endif
