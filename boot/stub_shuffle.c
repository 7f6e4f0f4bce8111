/*
 * The kernel's function sections in a random order (stub_parts.h; lib/shuffle.h), for an image
 * packed with --shuffle. The order is drawn from a generator keyed with 32 bytes of the stub's
 * own (ChaCha20 over the entropy pool) before that one is wiped; it runs after relocate_kernel
 * has moved the kernel to its base and applied the base relocations, and adds each unit's
 * move on top of them (the changes are additive, so the order of the two passes is free).
 * Either stub, for a kernel that moves by one slide (image_shuffle_table refuses any other).
 * It writes at the kernel's physical base: the i386 stub runs with paging off, and the x86-64
 * stub's tables map the kernel's physical range onto itself (boot/x86_64/mapping.c), as the
 * relocation pass it follows needs too.
 *
 * Scratch: one loan from stub_slots.c (slots_lend), the region's bytes plus the order and the
 * new offsets. Loans come from usable RAM the slot search found free of the stub, the image,
 * the loader's data and, since relocate_kernel avoided it, the kernel's new home; the loan is
 * wiped before the kernel runs, since order and offsets are the layout it keeps secret.
 */
#include <stdbool.h>
#include <stdint.h>

#include "boot/stub_parts.h"
#include "lib/chacha20.h"
#include "lib/errors.h"
#include "lib/image.h"
#include "lib/shuffle.h"
#include "lib/wipe.h"

#define KEY_BYTES 32

static struct rng shuffle_rng;
static bool keyed;
static int shuffled = -1; /* units shuffled, or -1 for an image without a table */

void shuffle_take_key(struct rng *rng, bool randomize)
{
	if (!(image_header.flags & KSLIDE_IMAGE_SHUFFLE) || !randomize)
		return;
	uint8_t key[KEY_BYTES];
	rng_bytes(rng, key, sizeof(key));
	chacha20_key_from_bytes(shuffle_rng.key, key);
	wipe(key, sizeof(key));
	shuffle_rng.counter = 0;
	shuffle_rng.used = CHACHA20_BLOCK_BYTES; /* empty: the first draw computes block 0 */
	keyed = true;
}

int shuffle_kernel(const struct kslide_bootinfo *bi)
{
	if (!(image_header.flags & KSLIDE_IMAGE_SHUFFLE))
		return KS_OK;
	struct shuffle_table t;
	const char *why;
	int rc = image_shuffle_table(stub_image, &image_header, &t, &why);
	if (rc != KS_OK) {
		stub_error("shuffle table rejected", why);
		return rc;
	}
	shuffled = 0;
	if (!keyed) /* nokaslr, a debug placement: the link order */
		return KS_OK;
	uint64_t size = shuffle_scratch_size(&t), lent;
	rc = slots_lend(size, &lent);
	if (rc != KS_OK) {
		stub_error("no memory for the shuffle's scratch area", ks_strerror(rc));
		return rc;
	}
	uint8_t *scratch = (uint8_t *)(uintptr_t)lent;
	rc = shuffle_run((uint8_t *)(uintptr_t)bi->phys_base, &t, scratch, rng_next_u64,
			 &shuffle_rng);
	rng_wipe(&shuffle_rng);
	keyed = false;
	wipe(scratch, (size_t)size);
	if (rc != KS_OK) {
		stub_error("shuffle layout failed", ks_strerror(rc));
		return rc;
	}
	shuffled = (int)t.unit_count;
	return KS_OK;
}

int shuffle_report(void)
{
	return shuffled;
}
