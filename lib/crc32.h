/* CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320): the image checksum. */
#ifndef KSLIDE_LIB_CRC32_H
#define KSLIDE_LIB_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* Start with crc = 0; feed pieces in order. crc32_update(0, "123456789", 9) == 0xCBF43926. */
uint32_t crc32_update(uint32_t crc, const void *data, size_t len);

/* crc32_update's contract, for a faster routine put in its place (image_verify_with). */
typedef uint32_t crc32_fn(uint32_t crc, const void *data, size_t len);

#endif
