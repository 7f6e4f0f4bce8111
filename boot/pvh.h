/* PVH's hvm_start_info (include/protocol/pvh.h): the protocol of QEMU's, Firecracker's and
 * Cloud Hypervisor's ELF loaders. */
#ifndef KSLIDE_BOOT_PVH_H
#define KSLIDE_BOOT_PVH_H

#include <stdint.h>

#include "boot/bootenv.h"
#include "include/protocol/pvh.h"

/*
 * Parse the hvm_start_info at physical address info_addr into env (which must be zeroed), and
 * list everything the monitor handed over (the start info, memory map, module list, modules,
 * strings, the RSDP) as ranges to avoid. Versions 0 and 1 are read; a start info without a
 * memory map (version 0 has none) is refused, as there is no other source of one. Returns
 * KS_OK, KS_EFORMAT for unreadable or inconsistent data, or KS_ENOSPC for more modules than
 * BOOTENV_MODULES_MAX; on failure env->why says what was wrong.
 */
int pvh_parse(const struct phys_reader *mem, uint64_t info_addr, struct boot_env *env);

#endif
