/*
 * The only door from lib/ to hardware: a table of functions the caller fills in. The boot stub
 * and the reference kernel point them at real instructions (arch/x86/arch_ops.c); host tests
 * point them at fakes that can be absent, failing or stuck. lib/ never executes a privileged or CPU-specific instruction itself.
 */
#ifndef KSLIDE_LIB_ARCH_H
#define KSLIDE_LIB_ARCH_H

#include <stdbool.h>
#include <stdint.h>

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

struct arch_ops {
	void *ctx; /* passed back to every hook */

	/* True when bit 21 (ID) of EFLAGS can be toggled, i.e. the CPUID instruction exists. */
	bool (*cpuid_present)(void *ctx);
	/* CPUID with EAX=leaf, ECX=subleaf. Only called when cpuid_present() said yes. */
	void (*cpuid)(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out);
	/* One RDRAND/RDSEED attempt: returns the carry flag (true = *out is valid). */
	bool (*rdrand32)(void *ctx, uint32_t *out);
	bool (*rdseed32)(void *ctx, uint32_t *out);
	/* 32 random bits the firmware handed over before the caller took the machine (UEFI's
	 * EFI_RNG_PROTOCOL), each served once: true and *out valid while some remain. NULL
	 * where no firmware can have given any. */
	bool (*firmware_rng32)(void *ctx, uint32_t *out);
	/* Time-stamp counter. Only called when CPUID reported TSC. */
	uint64_t (*rdtsc)(void *ctx);
	/* Legacy port I/O, for the i8254 PIT and the CMOS RTC. */
	uint8_t (*inb)(void *ctx, uint16_t port);
	void (*outb)(void *ctx, uint16_t port, uint8_t value);
};

#endif
