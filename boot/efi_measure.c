/*
 * Measured boot (boot/efi.h): with a TPM 2.0 behind EFI_TCG2_PROTOCOL, what the stub starts
 * and what it was given are hashed into PCR 9 and logged, as Linux's EFI stub measures its
 * initrd and load options there (tagged events, the same IDs and names, so tools that know
 * Linux's events know these) and as GRUB measures the kernel file it loads into the same PCR
 * (an EV_IPL event). The kernel is measured as the image carries it, before any relocation:
 * its digest is the same at every base, and neither base nor seed reaches a PCR or the log.
 * Then Linux's copy of the log (LINUX_EFI_TPM_EVENT_LOG_GUID), which its own EFI stub would
 * have installed and from which its TPM driver serves binary_bios_measurements.
 */
#include "boot/console.h"
#include "boot/efi.h"
#include "include/protocol/tcg2.h"
#include "lib/string.h"
#include "lib/tcg2_log.h"
#include "lib/unaligned.h"

typedef uint64_t EFIAPI (*tcg2_hash_log_extend_fn)(void *tcg2, uint64_t flags, uint64_t data,
						   uint64_t size, const void *event);
typedef uint64_t EFIAPI (*tcg2_get_event_log_fn)(void *tcg2, uint32_t format, uint64_t *log,
						 uint64_t *last, uint8_t *truncated);
typedef uint64_t EFIAPI (*efi_allocate_pool_fn)(uint32_t type, uint64_t size, void **buffer);
typedef uint64_t EFIAPI (*efi_install_config_table_fn)(const void *guid, void *table);

/* How far past the last entry's start (and into the final-events table) entries are read:
 * each is a few digests and a short description; a firmware's longest is its variables'. */
#define TCG2_EVENT_READ_MAX (1u << 20)

static uint64_t word_at(uint64_t address)
{
	return load_le64((const uint8_t *)(uintptr_t)address);
}

static uint64_t boot_service(uint64_t system_table, uint64_t offset)
{
	return word_at(word_at(system_table + EFI_ST_BOOT_SERVICES) + offset);
}

/* One event: its EFI_TCG2_EVENT around 'data' (the description, or a tag and its name). */
static int extend(void *tcg2, uint32_t type, uint64_t at, uint64_t size, const void *data,
		  uint32_t data_size)
{
	static uint8_t event[EFI_TCG2_EVENT_DATA_AT + 64];
	if (data_size > sizeof(event) - EFI_TCG2_EVENT_DATA_AT)
		return -1;
	store_le32(event, EFI_TCG2_EVENT_DATA_AT + data_size);
	store_le32(event + EFI_TCG2_EVENT_HEADER_AT, EFI_TCG2_EVENT_HEADER_SIZE);
	store_le16(event + EFI_TCG2_EVENT_HEADER_AT + 4, EFI_TCG2_EVENT_HEADER_VERSION);
	store_le32(event + EFI_TCG2_EVENT_HEADER_AT + 6, TCG_LINUX_PCR);
	store_le32(event + EFI_TCG2_EVENT_HEADER_AT + 10, type);
	memcpy(event + EFI_TCG2_EVENT_DATA_AT, data, data_size);
	tcg2_hash_log_extend_fn hash_log_extend =
		(tcg2_hash_log_extend_fn)(uintptr_t)word_at((uintptr_t)tcg2 + EFI_TCG2_HASH_LOG_EXTEND);
	return hash_log_extend(tcg2, 0, at, size, event) == EFI_SUCCESS ? 0 : -1;
}

/* A tagged event as Linux's stub logs it: the tag, its name's size, the name with its NUL. */
static int extend_tagged(void *tcg2, uint32_t tag, const char *name, uint64_t at, uint64_t size)
{
	uint8_t data[8 + 32];
	uint32_t name_size = (uint32_t)strlen(name) + 1;
	store_le32(data, tag);
	store_le32(data + 4, name_size);
	memcpy(data + 8, name, name_size);
	return extend(tcg2, TCG_EV_EVENT_TAG, at, size, data, 8 + name_size);
}

/* The configuration table's entry for a GUID, 0 if none. */
static uint64_t config_table(uint64_t system_table, uint64_t low, uint64_t high)
{
	uint64_t entries = word_at(system_table + EFI_ST_TABLE_ENTRIES);
	uint64_t table = word_at(system_table + EFI_ST_CONFIG_TABLE);
	for (uint64_t i = 0; table && i < entries; i++) {
		uint64_t e = table + i * EFI_CONFIG_ENTRY_SIZE;
		if (word_at(e) == low && word_at(e + 8) == high)
			return word_at(e + 16);
	}
	return 0;
}

