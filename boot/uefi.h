/*
 * The UEFI memory map, as GetMemoryMap returns it, read into a struct boot_env: the way in
 * from UEFI firmware (boot/x86_64/efi_entry.S) once boot services have exited.
 */
#ifndef KSLIDE_BOOT_UEFI_H
#define KSLIDE_BOOT_UEFI_H

#include <stdint.h>

#include "boot/bootenv.h"
#include "include/protocol/uefi.h"

/*
 * Add the map_size bytes of EFI memory descriptors at map, desc_size bytes apart (the
 * firmware's size, at least EFI_MD_SIZE), to env's memory map. Read after ExitBootServices,
 * so boot services' and the loader's memory is usable, as Linux's EFI stub counts it
 * (setup_e820); the caller avoids its own image, which lies in loader memory. KS_OK, or
 * KS_EFORMAT with env->why for a descriptor size too small or a region that wraps around.
 */
int uefi_parse_memory_map(const uint8_t *map, uint64_t map_size, uint64_t desc_size,
			  struct boot_env *env);

#endif
