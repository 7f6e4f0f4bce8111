/* kernel/acpi/acpi_sleep.h: the FADT's PM1 registers, the FACS, \_S3 from the DSDT, and S3 entry.
 */
#include "kernel/acpi/acpi_sleep.h"
#include "arch/x86/x86.h"
#include "kernel/acpi/acpi.h"
#include "kernel/acpi/acpi_aml.h"
#include "kernel/mm/phys_map.h"
#include "lib/string.h"

/* FADT fields, byte offsets (ACPI 6.5, table 5.9); the X_ ones from revision 2 on. */
#define FADT_SIGNATURE "FACP"
#define FADT_FIRMWARE_CTRL 36
#define FADT_DSDT 40
#define FADT_PM1A_EVT_BLK 56
#define FADT_PM1B_EVT_BLK 60
#define FADT_PM1A_CNT_BLK 64
#define FADT_PM1B_CNT_BLK 68
#define FADT_X_FIRMWARE_CTRL 132
#define FADT_X_DSDT 140
#define FADT_X_PM1A_EVT_BLK 148
#define FADT_X_PM1B_EVT_BLK 160
#define FADT_X_PM1A_CNT_BLK 172
#define FADT_X_PM1B_CNT_BLK 184
#define GAS_BYTES 12         /* generic address structure (5.2.3.2): space, widths, address */
#define GAS_ADDRESS 4
#define GAS_SYSTEM_IO 1
#define SDT_LENGTH 4

/* FACS fields (table 5.10); it has no checksum. */
#define FACS_SIGNATURE "FACS"
#define FACS_HARDWARE_SIGNATURE 8
#define FACS_WAKING_VECTOR 12
#define FACS_X_WAKING_VECTOR 24
#define FACS_MIN_BYTES 64

/* PM1 registers (4.8.3.1, 4.8.3.2): status is the event block's first half. */
#define PM1_WAK_STS 0x8000 /* write 1 to clear */
#define PM1_SLP_TYP_SHIFT 10
#define PM1_SLP_TYP_MASK 0x1c00
#define PM1_SLP_EN 0x2000
#define PM1_ABSENT 0xffff /* what a read gives where no device decodes the port */
#define SLEEP_STATE_S3 3
/* How long acpi_sleep_enter watches WAK_STS: each read of an I/O port takes about a
 * microsecond on ISA timing, so a few seconds on hardware, less under emulation. */
#define WAKE_POLLS 5000000

static uint64_t field(const uint8_t *table, uint32_t offset, unsigned bytes)
{
	uint64_t v = 0;
	memcpy(&v, table + offset, bytes);
	return v;
}

static uint32_t table_length(const uint8_t *table)
{
	return (uint32_t)field(table, SDT_LENGTH, 4);
}

/* An I/O port from the X_ field when the FADT has it and it names I/O space, else from the
 * 32-bit field; 0 when neither names one (PM1b is optional; a block in memory space is not
 * supported). */
static uint16_t pm1_port(const uint8_t *fadt, uint32_t legacy, uint32_t extended)
{
	if (table_length(fadt) >= extended + GAS_BYTES) {
		uint64_t address = field(fadt, extended + GAS_ADDRESS, 8);
		bool io_port = fadt[extended] == GAS_SYSTEM_IO && address <= 0xffff;
		if (address)
			return io_port ? (uint16_t)address : 0;
	}
	uint32_t port = (uint32_t)field(fadt, legacy, 4);
	return port <= 0xffff ? (uint16_t)port : 0;
}

/* The 32-bit address when set, else the 64-bit one when the table is long enough. */
static uint64_t table_pointer(const uint8_t *fadt, uint32_t legacy, uint32_t extended)
{
	uint64_t p = field(fadt, legacy, 4);
	if (!p && table_length(fadt) >= extended + 8)
		p = field(fadt, extended, 8);
	return p;
}