/* Linux's copy of the log, with the size of the final events it must not count twice. */
static const char *install_linux_log(uint64_t system_table, void *tcg2)
{
	tcg2_get_event_log_fn get_event_log =
		(tcg2_get_event_log_fn)(uintptr_t)word_at((uintptr_t)tcg2 + EFI_TCG2_GET_EVENT_LOG);
	uint64_t log = 0, last = 0;
	uint8_t truncated = 0;
	if (get_event_log(tcg2, EFI_TCG2_LOG_FORMAT_TCG_2, &log, &last, &truncated) !=
		    EFI_SUCCESS ||
	    !log)
		return "the firmware has no crypto-agile event log";
	const uint8_t *first = (const uint8_t *)(uintptr_t)log;
	uint64_t size = 0, first_size = 0;
	if (last) {
		if (last < log)
			return "the log's last entry lies before its first";
		first_size = tcg2_first_event_size(first, last - log + TCG2_EVENT_READ_MAX);
		uint64_t last_size = last == log ? first_size
						 : tcg2_event_size((const uint8_t *)(uintptr_t)last,
								   TCG2_EVENT_READ_MAX, first, first_size);
		if (!first_size || !last_size)
			return "the log's entries cannot be sized";
		size = last - log + last_size;
	}
	uint64_t preboot = 0;
	uint64_t final = config_table(system_table, EFI_TCG2_FINAL_EVENTS_GUID_LOW,
				      EFI_TCG2_FINAL_EVENTS_GUID_HIGH);
	uint64_t count = final ? word_at(final + EFI_TCG2_FINAL_EVENTS_COUNT_AT) : 0;
	for (uint64_t i = 0; i < count; i++) {
		uint64_t one = tcg2_event_size((const uint8_t *)(uintptr_t)(final +
									   EFI_TCG2_FINAL_EVENTS_AT +
									   preboot),
					       TCG2_EVENT_READ_MAX, first, first_size);
		if (!one)
			return "the final events cannot be sized";
		preboot += one;
	}
	if (size > UINT32_MAX || preboot > UINT32_MAX)
		return "the log is larger than Linux's table can say";
	/* ACPI reclaim memory, as Linux's stub allocates it: never a slot for the kernel
	 * (boot/uefi.c), and Linux keeps it until its TPM driver has read it. */
	efi_allocate_pool_fn allocate_pool =
		(efi_allocate_pool_fn)(uintptr_t)boot_service(system_table, EFI_BS_ALLOCATE_POOL);
	void *table = NULL;
	if (allocate_pool(EFI_ACPI_RECLAIM_MEMORY, LINUX_TPM_LOG_HEADER + size, &table) !=
		    EFI_SUCCESS ||
	    !table)
		return "no memory for Linux's copy of the log";
	uint8_t *t = table;
	store_le32(t, (uint32_t)size);
	store_le32(t + 4, (uint32_t)preboot);
	t[8] = EFI_TCG2_LOG_FORMAT_TCG_2;
	memcpy(t + LINUX_TPM_LOG_HEADER, first, size);
	static const uint64_t guid[2] = {LINUX_EFI_TPM_EVENT_LOG_GUID_LOW,
					 LINUX_EFI_TPM_EVENT_LOG_GUID_HIGH};
	efi_install_config_table_fn install = (efi_install_config_table_fn)(uintptr_t)boot_service(
		system_table, EFI_BS_INSTALL_CONFIG_TABLE);
	if (install(guid, table) != EFI_SUCCESS)
		return "the firmware did not install Linux's copy of the log";
	return NULL;
}

void efi_measure_boot(uint64_t system_table, const struct efi_measured *m)
{
	static const uint64_t guid[2] = {EFI_TCG2_GUID_LOW, EFI_TCG2_GUID_HIGH};
	efi_locate_protocol_fn locate_protocol =
		(efi_locate_protocol_fn)(uintptr_t)boot_service(system_table,
								 EFI_BS_LOCATE_PROTOCOL);
	void *tcg2 = NULL;
	if (locate_protocol(guid, NULL, &tcg2) != EFI_SUCCESS || !tcg2)
		return; /* no TPM 2.0: nothing to measure into */
	static const char kernel[] = EFI_MEASURED_KERNEL;
	unsigned events = 0;
	int failed = extend(tcg2, TCG_EV_IPL, m->kernel, m->kernel_size, kernel, sizeof(kernel));
	events += !failed;
	if (m->options_size) {
		int rc = extend_tagged(tcg2, TCG_TAG_LINUX_LOAD_OPTIONS, TCG_TAG_LINUX_OPTIONS_NAME,
				       m->options, m->options_size);
		failed |= rc;
		events += !rc;
	}
	if (m->initrd_size) {
		int rc = extend_tagged(tcg2, TCG_TAG_LINUX_INITRD, TCG_TAG_LINUX_INITRD_NAME,
				       m->initrd, m->initrd_size);
		failed |= rc;
		events += !rc;
	}
	if (failed)
		console_print("kslide: warning: measured boot: the TPM refused an event; its PCR "
			      "%u does not record this boot\n",
			      (unsigned)TCG_LINUX_PCR);
	const char *why = install_linux_log(system_table, tcg2);
	if (why)
		console_print("kslide: warning: measured boot: %s; Linux will not see the event "
			      "log\n",
			      why);
	console_print("kslide: measured pcr=%u events=%u\n", (unsigned)TCG_LINUX_PCR, events);
}
