/* i386: paging stays off, so memory is reached and the kernel entered at physical addresses. */
#include "boot/mapping.h"
#include "lib/errors.h"

int mapping_prepare(struct kernel_mapping *m, memory_lender lend)
{
	(void)lend;
	m->tables_start = m->tables_end = 0;
	return KS_OK;
}

uint64_t mapping_address(const struct kernel_mapping *m, uint64_t offset)
{
	return m->phys + offset;
}
