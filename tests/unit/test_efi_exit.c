/*
 * Unit tests for boot/efi_exit.c: ExitBootServices against a fake firmware whose memory map
 * changes under it, as a timer event that allocates between GetMemoryMap and the exit does
 * (UEFI 2.10, 7.4: the exit then fails with EFI_INVALID_PARAMETER and must be retried with a
 * fresh map and key).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "boot/efi.h"
#include "lib/errors.h"

#define MAP_CAPACITY 4096
#define DESC_SIZE    48
#define IMAGE_HANDLE 0x1234

/* The fake firmware: its map key moves by one each time the map changes; stale_exits exits
 * see it changed after the caller read it. */
static uint64_t key;
static uint64_t map_size;
static int stale_exits;
static uint64_t exit_status; /* what the exit answers once the key is fresh */
static int map_calls, exit_calls;
static uint64_t last_exit_key;

static uint64_t EFIAPI fake_get_memory_map(uint64_t *size, void *map, uint64_t *map_key,
					   uint64_t *desc_size, uint32_t *desc_version)
{
	map_calls++;
	*desc_size = DESC_SIZE;
	*desc_version = 1;
	if (*size < map_size) {
		*size = map_size;
		return EFI_BUFFER_TOO_SMALL;
	}
	memset(map, map_calls, map_size);
	*size = map_size;
	*map_key = key;
	return EFI_SUCCESS;
}

static uint64_t EFIAPI fake_exit_boot_services(uint64_t image_handle, uint64_t map_key)
{
	exit_calls++;
	last_exit_key = map_key;
	assert_int_equal(image_handle, IMAGE_HANDLE);
	if (stale_exits > 0) {
		stale_exits--;
		key++;		       /* an allocation since the map was read */
		map_size += DESC_SIZE; /* and one descriptor more */
		return EFI_INVALID_PARAMETER;
	}
	return map_key == key ? exit_status : EFI_INVALID_PARAMETER;
}

static struct efi_handover h;
static uint8_t buffer[MAP_CAPACITY];
static const char *why;

static int setup(void **state)
{
	(void)state;
	key = 7;
	map_size = 10 * DESC_SIZE;
	stale_exits = 0;
	exit_status = EFI_SUCCESS;
	map_calls = exit_calls = 0;
	last_exit_key = 0;
	why = NULL;
	memset(&h, 0, sizeof(h));
	h.image_handle = IMAGE_HANDLE;
	h.calls.get_memory_map = fake_get_memory_map;
	h.calls.exit_boot_services = fake_exit_boot_services;
	return 0;
}

static void test_exit_with_the_key_of_the_map_read_just_before(void **state)
{
	(void)state;
	assert_int_equal(efi_exit_boot_services(&h, buffer, sizeof(buffer), &why), KS_OK);
	assert_int_equal(map_calls, 1);
	assert_int_equal(exit_calls, 1);
	assert_int_equal(last_exit_key, 7);
	assert_ptr_equal(h.map, buffer);
	assert_int_equal(h.map_size, 10 * DESC_SIZE);
	assert_int_equal(h.desc_size, DESC_SIZE);
	assert_int_equal(h.desc_version, 1);
}

static void test_a_map_changed_before_the_exit_is_read_again_and_the_exit_retried(void **state)
{
	(void)state;
	stale_exits = 1;
	assert_int_equal(efi_exit_boot_services(&h, buffer, sizeof(buffer), &why), KS_OK);
	assert_int_equal(map_calls, 2);
	assert_int_equal(exit_calls, 2);
	assert_int_equal(last_exit_key, 8);
	/* The map handed on is the one the exit succeeded with, not the stale one. */
	assert_int_equal(h.map_size, 11 * DESC_SIZE);
	assert_int_equal(buffer[0], 2);
}

static void test_a_map_that_keeps_changing_is_given_up_after_the_attempts(void **state)
{
	(void)state;
	stale_exits = EFI_EXIT_ATTEMPTS;
	assert_int_equal(efi_exit_boot_services(&h, buffer, sizeof(buffer), &why), KS_EINVAL);
	assert_int_equal(exit_calls, EFI_EXIT_ATTEMPTS);
	assert_string_equal(why, "the EFI memory map kept changing under ExitBootServices");
	assert_null(h.map);
}

static void test_a_map_larger_than_the_buffer_is_refused_before_any_exit(void **state)
{
	(void)state;
	map_size = MAP_CAPACITY + DESC_SIZE;
	assert_int_equal(efi_exit_boot_services(&h, buffer, sizeof(buffer), &why), KS_ENOSPC);
	assert_int_equal(exit_calls, 0);
	assert_string_equal(why, "the EFI memory map is larger than the stub's buffer");
}

static void test_another_exit_error_is_not_retried(void **state)
{
	(void)state;
	exit_status = EFI_UNSUPPORTED;
	assert_int_equal(efi_exit_boot_services(&h, buffer, sizeof(buffer), &why), KS_EINVAL);
	assert_int_equal(exit_calls, 1);
	assert_string_equal(why, "ExitBootServices failed");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_exit_with_the_key_of_the_map_read_just_before, setup),
		cmocka_unit_test_setup(
			test_a_map_changed_before_the_exit_is_read_again_and_the_exit_retried,
			setup),
		cmocka_unit_test_setup(
			test_a_map_that_keeps_changing_is_given_up_after_the_attempts, setup),
		cmocka_unit_test_setup(test_a_map_larger_than_the_buffer_is_refused_before_any_exit,
				       setup),
		cmocka_unit_test_setup(test_another_exit_error_is_not_retried, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
