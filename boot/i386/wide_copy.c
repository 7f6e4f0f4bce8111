/* i386: the scalar copy-and-sum (boot/wide_copy.h); nothing to turn on or off. */
#include "boot/wide_copy.h"

word_sums_copy_fn *wide_copy_begin(struct wide_copy_saved *saved)
{
	saved->changed = false;
	return word_sums_copy;
}

void wide_copy_end(const struct wide_copy_saved *saved)
{
	(void)saved;
}
