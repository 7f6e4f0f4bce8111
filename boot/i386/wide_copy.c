/* i386: the plain copy-and-sum and zero fill (boot/wide_copy.h); nothing to turn on or off. */
#include "boot/wide_copy.h"

const struct move_routines *wide_copy_begin(struct wide_copy_saved *saved)
{
	saved->changed = false;
	return &move_routines_plain;
}

crc32_fn *wide_crc32_begin(struct wide_copy_saved *saved)
{
	saved->changed = false;
	return crc32_update;
}

void wide_copy_end(const struct wide_copy_saved *saved)
{
	(void)saved;
}
