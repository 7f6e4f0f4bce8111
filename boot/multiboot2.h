/* Multiboot2 (specification 2.0) boot information: the protocol of GRUB's multiboot2 command. */
#ifndef KSLIDE_BOOT_MULTIBOOT2_H
#define KSLIDE_BOOT_MULTIBOOT2_H

#include <stdint.h>

#include "boot/bootenv.h"
#include "include/protocol/multiboot2.h"

/*
 * Parse the tag list at physical address info_addr into env (which must be zeroed), and list
 * everything the loader handed over (the whole structure, which holds every string and map,
 * and every module) as ranges to avoid. The memory map comes from the EFI memory map tag when
 * there is one (usable = EfiConventionalMemory only), else from the mmap tag, else from basic
 * meminfo. The loader's copy of the ACPI RSDP (the new-RSDP tag, else the old) is noted.
 * Unknown tags are skipped. Returns KS_OK, KS_EFORMAT for unreadable or malformed data,
 * or KS_ENOSPC for more modules than BOOTENV_MODULES_MAX; on failure env->why says what was
 * wrong.
 */
int multiboot2_parse(const struct phys_reader *mem, uint32_t info_addr, struct boot_env *env);

#endif
