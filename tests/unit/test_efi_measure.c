/*
 * Unit tests for boot/efi_measure.c against a fake firmware with a fake EFI_TCG2_PROTOCOL:
 * the events the stub asks the TPM to extend (PCR, type, data, what is hashed), and Linux's
 * copy of the event log (the whole log, its last entry included; the final events' size;
 * ACPI reclaim memory; the GUID Linux looks for). The boot test (measured-boot) judges the
 * same against OVMF, swtpm and Linux.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "boot/console.h"
#include "boot/efi.h"
#include "include/protocol/tcg2.h"
#include "lib/unaligned.h"

#define BS_BYTES     400
#define EVENTS_MAX   8
#define SHA256	     0x000b

static uint8_t system_table[128], boot_services[BS_BYTES], config[2 * EFI_CONFIG_ENTRY_SIZE];
static uint8_t log_bytes[512], final_table[256], pool[1024];
static uint64_t log_last;
static bool has_tcg2, refuse_extend;
static char printed[1024];

struct extended {
	uint64_t data, size;
	uint32_t pcr, type;
	uint8_t event[128];
	uint32_t event_size;
};
static struct extended extended[EVENTS_MAX];
static int extends;
static struct {
	uint32_t type;
	uint64_t size;
	int calls;
} allocated;
static struct {
	uint64_t low, high;
	void *table;
	int calls;
} installed;

void console_print(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t used = strlen(printed);
	vsnprintf(printed + used, sizeof(printed) - used, fmt, ap);
	va_end(ap);
}

static uint64_t EFIAPI fake_hash_log_extend(void *tcg2, uint64_t flags, uint64_t data,
					    uint64_t size, const void *event)
{
	(void)tcg2;
	assert_int_equal(flags, 0);
	assert_true(extends < EVENTS_MAX);
	struct extended *e = &extended[extends++];
	const uint8_t *ev = event;
	e->data = data;
	e->size = size;
	e->event_size = load_le32(ev);
	assert_true(e->event_size <= sizeof(e->event));
	memcpy(e->event, ev, e->event_size);
	assert_int_equal(load_le32(ev + 4), EFI_TCG2_EVENT_HEADER_SIZE);
	assert_int_equal(load_le16(ev + 8), EFI_TCG2_EVENT_HEADER_VERSION);
	e->pcr = load_le32(ev + 10);
	e->type = load_le32(ev + 14);
	return refuse_extend ? EFI_INVALID_PARAMETER : EFI_SUCCESS;
}

static uint64_t EFIAPI fake_get_event_log(void *tcg2, uint32_t format, uint64_t *log,
					  uint64_t *last, uint8_t *truncated)
{
	(void)tcg2;
	if (format != EFI_TCG2_LOG_FORMAT_TCG_2)
		return EFI_INVALID_PARAMETER;
	*log = (uintptr_t)log_bytes;
	*last = log_last;
	*truncated = 0;
	return EFI_SUCCESS;
}

static struct {
	void *get_capability, *get_event_log, *hash_log_extend;
} tcg2;

static uint64_t EFIAPI fake_locate_protocol(const void *guid, void *registration, void **out)
{
	(void)registration;
	if (!has_tcg2 || load_le64(guid) != EFI_TCG2_GUID_LOW ||
	    load_le64((const uint8_t *)guid + 8) != EFI_TCG2_GUID_HIGH)
		return EFI_NOT_FOUND;
	*out = &tcg2;
	return EFI_SUCCESS;
}

static uint64_t EFIAPI fake_allocate_pool(uint32_t type, uint64_t size, void **buffer)
{
	allocated.type = type;
	allocated.size = size;
	allocated.calls++;
	if (size > sizeof(pool))
		return EFI_INVALID_PARAMETER;
	memset(pool, 0xee, sizeof(pool));
	*buffer = pool;
	return EFI_SUCCESS;
}

static uint64_t EFIAPI fake_install_config_table(const void *guid, void *table)
{
	installed.low = load_le64(guid);
	installed.high = load_le64((const uint8_t *)guid + 8);
	installed.table = table;
	installed.calls++;
	return EFI_SUCCESS;
}

/* A crypto-agile log: the Spec ID event (SHA-256 only), then events of data_size bytes. */
static size_t put_first(uint8_t *at)
{
	memset(at, 0, 32);
	store_le32(at + 4, TCG_EV_NO_ACTION);
	uint8_t *spec = at + 32;
	memcpy(spec, TCG_SPEC_ID_SIGNATURE, 16);
	memset(spec + 16, 0, 8);
	store_le32(spec + 24, 1);
	store_le16(spec + 28, SHA256);
	store_le16(spec + 30, 32);
	spec[32] = 0;
	store_le32(at + 28, 33);
	return 32 + 33;
}

