/*
 * Physical memory outside the kernel image, for everything ring 3's page tables can reach:
 * the entry area's pages and the tables behind them, and every user space's tables and pages.
 * A value found there (a page-table entry, say) must never lead into the image, so none of it
 * may be a frame of the image.
 *
 * One run of FRAMES_PAGES pages, taken at boot from usable RAM: the lowest run at or above
 * FRAMES_MIN that meets nothing the kernel must keep (the image, the boot info and the stub,
 * the x86-64 entry tables, the command line, modules and their strings, any reserved range).
 * Chosen without regard to the image except to avoid it, the run lies below the image's
 * lowest base on a PC (conventional memory), so its address says nothing about the base.
 */
#ifndef KSLIDE_KERNEL_MM_FRAMES_H
#define KSLIDE_KERNEL_MM_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "include/kslide/bootinfo.h"

/* 256 KiB. Linux's default reserve_low (64 KiB) leaves the real-mode interrupt table, the BIOS
 * data area and what firmware likes to scribble on below it alone; SeaBIOS goes further when
 * it wakes the machine from S3 (kernel/acpi/suspend.h), with the OS's memory live: it writes its
 * AP start-up jump at 0x10000 and its SMM relocation code and state at [0x38000, 0x40000),
 * and puts back what was there, not always in time (selftest=suspend saw a gate of the IDT
 * at 0x10000 lose its low half). The run starts above all of it. */
#define FRAMES_MIN 0x40000
#define FRAMES_PAGES 64

/* KS_OK, or KS_ENOENT when no such run exists (then the kernel cannot isolate ring 3). */
int frames_init(const struct kslide_bootinfo *bi);

/* pages zeroed pages aligned to align_pages pages, at their direct-map address; NULL once the
 * run is used up. Nothing is ever given back. */
void *frames_alloc(size_t pages, size_t align_pages);

/* The lowest pages free pages in usable RAM inside [min, max) that meet nothing the kernel
 * keeps (nor the run), for short-lived use such as the AP trampoline; 0 when none. Nothing
 * is taken: the caller uses them and gives them up before anything else looks. */
uint64_t frames_low_free(const struct kslide_bootinfo *bi, uint64_t min, uint64_t max,
			 size_t pages);

/* The run, [*start, *end) physical, for the selftests. */
void frames_range(uint64_t *start, uint64_t *end);

#endif
