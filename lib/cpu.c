/* CPUID feature probe: reads only the leaves the processor says it has. */
#include "lib/cpu.h"

static void clear(struct cpu_features *out)
{
	out->cpuid = false;
	out->max_leaf = 0;
	out->tsc = false;
	out->rdrand = false;
	out->rdseed = false;
	out->umip = false;
	out->smep = false;
	out->smap = false;
}

void cpu_probe(const struct arch_ops *arch, struct cpu_features *out)
{
	struct cpuid_regs r;

	clear(out);
	/* A 486 without the EFLAGS.ID bit faults on CPUID: ask first. */
	if (!arch->cpuid_present(arch->ctx))
		return;
	out->cpuid = true;
	arch->cpuid(arch->ctx, CPUID_LEAF_MAX, 0, &r);
	out->max_leaf = r.eax;

	/* Leaves above the maximum return data of the highest leaf, not zeros (SDM, CPUID). */
	if (out->max_leaf >= CPUID_LEAF_FEATURES) {
		arch->cpuid(arch->ctx, CPUID_LEAF_FEATURES, 0, &r);
		out->tsc = (r.edx & CPUID_01_EDX_TSC) != 0;
		out->rdrand = (r.ecx & CPUID_01_ECX_RDRAND) != 0;
	}
	if (out->max_leaf >= CPUID_LEAF_EXT_FEATURES) {
		arch->cpuid(arch->ctx, CPUID_LEAF_EXT_FEATURES, 0, &r);
		out->rdseed = (r.ebx & CPUID_07_EBX_RDSEED) != 0;
		out->umip = (r.ecx & CPUID_07_ECX_UMIP) != 0;
		out->smep = (r.ebx & CPUID_07_EBX_SMEP) != 0;
		out->smap = (r.ebx & CPUID_07_EBX_SMAP) != 0;
	}
}
