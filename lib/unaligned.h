/* Little-endian loads and stores at any alignment: the decoders' byte streams, the loaders'
 * information, the keys and blocks of the ciphers. */
#ifndef KSLIDE_LIB_UNALIGNED_H
#define KSLIDE_LIB_UNALIGNED_H

#include <stdint.h>

/* Every target of lib/ (i386, x86-64, the x86-64 host) is little-endian: a load is a copy. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "lib/ assumes little-endian");

static inline uint16_t load_le16(const void *p)
{
	uint16_t v;
	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t load_le32(const void *p)
{
	uint32_t v;
	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t load_le64(const void *p)
{
	uint64_t v;
	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static inline void store_le16(void *p, uint16_t v)
{
	__builtin_memcpy(p, &v, sizeof(v));
}

static inline void store_le32(void *p, uint32_t v)
{
	__builtin_memcpy(p, &v, sizeof(v));
}

static inline void store_le64(void *p, uint64_t v)
{
	__builtin_memcpy(p, &v, sizeof(v));
}

/* The bytes p[0], p[1], p[2] as one little-endian number (zstd block headers). */
static inline uint32_t load_le24(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
}

static inline uintptr_t load_word(const void *p)
{
	uintptr_t v;
	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

#endif
