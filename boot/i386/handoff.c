/* i386: paging stays off, so memory is reached and the kernel entered at physical addresses. */
#include "boot/handoff.h"
#include "lib/errors.h"

int handoff_prepare(struct handoff *h, scratch_finder find_scratch)
{
	(void)find_scratch;
	h->tables_start = h->tables_end = 0;
	return KS_OK;
}

uintptr_t handoff_entry(const struct handoff *h, uint64_t entry_offset)
{
	return (uintptr_t)(h->phys + entry_offset);
}