static size_t put_event(uint8_t *at, uint32_t pcr, uint32_t data_size)
{
	store_le32(at, pcr);
	store_le32(at + 4, TCG_EV_IPL);
	store_le32(at + 8, 1);
	store_le16(at + 12, SHA256);
	memset(at + 14, 0x5a, 32);
	store_le32(at + 46, data_size);
	memset(at + 50, 'd', data_size);
	return 50 + data_size;
}

static size_t log_size;

static int setup(void **state)
{
	(void)state;
	memset(printed, 0, sizeof(printed));
	memset(&allocated, 0, sizeof(allocated));
	memset(&installed, 0, sizeof(installed));
	extends = 0;
	has_tcg2 = true;
	refuse_extend = false;
	store_le64(system_table + EFI_ST_BOOT_SERVICES, (uintptr_t)boot_services);
	store_le64(boot_services + EFI_BS_LOCATE_PROTOCOL, (uintptr_t)fake_locate_protocol);
	store_le64(boot_services + EFI_BS_ALLOCATE_POOL, (uintptr_t)fake_allocate_pool);
	store_le64(boot_services + EFI_BS_INSTALL_CONFIG_TABLE, (uintptr_t)fake_install_config_table);
	tcg2.get_event_log = (void *)fake_get_event_log;
	tcg2.hash_log_extend = (void *)fake_hash_log_extend;
	/* The log: the Spec ID event, two firmware events, the last one 7 bytes of data. */
	size_t at = put_first(log_bytes);
	at += put_event(log_bytes + at, 0, 3);
	log_last = (uintptr_t)log_bytes + at;
	at += put_event(log_bytes + at, 4, 7);
	log_size = at;
	/* The final events table: one event (logged after an earlier GetEventLog). */
	store_le64(final_table, 1);
	store_le64(final_table + EFI_TCG2_FINAL_EVENTS_COUNT_AT, 1);
	put_event(final_table + EFI_TCG2_FINAL_EVENTS_AT, 5, 11);
	memset(config, 0, sizeof(config));
	store_le64(config + EFI_CONFIG_ENTRY_SIZE, EFI_TCG2_FINAL_EVENTS_GUID_LOW);
	store_le64(config + EFI_CONFIG_ENTRY_SIZE + 8, EFI_TCG2_FINAL_EVENTS_GUID_HIGH);
	store_le64(config + EFI_CONFIG_ENTRY_SIZE + 16, (uintptr_t)final_table);
	store_le64(system_table + EFI_ST_TABLE_ENTRIES, 2);
	store_le64(system_table + EFI_ST_CONFIG_TABLE, (uintptr_t)config);
	return 0;
}

static const struct efi_measured given = {
	.kernel = 0x1234000, .kernel_size = 0x56789,
	.options = 0x2000, .options_size = 42,
	.initrd = 0x3000000, .initrd_size = 0x10000,
};

static void assert_tagged(const struct extended *e, uint32_t tag, const char *name)
{
	size_t n = strlen(name) + 1;
	assert_int_equal(e->type, TCG_EV_EVENT_TAG);
	assert_int_equal(e->event_size, EFI_TCG2_EVENT_DATA_AT + 8 + n);
	assert_int_equal(load_le32(e->event + EFI_TCG2_EVENT_DATA_AT), tag);
	assert_int_equal(load_le32(e->event + EFI_TCG2_EVENT_DATA_AT + 4), n);
	assert_memory_equal(e->event + EFI_TCG2_EVENT_DATA_AT + 8, name, n);
}

