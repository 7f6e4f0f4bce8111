/*
 * Applying a kernel's declared limits (kernel_limits.h). Each limit narrows the packer's
 * default for its option when that option is not given (a declared window the default misses
 * replaces it), and bounds the option when it is: the kernel knows what it can map of
 * itself, a command line does not.
 */
#include <stdio.h>

#include "include/kslide/image.h"
#include "tools/pack/fail.h"
#include "tools/pack/kernel_limits.h"

#define MIB 0x100000ull
#define GIB 0x40000000ull

void kernel_limits_defaults(const struct kernel_note *note, const struct kernel_elf *k,
			    const struct given_options *given, struct pack_options *opt)
{
	if (note->phys_end && !given->max && opt->max > note->phys_end)
		opt->max = note->phys_end;
	/* An alignment is a minimum: it raises the default, never lowers it. */
	if (note->align > opt->align && !given->align)
		opt->align = note->align;
	if (note->align > opt->virt_align && !given->virt_align)
		opt->virt_align = note->align;
	if (k->arch != KSLIDE_ARCH_X86_64 || given->range || (!note->virt_min && !note->virt_end))
		return;
	uint64_t min = note->virt_min, last = note->virt_end - 1; /* 0: the top */
	/* The packer's window narrowed to the declared one, or the declared one if they miss. */
	if (opt->virt_min <= last && min <= opt->virt_last) {
		min = opt->virt_min > min ? opt->virt_min : min;
		last = opt->virt_last < last ? opt->virt_last : last;
	}
	opt->virt_min = min;
	opt->virt_last = last;
}

/* "896 MiB", "64 GiB": for messages that name a limit. */
static const char *in_units(uint64_t x)
{
	static char text[32];
	if (x && x % GIB == 0)
		snprintf(text, sizeof(text), "%llu GiB", (unsigned long long)(x / GIB));
	else if (x % MIB == 0)
		snprintf(text, sizeof(text), "%llu MiB", (unsigned long long)(x / MIB));
	else
		snprintf(text, sizeof(text), "%llu bytes", (unsigned long long)x);
	return text;
}

static int check_physical(const struct kernel_note *note, const struct kernel_elf *k,
			  const struct pack_options *opt, char *err, size_t err_cap)
{
	if (!note->phys_end)
		return 0;
	uint64_t size = opt->memory_size > k->mem_size ? opt->memory_size : k->mem_size;
	if (k->link_phys + size > note->phys_end)
		return pack_fail(
			err, err_cap,
			"it is linked at physical [0x%llx, 0x%llx), beyond the end its own kslide "
			"note declares (0x%llx): it could not run at its link address",
			(unsigned long long)k->link_phys, (unsigned long long)(k->link_phys + size),
			(unsigned long long)note->phys_end);
	if (opt->max > note->phys_end)
		return pack_fail(
			err, err_cap,
			"--max 0x%llx is beyond the kernel's own limit: its kslide note says it "
			"must end at or below 0x%llx (%s), the end of what it maps of itself",
			(unsigned long long)opt->max, (unsigned long long)note->phys_end,
			in_units(note->phys_end));
	return 0;
}

static int check_alignment(const struct kernel_note *note, const struct kernel_elf *k,
			   const struct pack_options *opt, char *err, size_t err_cap)
{
	if (!note->align)
		return 0;
	if (note->align & (note->align - 1))
		return pack_fail(err, err_cap,
				 "its kslide note asks for an alignment of 0x%llx, which is "
				 "not a power of two",
				 (unsigned long long)note->align);
	bool x86_64 = k->arch == KSLIDE_ARCH_X86_64;
	if (opt->align < note->align || (x86_64 && opt->virt_align < note->align))
		return pack_fail(
			err, err_cap,
			"--%s 0x%llx is below the alignment the kernel's kslide note asks for "
			"(0x%llx)",
			opt->align < note->align ? "align" : "virt-align",
			(unsigned long long)(opt->align < note->align ? opt->align
								      : opt->virt_align),
			(unsigned long long)note->align);
	return 0;
}

static int check_virtual(const struct kernel_note *note, const struct kernel_elf *k,
			 const struct pack_options *opt, char *err, size_t err_cap)
{
	if (!note->virt_min && !note->virt_end)
		return 0;
	if (k->arch != KSLIDE_ARCH_X86_64)
		return pack_fail(err, err_cap,
				 "its kslide note declares a virtual window, but an i386 "
				 "kernel's virtual base follows its physical one: leave "
				 "VIRT_MIN and VIRT_END 0 and bound it with PHYS_END");
	uint64_t last = note->virt_end - 1; /* virt_end 0: the top of the address space */
	if (note->virt_min > last)
		return pack_fail(err, err_cap,
				 "its kslide note declares an empty virtual window "
				 "[0x%llx, 0x%llx)",
				 (unsigned long long)note->virt_min,
				 (unsigned long long)note->virt_end);
	if (k->link_virt < note->virt_min || k->link_virt + (k->mem_size - 1) > last)
		return pack_fail(
			err, err_cap,
			"it is linked at virtual 0x%llx, outside the window its own kslide note "
			"declares [0x%llx, 0x%llx): it could not run at its link address",
			(unsigned long long)k->link_virt, (unsigned long long)note->virt_min,
			(unsigned long long)note->virt_end);
	if (opt->virt_min < note->virt_min)
		return pack_fail(
			err, err_cap,
			"--virt-range starts at 0x%llx, below the kernel's own limit: its kslide "
			"note says its virtual range starts at or above 0x%llx",
			(unsigned long long)opt->virt_min, (unsigned long long)note->virt_min);
	if (opt->virt_last > last) {
		char end[40] = "the top of the address space";
		if (opt->virt_last != UINT64_MAX)
			snprintf(end, sizeof(end), "0x%llx", (unsigned long long)opt->virt_last + 1);
		return pack_fail(
			err, err_cap,
			"--virt-range ends at %s, beyond the kernel's own limit: its kslide note "
			"says its virtual range ends at or below 0x%llx",
			end, (unsigned long long)note->virt_end);
	}
	return 0;
}

int kernel_limits_check(const struct kernel_note *note, const struct kernel_elf *k,
			const struct pack_options *opt, char *err, size_t err_cap)
{
	if (check_physical(note, k, opt, err, err_cap) ||
	    check_alignment(note, k, opt, err, err_cap) || check_virtual(note, k, opt, err, err_cap))
		return -1;
	return 0;
}
