/*
 * kslide-pack's packing policy (policy.h): defaults, the handoff, the Multiboot kernel's own
 * requests, and the checks of the options against the kernel.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "include/kslide/image.h"
#include "tools/pack/base_window.h"
#include "tools/pack/fail.h"
#include "tools/pack/policy.h"
#include "tools/pack/single_slide.h"

/*
 * x86-64 virtual windows, [min, end). A -mcmodel=kernel kernel (ET_EXEC) lives in the top
 * 2 GiB, where its 32-bit sign-extended fields reach, minus the top 16 MiB kept for mappings
 * at fixed addresses. A PIE may go anywhere in the upper half except the first 8 TiB (a
 * direct map of physical memory) and the last 512 GiB (one PML4 entry for fixed mappings and
 * a kernel-model neighbour): 2^46.9 bytes.
 */
#define KERNEL_MODEL_VIRT_MIN 0xffffffff80000000ull
#define KERNEL_MODEL_VIRT_END 0xffffffffff000000ull
#define PIE_VIRT_MIN	      0xffff880000000000ull
#define PIE_VIRT_END	      0xffffff8000000000ull
#define UPPER_HALF	      0xffff800000000000ull
#define I386_ADDRESS_END      0x100000000ull /* the 4 GiB an i386 kernel can address */

/*
 * Linux's own windows, which a bzImage gets by default (an x86-64 vmlinux ELF, known by its
 * per-CPU segment, too). Bases start at the preferred address (LOAD_PHYSICAL_ADDR, the link
 * base) above the kernel map's start, __START_KERNEL_map on x86-64 or PAGE_OFFSET on i386
 * (the ELF's virtual minus physical link base). The image must end inside KERNEL_IMAGE_SIZE:
 * 1 GiB of virtual space on x86-64 with KASLR (arch/x86/include/asm/page_64_types.h), 512 MiB
 * of physical memory on i386 (page_32_types.h), as Linux's own KASLR keeps it.
 */
#define LINUX_X86_64_IMAGE_SIZE 0x40000000ull
#define LINUX_I386_IMAGE_SIZE	0x20000000ull
/* Without XLF_CAN_BE_LOADED_ABOVE_4G a 64-bit kernel must stay below 4 GiB (boot.rst). */
#define BELOW_4G 0x100000000ull

/* --handoff NAME: how the stub enters the kernel (boot/handoff_*.c). */
static const struct {
	uint32_t id;
	const char *name;
	const char *what;
} handoffs[] = {
#define HANDOFF_ENTRY(id, name, what) {id, name, what},
	KSLIDE_HANDOFF_LIST(HANDOFF_ENTRY)
#undef HANDOFF_ENTRY
};
#define HANDOFF_COUNT (sizeof(handoffs) / sizeof(handoffs[0]))

static void warn(const struct pack_log *log, const char *fmt, ...)
{
	char text[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (log && log->warn)
		log->warn(log->ctx, text);
}

const char *pack_handoff_name(uint32_t id)
{
	for (size_t i = 0; i < HANDOFF_COUNT; i++)
		if (handoffs[i].id == id)
			return handoffs[i].name;
	return "?";
}

const char *pack_handoff_at(size_t i)
{
	return i < HANDOFF_COUNT ? handoffs[i].name : NULL;
}

const char *pack_handoff_what(size_t i)
{
	return i < HANDOFF_COUNT ? handoffs[i].what : NULL;
}

const char *pack_handoff_names(void)
{
	static char names[128];
	size_t n = 0;
	for (size_t i = 0; i < HANDOFF_COUNT; i++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "",
				      handoffs[i].name);
	return names;
}

int pack_handoff_parse(const char *name, uint32_t *id)
{
	for (size_t i = 0; i < HANDOFF_COUNT; i++) {
		if (strcmp(name, handoffs[i].name) == 0) {
			*id = handoffs[i].id;
			return 0;
		}
	}
	return -1;
}

/* The verdicts' messages (kslide-pack names the input before one about the kernel). */
__attribute__((format(printf, 3, 4))) static enum pack_verdict bad_option(char *err, size_t err_cap,
									  const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, err_cap, fmt, ap);
	va_end(ap);
	return PACK_BAD_OPTION;
}

