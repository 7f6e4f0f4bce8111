/*
 * Segment descriptors as both arches build them (Intel SDM Vol. 3A, 3.4.5 "Segment
 * Descriptors", 8.2.2 and 8.2.3 for TSS descriptors). A long-mode descriptor has the same
 * first 8 bytes; a 64-bit TSS descriptor adds base bits 63..32 in the next slot.
 *
 *   63      56 55  52 51    48 47      40 39          16 15           0
 *  +----------+------+--------+----------+--------------+--------------+
 *  |base 31:24| flags|lim 19:16|  access  |  base 23:0   |  limit 15:0  |
 *  +----------+------+--------+----------+--------------+--------------+
 */
#ifndef KSLIDE_KERNEL_CPU_DESCRIPTOR_H
#define KSLIDE_KERNEL_CPU_DESCRIPTOR_H

#include <stdint.h>

/* Access bytes. Every segment is built with its accessed bit set: the CPU would otherwise
 * write it when the segment is loaded, and the tables are read-only to it. */
#define SEG_KERNEL_CODE 0x9b /* present, DPL 0, code, execute/read, accessed */
#define SEG_KERNEL_DATA 0x93 /* present, DPL 0, data, read/write, accessed */
#define SEG_USER_CODE 0xfb   /* the same at DPL 3 */
#define SEG_USER_DATA 0xf3
#define SEG_TSS 0x89      /* present, DPL 0, TSS (32-bit; 64-bit in long mode), available */
#define SEG_TSS_BUSY 0x8b /* the same once LTR has loaded it */
#define SEG_LIMIT_4G 0xfffff /* in 4 KiB units */
/* Gate type bytes (SDM Vol. 3A, 6.11 and 6.14.1): the same values in both modes. */
#define GATE_INTERRUPT 0x8e      /* present, DPL 0, interrupt gate */
#define GATE_INTERRUPT_USER 0xee /* the same, callable with INT from ring 3 */

static inline uint64_t segment(uint32_t base, uint32_t limit, uint8_t access, uint8_t flags)
{
	return (limit & 0xffff) | ((uint64_t)(base & 0xffffff) << 16) | ((uint64_t)access << 40) |
	       ((uint64_t)((limit >> 16) & 0xf) << 48) | ((uint64_t)(flags & 0xf) << 52) |
	       ((uint64_t)(base >> 24) << 56);
}

static inline uint32_t segment_base(uint64_t d)
{
	return (uint32_t)((d >> 16) & 0xffffff) | (uint32_t)((d >> 56) << 24);
}

static inline uint8_t segment_access(uint64_t d)
{
	return (uint8_t)(d >> 40);
}

#endif
