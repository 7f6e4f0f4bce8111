/* lib/arch.h hooks implemented with real instructions (arch/x86/x86.h). */
#include "arch/x86/arch_ops.h"
#include "arch/x86/x86.h"

static bool op_cpuid_present(void *ctx)
{
	(void)ctx;
	return cpuid_present();
}

static void op_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, struct cpuid_regs *out)
{
	uint32_t r[4];
	(void)ctx;
	cpuid(leaf, subleaf, r);
	out->eax = r[0];
	out->ebx = r[1];
	out->ecx = r[2];
	out->edx = r[3];
}

static bool op_rdrand32(void *ctx, uint32_t *out)
{
	(void)ctx;
	return rdrand32(out);
}

static bool op_rdseed32(void *ctx, uint32_t *out)
{
	(void)ctx;
	return rdseed32(out);
}

static uint64_t op_rdtsc(void *ctx)
{
	(void)ctx;
	return rdtsc();
}

static uint8_t op_inb(void *ctx, uint16_t port)
{
	(void)ctx;
	return inb(port);
}

static void op_outb(void *ctx, uint16_t port, uint8_t value)
{
	(void)ctx;
	outb(port, value);
}

uint32_t arch_firmware_rng[ARCH_FIRMWARE_RNG_WORDS];
uint32_t arch_firmware_rng_words;

static bool op_firmware_rng32(void *ctx, uint32_t *out)
{
	(void)ctx;
	static uint32_t served;
	if (served >= arch_firmware_rng_words || served >= ARCH_FIRMWARE_RNG_WORDS)
		return false;
	*out = arch_firmware_rng[served];
	arch_firmware_rng[served++] = 0;
	return true;
}

const struct arch_ops x86_arch_ops = {
	.ctx = 0,
	.cpuid_present = op_cpuid_present,
	.cpuid = op_cpuid,
	.rdrand32 = op_rdrand32,
	.rdseed32 = op_rdseed32,
	.firmware_rng32 = op_firmware_rng32,
	.rdtsc = op_rdtsc,
	.inb = op_inb,
	.outb = op_outb,
};