__attribute__((format(printf, 3, 4))) static enum pack_verdict
bad_for_kernel(char *err, size_t err_cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, err_cap, fmt, ap);
	va_end(ap);
	return PACK_BAD_FOR_KERNEL;
}

enum pack_verdict pack_check_options(const struct pack_options *opt, const struct kernel_elf *k,
				     const struct linux_image *li, const struct kernel_note *note,
				     char *err, size_t err_cap)
{
	if (opt->align < MIN_ALIGN || (opt->align & (opt->align - 1)))
		return bad_option(err, err_cap, "--align must be a power of two of at least 4K");
	uint64_t linux_min =
		li && li->header.min_alignment_log2 ? 1ull << li->header.min_alignment_log2 : 0;
	if (opt->align < linux_min ||
	    (k->arch == KSLIDE_ARCH_X86_64 && opt->virt_align < linux_min))
		return bad_for_kernel(
			err, err_cap, "--%s 0x%llx is below the kernel's min_alignment (0x%llx)",
			opt->align < linux_min ? "align" : "virt-align",
			(unsigned long long)(opt->align < linux_min ? opt->align : opt->virt_align),
			(unsigned long long)linux_min);
	/* The kernel's own limits first: a default they narrowed below --min is their doing. */
	if (kernel_limits_check(note, k, opt, err, err_cap))
		return PACK_BAD_FOR_KERNEL;
	if (opt->min >= opt->max)
		return bad_option(err, err_cap, "--min must be below --max");
	uint64_t size = opt->memory_size > k->mem_size ? opt->memory_size : k->mem_size;
	if (size > opt->max - opt->min)
		return bad_for_kernel(err, err_cap,
				      "kernel (%llu bytes) does not fit between --min and --max",
				      (unsigned long long)size);
	if (k->arch == KSLIDE_ARCH_I386 && opt->max > I386_ADDRESS_END)
		return bad_option(err, err_cap,
				  "--max is beyond the 4 GiB an i386 kernel can address");
	if (k->arch == KSLIDE_ARCH_X86_64) {
		if (opt->virt_align < MIN_ALIGN || (opt->virt_align & (opt->virt_align - 1)))
			return bad_option(err, err_cap,
					  "--virt-align must be a power of two of at least 4K");
		if (opt->virt_min < UPPER_HALF)
			return bad_option(err, err_cap,
					  "--virt-range must lie in the upper half (from "
					  "0xffff800000000000)");
		if (k->mem_size - 1 > opt->virt_last - opt->virt_min)
			return bad_for_kernel(err, err_cap,
					      "kernel (%llu bytes) does not fit in --virt-range",
					      (unsigned long long)k->mem_size);
	}
	if (base_window_check(k, opt, err, err_cap) ||
	    single_slide_check_window(k, opt, err, err_cap))
		return PACK_BAD_FOR_KERNEL;
	return PACK_OPTIONS_OK;
}

void pack_warn_unused_options(const char *in, const struct kernel_elf *k,
			      const struct pack_choices *ch, const struct pack_log *log)
{
	if ((k->arch != KSLIDE_ARCH_I386 && !k->single_slide) ||
	    (!ch->given.virt_align && !ch->given.range))
		return;
	warn(log, "%s: %s%s%s ignored: %s virtual base follows its physical one", in,
	     ch->given.virt_align ? "--virt-align" : "",
	     ch->given.virt_align && ch->given.range ? " and " : "",
	     ch->given.range ? "--virt-range" : "",
	     k->arch == KSLIDE_ARCH_I386 ? "an i386 kernel's" : "a single-slide (Multiboot) kernel's");
}

/* Whether k is Linux's x86-64 vmlinux: it alone has a per-CPU segment (kernel_elf.h). */
static bool has_fixed_segment(const struct kernel_elf *k)
{
	for (size_t i = 0; i < k->segment_count; i++)
		if (k->segments[i].fixed)
			return true;
	return false;
}

