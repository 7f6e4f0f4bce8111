/*
 * Reaching physical memory the direct map does not cover, for the firmware's tables: QEMU's
 * SeaBIOS, like most PCs, puts the ACPI tables where RAM ends below 4 GiB, which from 896 MiB
 * of RAM on lies above the i386 kernel's lowmem (kernel/i386/layout.h). As Linux maps them
 * (early_memremap, acpi_os_map_memory: the fixmap and ioremap of the table's pages), the i386
 * kernel maps such a range into a window of its own (kernel/i386/phys_map.c); below lowmem,
 * and on x86-64, whose direct map reaches all RAM up to 64 GiB, the answer is the direct map.
 *
 * Kernel only: nothing here is mapped for ring 3, whose page tables never include the window.
 * For the boot CPU only (the kernel reads ACPI there, at boot and around a suspend): there
 * is no lock.
 */
#ifndef KSLIDE_KERNEL_MM_PHYS_MAP_H
#define KSLIDE_KERNEL_MM_PHYS_MAP_H

#include <stddef.h>
#include <stdint.h>

/* Makes the window part of the kernel's page tables. Called once, before anything copies
 * them (user spaces take the kernel's half as it is when they are made: kernel/mm/space.h). */
void phys_map_init(void);

/* A kernel address at which physical [phys, phys + len) can be read and written, cached as
 * RAM is (not for MMIO), and stays so for as long as the kernel runs; NULL when len is 0 or
 * the range cannot be reached (beyond 4 GiB on i386, past the direct map on x86-64, or the
 * window is full). Asking again for pages already mapped gives the same mapping. */
void *phys_map(uint64_t phys, size_t len);

/* The arch's half, for ranges the direct map does not cover: NULL when it cannot map them. */
void *arch_phys_map(uint64_t phys, size_t len);

#endif