const char *acpi_sleep_find(struct acpi_sleep *out)
{
	struct acpi_sleep s = { 0 };
	const uint8_t *fadt;
	if (!(s.fadt = acpi_table_find(FADT_SIGNATURE)) || !(fadt = acpi_table_checked(s.fadt)))
		return "no FADT with a valid checksum";
	s.pm1a_evt = pm1_port(fadt, FADT_PM1A_EVT_BLK, FADT_X_PM1A_EVT_BLK);
	s.pm1b_evt = pm1_port(fadt, FADT_PM1B_EVT_BLK, FADT_X_PM1B_EVT_BLK);
	s.pm1a_cnt = pm1_port(fadt, FADT_PM1A_CNT_BLK, FADT_X_PM1A_CNT_BLK);
	s.pm1b_cnt = pm1_port(fadt, FADT_PM1B_CNT_BLK, FADT_X_PM1B_CNT_BLK);
	if (!s.pm1a_cnt || !s.pm1a_evt)
		return "the FADT names no PM1a control or event block in I/O space";

	s.facs = table_pointer(fadt, FADT_FIRMWARE_CTRL, FADT_X_FIRMWARE_CTRL);
	s.facs_mapped = s.facs ? phys_map(s.facs, FACS_MIN_BYTES) : NULL;
	const uint8_t *facs = s.facs_mapped;
	if (!facs || memcmp(facs, FACS_SIGNATURE, 4) != 0 || table_length(facs) < FACS_MIN_BYTES)
		return "no FACS (the firmware waking vector's home)";

	s.dsdt = table_pointer(fadt, FADT_DSDT, FADT_X_DSDT);
	const uint8_t *dsdt = acpi_table_checked(s.dsdt);
	if (!dsdt || memcmp(dsdt, "DSDT", 4) != 0)
		return "no DSDT with a valid checksum";
	if (!acpi_aml_sleep_type(dsdt + ACPI_HEADER_BYTES, table_length(dsdt) - ACPI_HEADER_BYTES,
				 SLEEP_STATE_S3, &s.slp_typ_a, &s.slp_typ_b))
		return "no \\_S3 package in the DSDT: the firmware does not offer S3";
	*out = s;
	return NULL;
}

void acpi_sleep_set_waking_vector(const struct acpi_sleep *s, uint32_t phys)
{
	uint8_t *facs = s->facs_mapped;
	const uint64_t none = 0;
	memcpy(facs + FACS_WAKING_VECTOR, &phys, sizeof(phys));
	memcpy(facs + FACS_X_WAKING_VECTOR, &none, sizeof(none));
}

uint32_t acpi_sleep_waking_vector(const struct acpi_sleep *s)
{
	return (uint32_t)field(s->facs_mapped, FACS_WAKING_VECTOR, 4);
}

uint32_t acpi_sleep_hardware_signature(const struct acpi_sleep *s)
{
	return (uint32_t)field(s->facs_mapped, FACS_HARDWARE_SIGNATURE, 4);
}

static void pm1_status_clear(const struct acpi_sleep *s)
{
	outw(s->pm1a_evt, PM1_WAK_STS);
	if (s->pm1b_evt)
		outw(s->pm1b_evt, PM1_WAK_STS);
}

bool acpi_sleep_woke(const struct acpi_sleep *s)
{
	uint16_t status = inw(s->pm1a_evt);
	if (status == PM1_ABSENT)
		return false;
	pm1_status_clear(s);
	return status & PM1_WAK_STS;
}

/* A PM1 control register's value with SLP_TYP set to type and SLP_EN clear, the rest as the
 * register holds it. */
static uint16_t with_sleep_type(uint16_t port, uint8_t type)
{
	uint16_t others = inw(port) & ~(PM1_SLP_TYP_MASK | PM1_SLP_EN);
	return others | (uint16_t)(type << PM1_SLP_TYP_SHIFT);
}

/* SLP_TYP first and SLP_EN in a second write, PM1a before PM1b (ACPI 6.5, 16.1.3.1 and
 * 7.4.2.5). */
bool acpi_sleep_enter(const struct acpi_sleep *s)
{
	uint16_t a = with_sleep_type(s->pm1a_cnt, s->slp_typ_a);
	uint16_t b = s->pm1b_cnt ? with_sleep_type(s->pm1b_cnt, s->slp_typ_b) : 0;
	pm1_status_clear(s);
	outw(s->pm1a_cnt, a);
	if (s->pm1b_cnt)
		outw(s->pm1b_cnt, b);
	/* What is in the caches is lost with their power (7.4.2.5). */
	__asm__ volatile("wbinvd" : : : "memory");
	outw(s->pm1a_cnt, a | PM1_SLP_EN);
	if (s->pm1b_cnt)
		outw(s->pm1b_cnt, b | PM1_SLP_EN);
	for (unsigned i = 0; i < WAKE_POLLS; i++)
		if (inw(s->pm1a_evt) & PM1_WAK_STS)
			return true;
	return false;
}
