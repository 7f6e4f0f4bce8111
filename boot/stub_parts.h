/*
 * The stub's parts, one file per job, and the little state they share. boot/stub.c only
 * orchestrates them (stub_main); none knows which loader started the stub.
 *
 *   boot/stub_options.c   the stub's words on the command line (nokaslr, kaslr, kslide.*)
 *   boot/stub_slots.c     the memory map to slots, and memory lent to the mapping and handoffs
 *   boot/stub_choose.c    the base policy: entropy, the physical and the virtual draw
 *   boot/stub_relocate.c  moving (or decoding) and relocating the kernel
 *   boot/stub_shuffle.c   the function sections in a random order (kslide-pack --shuffle)
 *   boot/stub_report.c    boot_info, the report line, the entropy credit check
 *   boot/stub_image.c     the image as its loader loaded it
 */
#ifndef KSLIDE_BOOT_STUB_PARTS_H
#define KSLIDE_BOOT_STUB_PARTS_H

#include <stdbool.h>
#include <stdint.h>

#include "boot/bootenv.h"
#include "boot/handoff.h"
#include "boot/loader.h"
#include "boot/mapping.h"
#include "boot/placement.h"
#include "include/kslide/image.h"
#include "lib/entropy.h"
#include "lib/pool.h"
#include "lib/slots.h"

#define OPTION_MAX	  64		 /* longest option value the stub reads */
#define ADDRESS_SPACE_END 0x100000000ull /* what the stub reaches before the handoff */

/* Filled in by kslide-pack; the stub reads it but never trusts it unverified (stub.c). */
extern struct kslide_image_header image_header;
/* The packed image's first byte, where the loader put it (struct boot_entry, stub.c). */
extern const uint8_t *stub_image;
/* What the loader said, as its parser filled it (stub.c). */
extern struct boot_env stub_env;

/* "kslide: error: WHAT: DETAIL; not starting the kernel"; returns NULL for stub_main. */
const struct entry_regs *stub_error(const char *what, const char *detail);
/* "kslide: warning: WHAT", and the stub carries on. */
void stub_warn(const char *what);

/* stub_options.c */
uint32_t stub_cmdline_length(void);
bool options_randomize(void);		/* nokaslr, kaslr and the image's default */
void options_warn_unknown_words(bool from_uefi); /* kslide.* words it does not know */
uint32_t options_entropy_sources(void); /* kslide.entropy=, as ENTROPY_BIT()s */

/* stub_slots.c */
/* Slots for 'size' bytes of free usable RAM whose last byte lies in [min, max_last]. */
int slots_build(struct slot_map *map, uint64_t size, uint64_t align, uint64_t min,
		    uint64_t max_last);
bool slots_link_base_free(void);
void slots_refuse_link_address(void);	   /* says why the link address cannot take it */
int slots_lend(uint64_t size, uint64_t *addr); /* a memory_lender (boot/mapping.h) */
void slots_forget(void); /* wipe every table that held the kernel's range; no slot or loan after */

/* stub_choose.c */
struct virt_choice {
	uint64_t base;
	uint64_t slots; /* 0 when the virtual base was not drawn */
};
void choose_gather_entropy(struct rng *rng, struct entropy_report *report, uint32_t wanted);
uint32_t choose_wanted_bits(uint64_t phys_slots);
uint64_t choose_virt_slots(void);
int choose_base(const struct slot_map *map, const struct placement *chosen, struct rng *rng,
		uint64_t *base, uint32_t *flags);
int choose_virt(bool randomize, const struct placement *chosen, uint64_t phys, struct rng *rng,
		struct virt_choice *out);

/* stub_relocate.c: the kernel at bi's bases, mapped, moved and relocated. */
int relocate_kernel(struct kslide_bootinfo *bi, struct kernel_mapping *mapping);

/* stub_shuffle.c: the order's key taken from rng (before it is wiped) when randomize; then,
 * after relocate_kernel, the units shuffled (an image with KSLIDE_IMAGE_SHUFFLE). KS_OK, or
 * an error already said. shuffle_report: units shuffled, -1 for an image without a table. */
void shuffle_take_key(struct rng *rng, bool randomize);
int shuffle_kernel(const struct kslide_bootinfo *bi);
int shuffle_report(void);

/* stub_report.c */
void report_boot_info(uint64_t base, uint64_t slots, const struct virt_choice *virt, uint32_t flags,
		      const struct entropy_report *report, struct rng *rng);
void report_line(const struct kslide_bootinfo *bi, const struct entropy_report *report);
/* "kslide: usable=START-END,...": the loader's usable memory, for a trial's recount (as the
 * reference kernel's "kernel: usable=" line, kernel/report.c). */
void report_usable_map(void);
uint32_t report_check_credit(uint64_t phys_slots, uint64_t virt_slots, uint32_t credited);

/* stub_image.c */
const struct kernel_handoff *image_check(const struct boot_loader *loader,
					 const struct boot_entry *entry);
const struct kernel_handoff *image_reject(const char *why);

#endif
