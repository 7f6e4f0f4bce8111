/*
 * A chosen base for reproducing a placement (boot/placement.h, docs/linux.md). The address
 * must be one of the slots the stub would have drawn from: the word chooses among the bases a
 * random boot could give, and never puts the kernel where a random one could not go.
 */
#include "boot/console.h"
#include "boot/placement.h"
#include "include/kslide/image.h"
#include "lib/cmdline.h"
#include "lib/errors.h"

#define VALUE_MAX 24 /* "0x" and 16 hex digits, or 20 decimal ones, and a NUL */

/* One word: KS_OK with *given and *value when it is there and a number; KS_ENOENT if absent. */
static int read_word(const char *cmdline, size_t len, const char *key, bool honoured,
		     bool *given, uint64_t *value)
{
	char text[VALUE_MAX];
	int rc = cmdline_get(cmdline, len, key, text, sizeof(text));
	if (rc == KS_ENOENT)
		return KS_ENOENT;
	if (!honoured) {
		console_print("kslide: %s= ignored: this image was not packed with "
			      "--debug-placement; the base is drawn at random\n", key);
		return KS_ENOENT;
	}
	if (rc == KS_OK)
		rc = cmdline_parse_u64(text, value);
	if (rc != KS_OK) {
		console_print("kslide: error: %s= takes an address (0x... or decimal), at most "
			      "%u characters; not starting the kernel\n", key, VALUE_MAX - 1);
		return KS_EINVAL;
	}
	*given = true;
	return KS_OK;
}

int placement_read(const char *cmdline, size_t len, uint32_t image_flags, bool virt_allowed,
		   struct placement *out)
{
	bool honoured = image_flags & KSLIDE_IMAGE_DEBUG_PLACEMENT;
	*out = (struct placement){ 0 };
	if (honoured)
		console_print("kslide: warning: this image was packed with --debug-placement: %s= "
			      "on the command line chooses its base\n", PLACEMENT_PHYS_OPTION);
	if (!cmdline)
		return KS_OK;
	int rc = read_word(cmdline, len, PLACEMENT_PHYS_OPTION, honoured, &out->phys_given,
			   &out->phys);
	if (rc == KS_EINVAL)
		return rc;
	rc = read_word(cmdline, len, PLACEMENT_VIRT_OPTION, honoured && virt_allowed,
		       &out->virt_given, &out->virt);
	return rc == KS_EINVAL ? rc : KS_OK;
}

int placement_take(const char *what, uint64_t address, const struct slot_map *map,
		   uint64_t *base)
{
	uint64_t index, first = 0, last = 0;
	if (slot_map_index_of(map, address, &index) == KS_OK) {
		console_print("kslide: debug placement: %s=0x%llx, slot %llu of %llu, as "
			      "kslide.%s= asks; this base is NOT random\n", what,
			      (unsigned long long)address, (unsigned long long)index,
			      (unsigned long long)map->total, what);
		*base = address;
		return KS_OK;
	}
	if (map->total) {
		slot_map_address(map, 0, &first);
		slot_map_address(map, map->total - 1, &last);
	}
	console_print("kslide: error: kslide.%s=0x%llx is not a slot: the %llu slots are "
		      "0x%llx-aligned bases in [0x%llx, 0x%llx] where 0x%llx bytes of free usable "
		      "memory fit; not starting the kernel\n", what, (unsigned long long)address,
		      (unsigned long long)map->total, (unsigned long long)map->align,
		      (unsigned long long)first, (unsigned long long)last,
		      (unsigned long long)map->image_size);
	return KS_ENOENT;
}
