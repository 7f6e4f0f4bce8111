/* x86 instructions as static inline wrappers, shared by the stub and the reference kernel. */
#ifndef KSLIDE_ARCH_X86_X86_H
#define KSLIDE_ARCH_X86_X86_H

#include <stdbool.h>
#include <stdint.h>

#define EFLAGS_ID (1u << 21) /* writable iff CPUID exists (Intel SDM Vol. 1, 3.4.3.3) */

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint16_t inw(uint16_t port)
{
	uint16_t v;
	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outw(uint16_t port, uint16_t v)
{
	__asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint32_t inl(uint16_t port)
{
	uint32_t v;
	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void outl(uint16_t port, uint32_t v)
{
	__asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

static inline uintptr_t read_flags(void)
{
	uintptr_t f;
	__asm__ volatile("pushf; pop %0" : "=r"(f));
	return f;
}

static inline void write_flags(uintptr_t f)
{
	__asm__ volatile("push %0; popf" : : "r"(f) : "memory", "cc");
}

static inline bool cpuid_present(void)
{
	uintptr_t before = read_flags();
	write_flags(before ^ EFLAGS_ID);
	uintptr_t after = read_flags();
	write_flags(before);
	return ((before ^ after) & EFLAGS_ID) != 0;
}

static inline void cpuid(uint32_t leaf, uint32_t subleaf, uint32_t r[4])
{
	__asm__ volatile("cpuid"
			 : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
			 : "a"(leaf), "c"(subleaf));
}

/* The opcodes are spelled out so that old assemblers need not know the mnemonics. */
static inline bool rdrand32(uint32_t *out)
{
	uint8_t ok;
	uint32_t v;
	__asm__ volatile(".byte 0x0f, 0xc7, 0xf0\n\tsetc %1" : "=a"(v), "=qm"(ok) : : "cc");
	*out = v;
	return ok;
}

static inline bool rdseed32(uint32_t *out)
{
	uint8_t ok;
	uint32_t v;
	__asm__ volatile(".byte 0x0f, 0xc7, 0xf8\n\tsetc %1" : "=a"(v), "=qm"(ok) : : "cc");
	*out = v;
	return ok;
}

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

static inline void cpu_relax(void)
{
	__asm__ volatile("pause");
}

static inline __attribute__((noreturn)) void halt_forever(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}

#endif
