/*
 * kslide-pack's packing policy: the defaults a kernel gets (kslide's windows, Linux's for a
 * bzImage or vmlinux, the limits a kslide note declares), the handoff it is entered by, what
 * a Multiboot kernel's own header changes, and the checks of the options against the kernel.
 * Pure: messages go to the caller (err, and warnings through struct pack_log), so that unit
 * tests reach every rule (tests/unit/test_pack_policy.c).
 */
#ifndef KSLIDE_TOOLS_PACK_POLICY_H
#define KSLIDE_TOOLS_PACK_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tools/pack/image_writer.h"
#include "tools/pack/kernel_elf.h"
#include "tools/pack/kernel_limits.h"
#include "tools/pack/kernel_note.h"
#include "tools/pack/linux_image.h"
#include "tools/pack/multiboot_header.h"

/* Defaults: 2 MiB alignment (a large-page boundary, as Linux's CONFIG_PHYSICAL_ALIGN), at
 * least 16 MiB (clear of ISA DMA and legacy areas). i386 kernels end below the 896 MiB lowmem
 * limit they map at 0xC0000000; x86-64 ones may use any RAM up to 64 TiB. */
#define DEFAULT_ALIGN	   0x200000ull
#define DEFAULT_MIN	   0x1000000ull
#define DEFAULT_MAX_I386   0x38000000ull
#define DEFAULT_MAX_X86_64 0x400000000000ull
#define MIN_ALIGN	   0x1000ull

/* What the command line chose besides the options' values. */
struct pack_choices {
	int stats, verbose;
	int shuffle; /* --shuffle: function-granular shuffling (tools/pack/shuffle_units.h) */
	struct given_options given;
	bool handoff_given;
	int codec; /* --compress: KSLIDE_CODEC_*, PACK_CODEC_AUTO, or PACK_CODEC_DEFAULT without it */
	const char *sign_key, *sign_cert, *key_pass; /* --sign, --cert, --key-pass, or NULL */
};

/* Where warnings go: each is one line's text after "warning: ". */
struct pack_log {
	void (*warn)(void *ctx, const char *text);
	void *ctx;
};

/* The handoffs by name (include/kslide/image.h, KSLIDE_HANDOFF_LIST). */
const char *pack_handoff_name(uint32_t id); /* "?" for an unknown id */
const char *pack_handoff_what(size_t i);    /* the i-th's description, NULL past the last */
const char *pack_handoff_at(size_t i);	    /* the i-th's name, NULL past the last */
const char *pack_handoff_names(void);	    /* "kslide, multiboot, linux" */
int pack_handoff_parse(const char *name, uint32_t *id); /* 0, or -1 for an unknown name */

/* The handoff: --handoff, else the kernel's note, else what its headers say it speaks.
 * Returns why, for --verbose. */
const char *pack_choose_handoff(struct pack_options *opt, const struct pack_choices *ch,
				const struct kernel_note *note, const struct multiboot_requests *mb,
				bool is_linux, const struct pack_log *log);

/* Defaults that depend on the kernel: the physical ceiling and the virtual window (Linux's
 * for a bzImage, li, or a vmlinux), then the limits its kslide note declares. */
void pack_apply_defaults(struct pack_options *opt, const struct kernel_elf *k,
			 const struct linux_image *li, const struct kernel_note *note,
			 const struct pack_choices *ch);

/* --handoff kslide on a Multiboot kernel without a kslide note: refused for x86-64 (its entry
 * is 32-bit, the handoff's long mode), warned of for i386 (its entry expects a Multiboot
 * loader's magic). 0, or -1 with a message about the kernel. */
int pack_check_kslide_handoff(const char *in, const struct pack_options *opt,
			      const struct kernel_elf *k, const struct kernel_note *note,
			      const struct multiboot_requests *mb, const struct pack_log *log,
			      char *err, size_t err_cap);

/* Linux's boot protocol needs a bzImage's setup header, and a bzImage needs that protocol.
 * 0, or -1 with a message about the kernel. */
int pack_check_linux_handoff(const struct pack_options *opt, bool is_linux, char *err,
			     size_t err_cap);

/*
 * The Multiboot pass-through: the kernel moves by a single slide (its physical window, its
 * segments' alignment), its own requests go into the image's headers, its relocatable tag
 * bounds the placement (an option it overrides is warned of) and its entry address tag is
 * the entry. 0, or -1 with a message about the kernel.
 */
int pack_prepare_multiboot(const char *in, struct kernel_elf *k,
			   const struct multiboot_requests *mb, struct pack_options *opt,
			   const struct pack_choices *ch, const struct pack_log *log, char *err,
			   size_t err_cap);

/* What pack_check_options found wrong: an option by itself, or the kernel with the options. */
enum pack_verdict { PACK_OPTIONS_OK = 0, PACK_BAD_OPTION = -1, PACK_BAD_FOR_KERNEL = -2 };

/* The options against each other and against the kernel, after the defaults. */
enum pack_verdict pack_check_options(const struct pack_options *opt, const struct kernel_elf *k,
				     const struct linux_image *li, const struct kernel_note *note,
				     char *err, size_t err_cap);

/* Options that mean nothing for this kernel: warned of, not silently dropped. */
void pack_warn_unused_options(const char *in, const struct kernel_elf *k,
			      const struct pack_choices *ch, const struct pack_log *log);

#endif