/* Linux's windows (LINUX_*_IMAGE_SIZE above), from its setup header h when there is one. */
static void linux_defaults(struct pack_options *opt, const struct kernel_elf *k,
			   const struct bzimage_header *h, const struct pack_choices *ch)
{
	uint64_t kernel_map = k->link_virt - k->link_phys;
	uint64_t base = h && h->pref_address ? h->pref_address : k->link_phys;
	/* The smallest alignment the kernel declares it tolerates: Debian's 686 kernel booted
	 * to init at 200 of 200 random 8 KiB-aligned bases (docs/linux.md), where its
	 * kernel_alignment, 16 MiB, would leave 30 slots in 1 GiB. */
	if (!ch->given.align && h)
		opt->align =
			h->min_alignment_log2 ? 1ull << h->min_alignment_log2 : h->kernel_alignment;
	if (!ch->given.min)
		opt->min = base;
	if (k->arch == KSLIDE_ARCH_I386) {
		if (!ch->given.max)
			opt->max = LINUX_I386_IMAGE_SIZE;
		return;
	}
	if (!ch->given.max && h && !(h->xloadflags & XLF_CAN_BE_LOADED_ABOVE_4G))
		opt->max = BELOW_4G;
	if (!ch->given.virt_align)
		opt->virt_align = opt->align;
	if (!ch->given.range) {
		opt->virt_min = kernel_map + base;
		opt->virt_last = kernel_map + LINUX_X86_64_IMAGE_SIZE - 1;
	}
}

void pack_apply_defaults(struct pack_options *opt, const struct kernel_elf *k,
			 const struct linux_image *li, const struct kernel_note *note,
			 const struct pack_choices *ch)
{
	if (!ch->given.max)
		opt->max = k->arch == KSLIDE_ARCH_I386 ? DEFAULT_MAX_I386 : DEFAULT_MAX_X86_64;
	if (!opt->virt_align)
		opt->virt_align = opt->align;
	if (!ch->given.range) {
		opt->virt_min = k->pie ? PIE_VIRT_MIN : KERNEL_MODEL_VIRT_MIN;
		opt->virt_last = (k->pie ? PIE_VIRT_END : KERNEL_MODEL_VIRT_END) - 1;
	}
	if (li || has_fixed_segment(k))
		linux_defaults(opt, k, li ? &li->header : NULL, ch);
	kernel_limits_defaults(note, k, &ch->given, opt);
}

const char *pack_choose_handoff(struct pack_options *opt, const struct pack_choices *ch,
				const struct kernel_note *note, const struct multiboot_requests *mb,
				bool is_linux, const struct pack_log *log)
{
	if (ch->handoff_given) {
		if (note->present && note->handoff && note->handoff != opt->handoff)
			warn(log,
			     "the kernel's kslide note asks for --handoff %s; --handoff %s "
			     "overrides it",
			     pack_handoff_name(note->handoff), pack_handoff_name(opt->handoff));
		return "as --handoff asks";
	}
	if (is_linux) {
		opt->handoff = KSLIDE_HANDOFF_LINUX;
		return "a Linux bzImage";
	}
	if (note->present && note->handoff) {
		opt->handoff = note->handoff;
		return "as the kernel's kslide note asks";
	}
	if (!note->present && (mb->mb1 || mb->mb2)) {
		opt->handoff = KSLIDE_HANDOFF_MULTIBOOT;
		return "the kernel has a Multiboot header and no kslide note";
	}
	opt->handoff = KSLIDE_HANDOFF_KSLIDE;
	return note->present ? "the kernel's kslide note leaves it to kslide-pack"
			     : "the kernel has no Multiboot header";
}

int pack_check_kslide_handoff(const char *in, const struct pack_options *opt,
			      const struct kernel_elf *k, const struct kernel_note *note,
			      const struct multiboot_requests *mb, const struct pack_log *log,
			      char *err, size_t err_cap)
{
	if (opt->handoff != KSLIDE_HANDOFF_KSLIDE || note->present || (!mb->mb1 && !mb->mb2))
		return 0;
	if (k->arch == KSLIDE_ARCH_X86_64)
		return pack_fail(err, err_cap,
				 "--handoff kslide enters an x86-64 kernel in long mode, but this "
				 "one has a Multiboot header and no kslide note: its entry is 32-bit "
				 "code for a Multiboot loader. Leave --handoff out: the multiboot "
				 "handoff enters it as its loader would, moved by one delta");
	warn(log,
	     "%s: --handoff kslide enters the kernel with EAX = KSLIDE_BOOT_MAGIC and kslide's "
	     "boot info, but it has a Multiboot header and no kslide note: a Multiboot entry "
	     "expects its loader's magic and information (leave --handoff out for the multiboot "
	     "handoff)",
	     in);
	return 0;
}

