/* The closure, the user page-table audit and the LDT case of selftest=leak
 * (kernel/selftest/leak_closure.c), and i386's segment case, for kernel/selftest/leak.c's list. */
#ifndef KSLIDE_KERNEL_SELFTEST_LEAK_CLOSURE_H
#define KSLIDE_KERNEL_SELFTEST_LEAK_CLOSURE_H

#include <stdbool.h>

#include "include/kslide/bootinfo.h"

bool leak_ldt_lar(const struct kslide_bootinfo *bi);
bool leak_closure(const struct kslide_bootinfo *bi);
bool leak_user_table_audit(const struct kslide_bootinfo *bi);
/* i386: kernel/i386/selftest_segments.c */
bool leak_entry_segments(const struct kslide_bootinfo *bi);

#endif
