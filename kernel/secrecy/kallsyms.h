/*
 * The kernel's symbol table, generated at build time from the linked kernel
 * (tools/kslide-kallsyms.c): offsets from _kernel_start, so the table is the same bytes at
 * every link address and the stub never has to relocate it.
 */
#ifndef KSLIDE_KERNEL_SECRECY_KALLSYMS_H
#define KSLIDE_KERNEL_SECRECY_KALLSYMS_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel/proc/cred.h"

unsigned kallsyms_count(void);

/* Entry i, sorted by address: where it is now, nm's type letter, its name. */
void kallsyms_entry(unsigned i, uintptr_t *addr, char *type, const char **name);

/* The first symbol called name; false if there is none. */
bool kallsyms_lookup(const char *name, uintptr_t *addr);

/* What SYS_KALLSYMS shows 'reader' of entry i in a KSYM_VIEW_* view; false past the end or
 * for an unknown view. */
bool kallsyms_show(unsigned i, unsigned view, const struct cred *reader, struct ksym *out);

#endif
