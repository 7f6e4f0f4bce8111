/* kernel/acpi/acpi.h: RSDP search, root table walk and MADT parse, every table checksummed. */
#include <stddef.h>

#include "kernel/acpi/acpi.h"
#include "kernel/memory.h"
#include "kernel/mm/phys_map.h"
#include "lib/string.h"

/* Where the RSDP may be (ACPI 6.5, 5.2.5.1): the first KiB of the EBDA, whose real-mode
 * segment the BIOS data area holds at 0x40e, and the BIOS ROM [0xe0000, 0x100000), on
 * 16-byte boundaries. */
#define BDA_EBDA_SEGMENT 0x40e
#define EBDA_SEARCH_BYTES 1024
#define BIOS_ROM_START 0xe0000
#define BIOS_ROM_END 0x100000
#define RSDP_ALIGN 16
#define RSDP_SIGNATURE "RSD PTR "
#define RSDP_V1_BYTES 20 /* what the ACPI 1.0 checksum covers */
#define MADT_SIGNATURE "APIC"
#define MADT_ENTRIES_OFFSET 44 /* after the header, the local APIC address and flags */

/* MADT entry types and flags (ACPI 6.5, 5.2.12). */
#define MADT_LOCAL_APIC 0
#define MADT_LOCAL_X2APIC 9
#define MADT_ENABLED 0x1
#define MADT_ONLINE_CAPABLE 0x2

struct __attribute__((packed)) rsdp {
	char signature[8];
	uint8_t checksum;
	char oem_id[6];
	uint8_t revision;
	uint32_t rsdt;
	uint32_t length; /* revision 2 and later */
	uint64_t xsdt;
	uint8_t extended_checksum;
	uint8_t reserved[3];
};

struct __attribute__((packed)) sdt_header {
	char signature[4];
	uint32_t length;
	uint8_t revision, checksum;
	char oem_id[6], oem_table_id[8];
	uint32_t oem_revision, creator_id, creator_revision;
};

_Static_assert(sizeof(struct sdt_header) == ACPI_HEADER_BYTES, "ACPI table header");

static bool sums_to_zero(const void *p, size_t len)
{
	const uint8_t *b = p;
	uint8_t sum = 0;
	for (size_t i = 0; i < len; i++)
		sum = (uint8_t)(sum + b[i]);
	return sum == 0;
}

static const struct rsdp *rsdp_in(uint64_t start, uint64_t end)
{
	for (uint64_t p = start; p + sizeof(struct rsdp) <= end; p += RSDP_ALIGN) {
		const struct rsdp *r = phys_to_virt(p);
		if (memcmp(r->signature, RSDP_SIGNATURE, sizeof(r->signature)) != 0 ||
		    !sums_to_zero(r, RSDP_V1_BYTES))
			continue;
		if (r->revision >= 2 && !sums_to_zero(r, r->length))
			continue;
		return r;
	}
	return NULL;
}

static const struct rsdp *rsdp_find(void)
{
	uint64_t ebda = (uint64_t)*(const uint16_t *)phys_to_virt(BDA_EBDA_SEGMENT) << 4;
	const struct rsdp *r = ebda ? rsdp_in(ebda, ebda + EBDA_SEARCH_BYTES) : NULL;
	return r ? r : rsdp_in(BIOS_ROM_START, BIOS_ROM_END);
}

/* The header first, to learn the length, then the whole table. */
static const struct sdt_header *table_at(uint64_t phys)
{
	const struct sdt_header *h = phys ? phys_map(phys, sizeof(*h)) : NULL;
	if (!h || h->length < sizeof(*h) || !(h = phys_map(phys, h->length)))
		return NULL;
	return sums_to_zero(h, h->length) ? h : NULL;
}

/* A table's physical address through the XSDT (8-byte entries) or else the RSDT (4-byte). */
static uint64_t table_find(const struct rsdp *r, const char *signature)
{
	bool wide = r->revision >= 2 && r->xsdt;
	const struct sdt_header *root = table_at(wide ? r->xsdt : r->rsdt);
	if (!root)
		return 0;
	unsigned size = wide ? 8 : 4;
	const uint8_t *entries = (const uint8_t *)(root + 1);
	for (uint32_t off = 0; off + size <= root->length - sizeof(*root); off += size) {
		uint64_t phys = 0;
		memcpy(&phys, entries + off, size);
		const struct sdt_header *h = table_at(phys);
		if (h && memcmp(h->signature, signature, 4) == 0)
			return phys;
	}
	return 0;
}

static void cpu_add(struct acpi_cpus *out, uint32_t flags, uint32_t apic_id)
{
	if (!(flags & (MADT_ENABLED | MADT_ONLINE_CAPABLE)))
		return;
	if (out->count < ACPI_CPU_MAX)
		out->apic_id[out->count] = apic_id;
	out->count++;
}

bool acpi_find_cpus(struct acpi_cpus *out)
{
	*out = (struct acpi_cpus){ 0 };
	const struct rsdp *r = rsdp_find();
	if (!r)
		return false;
	out->rsdp = direct_virt_to_phys(r);
	if (!(out->madt = table_find(r, MADT_SIGNATURE)))
		return false;
	const uint8_t *madt = (const uint8_t *)table_at(out->madt);
	uint32_t length = ((const struct sdt_header *)madt)->length;
	memcpy(&out->lapic_phys, madt + sizeof(struct sdt_header), sizeof(out->lapic_phys));
	/* Each entry: type, length, then its fields (ACPI 6.5, tables 5.44 and 5.60). */
	for (uint32_t off = MADT_ENTRIES_OFFSET; off + 2 <= length;) {
		uint8_t type = madt[off], len = madt[off + 1];
		if (len < 2 || off + len > length)
			break;
		uint32_t flags, id;
		if (type == MADT_LOCAL_APIC && len >= 8) {
			memcpy(&flags, madt + off + 4, 4);
			cpu_add(out, flags, madt[off + 3]);
		} else if (type == MADT_LOCAL_X2APIC && len >= 16) {
			memcpy(&id, madt + off + 4, 4);
			memcpy(&flags, madt + off + 8, 4);
			cpu_add(out, flags, id);
		}
		off += len;
	}
	return true;
}

uint64_t acpi_table_find(const char *signature)
{
	const struct rsdp *r = rsdp_find();
	return r ? table_find(r, signature) : 0;
}

const void *acpi_table_checked(uint64_t phys)
{
	return table_at(phys);
}
