/* CPU feature probe: which entropy instructions and protections this processor has. */
#ifndef KSLIDE_LIB_CPU_H
#define KSLIDE_LIB_CPU_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/arch.h"

/*
 * CPUID leaves and bits, from the Intel SDM Vol. 2A, "CPUID—CPU Identification"
 * (tables "Feature Information Returned in the ECX/EDX Register" and "Structured Extended
 * Feature Flags Enumeration Leaf").
 */
#define CPUID_LEAF_MAX 0x00u          /* EAX = highest basic leaf */
#define CPUID_LEAF_FEATURES 0x01u     /* ECX/EDX feature flags */
#define CPUID_LEAF_EXT_FEATURES 0x07u /* subleaf 0: EBX/ECX structured flags */

#define CPUID_LEAF_EXT_MAX 0x80000000u  /* EAX = highest extended leaf */
#define CPUID_LEAF_EXT_INFO 0x80000001u /* EDX: extended processor feature flags */

#define CPUID_01_EDX_TSC (1u << 4)     /* RDTSC */
#define CPUID_01_ECX_RDRAND (1u << 30) /* RDRAND (the seed patch tested bit 26, XSAVE) */
#define CPUID_07_EBX_SMEP (1u << 7)    /* CR4.SMEP: ring 0 cannot fetch from user pages */
#define CPUID_07_EBX_RDSEED (1u << 18) /* RDSEED */
#define CPUID_07_EBX_SMAP (1u << 20)   /* CR4.SMAP: ring 0 cannot touch user pages unless AC */
#define CPUID_07_ECX_UMIP (1u << 2)    /* CR4.UMIP: SGDT/SIDT/SLDT/SMSW/STR fault in ring 3 */
#define CPUID_80000001_EDX_NX (1u << 20) /* EFER.NXE and the XD bit of page-table entries */
#define CPUID_LEAF_XSAVE 0x0du          /* subleaf 0, EAX: the XCR0 bits this CPU supports */
#define CPUID_01_ECX_PCLMULQDQ (1u << 1) /* carry-less multiplication */
#define CPUID_01_ECX_XSAVE (1u << 26)   /* XSAVE, XGETBV, XSETBV, CR4.OSXSAVE */
#define CPUID_01_ECX_AVX (1u << 28)     /* AVX (256-bit registers) */
#define CPUID_07_EBX_AVX2 (1u << 5)     /* AVX2 (256-bit integer instructions) */

struct cpu_features {
	bool cpuid;        /* CPUID instruction present */
	uint32_t max_leaf; /* highest basic leaf, 0 without CPUID */
	bool tsc;
	bool rdrand;
	bool rdseed;
	bool umip;
	bool smep;
	bool smap;
};

/* Fill *out from CPUID, reading a leaf only when the maximum leaf says it exists. */
void cpu_probe(const struct arch_ops *arch, struct cpu_features *out);

#endif
