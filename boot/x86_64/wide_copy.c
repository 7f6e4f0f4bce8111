/*
 * x86-64: the payload's copy-and-sum and zero fill on AVX2, and the image checksum on
 * PCLMULQDQ, when CPUID offers them (boot/wide_copy.h), else the plain loops. The stub is built -mgeneral-regs-only and runs with the loader's control
 * registers, where SSE and AVX may well be off; using them takes (Intel SDM Vol. 3A, 13.1 and
 * 13.3, and Vol. 1, 14.3 "Detection of Intel AVX Instructions"):
 *
 *   CPUID.1:ECX.XSAVE, .AVX, CPUID.7.0:EBX.AVX2, and CPUID.0Dh.0:EAX offering XCR0's SSE and
 *     AVX bits
 *   CR0.EM = 0, CR0.TS = 0 (no #NM, no #UD), CR0.MP = 1
 *   CR4.OSFXSR, CR4.OSXMMEXCPT, CR4.OSXSAVE; then XCR0 |= x87 | SSE | AVX.
 *
 * wide_copy_end restores XCR0 (while OSXSAVE is still on: XSETBV needs it), then CR4 and CR0.
 */
#include "arch/x86/sysregs.h"
#include "arch/x86/x86.h"
#include "boot/wide_copy.h"
#include "boot/x86_64/crc32_pclmul.h"
#include "boot/x86_64/word_sums_avx2.h"
#include "boot/x86_64/zero_avx2.h"
#include "lib/cpu.h"

#define CR0_MP (1u << 1)          /* WAIT/FWAIT honour TS */
#define CR0_EM (1u << 2)          /* x87 emulation: SSE and AVX raise #UD */
#define CR0_TS (1u << 3)          /* task switched: SSE and AVX raise #NM */
#define CR4_OSFXSR (1u << 9)      /* the OS saves SSE state: SSE instructions allowed */
#define CR4_OSXMMEXCPT (1u << 10) /* SIMD floating-point exceptions by #XM */
#define CR4_OSXSAVE (1u << 18)    /* XGETBV, XSETBV and XCR0-enabled state (AVX) allowed */
#define XCR0_X87 (1u << 0)        /* always set in XCR0 */
#define XCR0_SSE (1u << 1)
#define XCR0_AVX (1u << 2)
#define XCR0_FOR_AVX (XCR0_X87 | XCR0_SSE | XCR0_AVX)

static bool cpu_has_avx2(void)
{
	uint32_t r[4];
	cpuid(CPUID_LEAF_MAX, 0, r);
	uint32_t max_leaf = r[0];
	if (max_leaf < CPUID_LEAF_XSAVE)
		return false;
	cpuid(CPUID_LEAF_FEATURES, 0, r);
	uint32_t need = CPUID_01_ECX_XSAVE | CPUID_01_ECX_AVX;
	if ((r[2] & need) != need)
		return false;
	cpuid(CPUID_LEAF_EXT_FEATURES, 0, r);
	if (!(r[1] & CPUID_07_EBX_AVX2))
		return false;
	cpuid(CPUID_LEAF_XSAVE, 0, r);
	return (r[0] & XCR0_FOR_AVX) == XCR0_FOR_AVX;
}

static bool cpu_has_pclmulqdq(void)
{
	uint32_t r[4];
	cpuid(CPUID_LEAF_FEATURES, 0, r);
	return r[2] & CPUID_01_ECX_PCLMULQDQ;
}

/* Turn on SSE and AVX, noting in *saved what to undo. */
static void wide_on(struct wide_copy_saved *saved)
{
	saved->changed = true;
	saved->cr0 = read_cr0();
	saved->cr4 = read_cr4();
	write_cr0((saved->cr0 & ~(uintptr_t)(CR0_EM | CR0_TS)) | CR0_MP);
	write_cr4(saved->cr4 | CR4_OSFXSR | CR4_OSXMMEXCPT | CR4_OSXSAVE);
	/* XCR0 keeps its reset value (x87 only) while OSXSAVE is off. */
	saved->xcr0 = (saved->cr4 & CR4_OSXSAVE) ? xgetbv(0) : XCR0_X87;
	xsetbv(0, saved->xcr0 | XCR0_FOR_AVX);
}

static const struct move_routines move_routines_avx2 = { word_sums_copy_avx2, zero_avx2 };

const struct move_routines *wide_copy_begin(struct wide_copy_saved *saved)
{
	saved->changed = false;
	/* Long mode implies CPUID (the entry checked its extended leaf). */
	if (!cpu_has_avx2())
		return &move_routines_plain;
	wide_on(saved);
	return &move_routines_avx2;
}

crc32_fn *wide_crc32_begin(struct wide_copy_saved *saved)
{
	saved->changed = false;
	/* The loop's VEX forms need what the AVX2 copy does. */
	if (!cpu_has_avx2() || !cpu_has_pclmulqdq())
		return crc32_update;
	wide_on(saved);
	return crc32_pclmul;
}

void wide_copy_end(const struct wide_copy_saved *saved)
{
	if (!saved->changed)
		return;
	xsetbv(0, saved->xcr0);
	write_cr4(saved->cr4);
	write_cr0(saved->cr0);
}