int pack_check_linux_handoff(const struct pack_options *opt, bool is_linux, char *err,
			     size_t err_cap)
{
	if (is_linux && opt->handoff != KSLIDE_HANDOFF_LINUX)
		return pack_fail(err, err_cap,
				 "a Linux bzImage is entered by Linux's boot protocol (--handoff "
				 "linux), not --handoff %s",
				 pack_handoff_name(opt->handoff));
	if (!is_linux && opt->handoff == KSLIDE_HANDOFF_LINUX)
		return pack_fail(err, err_cap,
				 "--handoff linux needs a Linux bzImage, whose setup header the "
				 "zero page is built around");
	return 0;
}

/* The kernel's Multiboot2 relocatable tag narrows the window; an option it overrides is named. */
static void narrow(const char *in, const char *option, bool given, uint64_t *value, uint64_t to,
		   bool narrower, const struct pack_log *log)
{
	if (!narrower)
		return;
	if (given)
		warn(log,
		     "%s: %s 0x%llx overridden by the kernel's Multiboot2 relocatable tag: 0x%llx",
		     in, option, (unsigned long long)*value, (unsigned long long)to);
	*value = to;
}

/* The kernel's Multiboot2 entry address tag, which must name code inside the kernel. */
static int take_entry(struct kernel_elf *k, const struct multiboot_requests *mb, char *err,
		      size_t err_cap)
{
	if (mb->entry_addr < k->link_phys || mb->entry_addr - k->link_phys >= k->mem_size)
		return pack_fail(err, err_cap,
				 "its Multiboot2 entry address 0x%x lies outside the kernel",
				 (unsigned)mb->entry_addr);
	if (!kernel_elf_runs_code_at(k, mb->entry_addr - k->link_phys))
		return pack_fail(err, err_cap,
				 "its Multiboot2 entry address 0x%x is not in the file bytes of an "
				 "executable segment: an entry point must be code",
				 (unsigned)mb->entry_addr);
	k->entry_offset = mb->entry_addr - k->link_phys;
	k->entry_not_code[0] = '\0'; /* e_entry is not the entry */
	return 0;
}

int pack_prepare_multiboot(const char *in, struct kernel_elf *k,
			   const struct multiboot_requests *mb, struct pack_options *opt,
			   const struct pack_choices *ch, const struct pack_log *log, char *err,
			   size_t err_cap)
{
	if (mb->refusal[0])
		return pack_fail(err, err_cap, "%s", mb->refusal);
	if (k->arch == KSLIDE_ARCH_X86_64 && !mb->mb1 && !mb->mb2)
		return pack_fail(err, err_cap,
				 "--handoff multiboot enters an x86-64 kernel at a 32-bit Multiboot "
				 "entry, which this kernel has no header for; an entry in long mode "
				 "takes --handoff kslide");
	if (single_slide_choose(k, opt, ch, err, err_cap))
		return -1;
	if (mb->entry_given && take_entry(k, mb, err, err_cap))
		return -1;
	if (mb->bounded) {
		narrow(in, "--min", ch->given.min, &opt->min, mb->min_addr, mb->min_addr > opt->min,
		       log);
		narrow(in, "--max", ch->given.max, &opt->max, mb->max_end, mb->max_end < opt->max,
		       log);
		narrow(in, "--align", ch->given.align, &opt->align, mb->align,
		       mb->align > opt->align, log);
	}
	if (mb->mb2_dropped)
		warn(log,
		     "%s: %zu optional Multiboot2 tag%s of the kernel's header left out of the "
		     "image, which relocation cannot honour: type %u (%s)%s",
		     in, mb->mb2_dropped, mb->mb2_dropped == 1 ? "" : "s",
		     (unsigned)mb->mb2_dropped_type, mb->mb2_dropped_name,
		     mb->mb2_dropped > 1 ? " and others" : "");
	/* Without a header of its own the kernel takes what either kind of loader gives. */
	opt->multiboot = mb->mb1 || mb->mb2 ? mb : NULL;
	return 0;
}