static void test_kernel_options_and_initrd_are_measured_into_pcr_9(void **state)
{
	(void)state;
	efi_measure_boot((uintptr_t)system_table, &given);
	assert_int_equal(extends, 3);
	for (int i = 0; i < 3; i++)
		assert_int_equal(extended[i].pcr, 9);
	assert_int_equal(extended[0].type, TCG_EV_IPL);
	assert_int_equal(extended[0].data, given.kernel);
	assert_int_equal(extended[0].size, given.kernel_size);
	assert_int_equal(extended[0].event_size, EFI_TCG2_EVENT_DATA_AT + sizeof(EFI_MEASURED_KERNEL));
	assert_memory_equal(extended[0].event + EFI_TCG2_EVENT_DATA_AT, EFI_MEASURED_KERNEL,
			    sizeof(EFI_MEASURED_KERNEL));
	assert_int_equal(extended[1].data, given.options);
	assert_int_equal(extended[1].size, given.options_size);
	assert_tagged(&extended[1], TCG_TAG_LINUX_LOAD_OPTIONS, TCG_TAG_LINUX_OPTIONS_NAME);
	assert_int_equal(extended[2].data, given.initrd);
	assert_int_equal(extended[2].size, given.initrd_size);
	assert_tagged(&extended[2], TCG_TAG_LINUX_INITRD, TCG_TAG_LINUX_INITRD_NAME);
	assert_non_null(strstr(printed, "kslide: measured pcr=9 events=3\n"));
	assert_null(strstr(printed, "warning"));
}

static void test_nothing_given_is_not_measured(void **state)
{
	(void)state;
	struct efi_measured kernel_only = {.kernel = 0x1234000, .kernel_size = 1};
	efi_measure_boot((uintptr_t)system_table, &kernel_only);
	assert_int_equal(extends, 1);
	assert_non_null(strstr(printed, "kslide: measured pcr=9 events=1\n"));
}

static void test_linux_gets_the_whole_log(void **state)
{
	(void)state;
	efi_measure_boot((uintptr_t)system_table, &given);
	assert_int_equal(installed.calls, 1);
	assert_int_equal(installed.low, LINUX_EFI_TPM_EVENT_LOG_GUID_LOW);
	assert_int_equal(installed.high, LINUX_EFI_TPM_EVENT_LOG_GUID_HIGH);
	assert_ptr_equal(installed.table, pool);
	assert_int_equal(allocated.type, EFI_ACPI_RECLAIM_MEMORY);
	assert_int_equal(allocated.size, LINUX_TPM_LOG_HEADER + log_size);
	assert_int_equal(load_le32(pool), log_size);
	assert_int_equal(load_le32(pool + 4), 50 + 11); /* the one final event */
	assert_int_equal(pool[8], EFI_TCG2_LOG_FORMAT_TCG_2);
	assert_memory_equal(pool + LINUX_TPM_LOG_HEADER, log_bytes, log_size);
}

static void test_a_log_of_the_spec_event_alone(void **state)
{
	(void)state;
	log_last = (uintptr_t)log_bytes;
	store_le64(final_table + EFI_TCG2_FINAL_EVENTS_COUNT_AT, 0);
	efi_measure_boot((uintptr_t)system_table, &given);
	assert_int_equal(installed.calls, 1);
	assert_int_equal(load_le32(pool), 32 + 33);
	assert_int_equal(load_le32(pool + 4), 0);
}

static void test_an_unsizable_log_is_not_handed_on(void **state)
{
	(void)state;
	store_le16(log_bytes + (log_last - (uintptr_t)log_bytes) + 12, 0x0004); /* SHA-1: not named */
	efi_measure_boot((uintptr_t)system_table, &given);
	assert_int_equal(extends, 3);
	assert_int_equal(installed.calls, 0);
	assert_non_null(strstr(printed, "kslide: warning: measured boot: the log's entries cannot "
					 "be sized; Linux will not see the event log\n"));
}

static void test_a_refused_event_is_a_warning(void **state)
{
	(void)state;
	refuse_extend = true;
	efi_measure_boot((uintptr_t)system_table, &given);
	assert_int_equal(extends, 3);
	assert_non_null(strstr(printed, "kslide: warning: measured boot: the TPM refused an event"));
	assert_non_null(strstr(printed, "kslide: measured pcr=9 events=0\n"));
}

static void test_no_tpm_no_measurement(void **state)
{
	(void)state;
	has_tcg2 = false;
	efi_measure_boot((uintptr_t)system_table, &given);
	assert_int_equal(extends, 0);
	assert_int_equal(installed.calls, 0);
	assert_string_equal(printed, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_kernel_options_and_initrd_are_measured_into_pcr_9, setup),
		cmocka_unit_test_setup(test_nothing_given_is_not_measured, setup),
		cmocka_unit_test_setup(test_linux_gets_the_whole_log, setup),
		cmocka_unit_test_setup(test_a_log_of_the_spec_event_alone, setup),
		cmocka_unit_test_setup(test_an_unsizable_log_is_not_handed_on, setup),
		cmocka_unit_test_setup(test_a_refused_event_is_a_warning, setup),
		cmocka_unit_test_setup(test_no_tpm_no_measurement, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
