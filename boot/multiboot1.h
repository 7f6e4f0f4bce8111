/* Multiboot (version 0.6.96) boot information: the protocol of QEMU's -kernel loader. */
#ifndef KSLIDE_BOOT_MULTIBOOT1_H
#define KSLIDE_BOOT_MULTIBOOT1_H

#include <stdint.h>

#include "boot/bootenv.h"
#include "include/protocol/multiboot1.h"

/*
 * Parse the info structure at physical address info_addr into env (which must be zeroed), and
 * list everything the loader handed over (the info structure, memory map, module list, modules,
 * strings) as ranges to avoid. Returns KS_OK, KS_EFORMAT for unreadable or inconsistent data,
 * or KS_ENOSPC for more modules than BOOTENV_MODULES_MAX.
 */
int multiboot1_parse(const struct phys_reader *mem, uint32_t info_addr, struct boot_env *env);

#endif
