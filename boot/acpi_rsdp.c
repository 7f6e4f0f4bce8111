/* The RSDP search of boot/acpi_rsdp.h, through a phys_reader so that host tests can serve it. */
#include "boot/acpi_rsdp.h"
#include "include/protocol/acpi_rsdp.h"
#include "lib/string.h"
#include "lib/unaligned.h"

/* Beyond any ACPI revision's RSDP; a longer "length" is not an RSDP. */
#define RSDP_LENGTH_MAX 4096

static int sums_to_zero(const uint8_t *p, uint32_t len)
{
	uint8_t sum = 0;
	for (uint32_t i = 0; i < len; i++)
		sum = (uint8_t)(sum + p[i]);
	return sum == 0;
}

/* The bytes of a valid RSDP at addr, or 0. */
static uint32_t rsdp_at(const struct phys_reader *mem, uint64_t addr)
{
	const uint8_t *r = mem->read(mem->ctx, addr, ACPI_RSDP_V1_BYTES);
	if (!r || memcmp(r, ACPI_RSDP_SIGNATURE, 8) != 0 || !sums_to_zero(r, ACPI_RSDP_V1_BYTES))
		return 0;
	if (r[ACPI_RSDP_REVISION] < 2)
		return ACPI_RSDP_V1_BYTES;
	r = mem->read(mem->ctx, addr, ACPI_RSDP_V2_BYTES);
	uint32_t length = r ? load_le32(r + ACPI_RSDP_LENGTH) : 0;
	if (length < ACPI_RSDP_V2_BYTES || length > RSDP_LENGTH_MAX)
		return 0;
	r = mem->read(mem->ctx, addr, length);
	return r && sums_to_zero(r, length) ? length : 0;
}

static uint64_t search(const struct phys_reader *mem, uint64_t start, uint64_t end,
		       uint32_t *size)
{
	for (uint64_t p = start; p + ACPI_RSDP_V1_BYTES <= end; p += ACPI_RSDP_ALIGN)
		if ((*size = rsdp_at(mem, p)) != 0)
			return p;
	return 0;
}

uint64_t acpi_rsdp_find(const struct phys_reader *mem, uint32_t *size)
{
	*size = 0;
	const uint8_t *bda = mem->read(mem->ctx, ACPI_BDA_EBDA_SEGMENT, 2);
	uint64_t ebda = bda ? (uint64_t)(bda[0] | bda[1] << 8) << 4 : 0;
	uint64_t at = ebda ? search(mem, ebda, ebda + ACPI_EBDA_SEARCH, size) : 0;
	return at ? at : search(mem, ACPI_BIOS_ROM_START, ACPI_BIOS_ROM_END, size);
}
