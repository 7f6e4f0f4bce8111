/* crc32_update on PCLMULQDQ: the whole 16-byte steps in the folding loop, the rest and short
 * inputs by the table. */
#include "boot/x86_64/crc32_pclmul.h"
#include "lib/crc32.h"

uint32_t crc32_pclmul(uint32_t crc, const void *data, size_t len)
{
	const uint8_t *p = data;
	if (len < CRC32_PCLMUL_MIN)
		return crc32_update(crc, p, len);
	size_t bulk = len - len % CRC32_PCLMUL_STEP;
	/* crc32_update's pre- and post-inversion, around the bare register the loop keeps. */
	crc = ~crc32_pclmul_rounds(~crc, p, bulk);
	return crc32_update(crc, p + bulk, len - bulk);
}
