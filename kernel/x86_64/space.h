/* x86-64 address spaces (kernel/x86_64/space.c): what the selftests may ask of one. */
#ifndef KSLIDE_KERNEL_X86_64_SPACE_H
#define KSLIDE_KERNEL_X86_64_SPACE_H

#include <stdbool.h>

struct arch_space;

/* Walks the space's page tables: every user-accessible entry must lead to one of the
 * space's own user pages, inside the user window. */
bool space_user_mappings_ok(const struct arch_space *s);

#endif
