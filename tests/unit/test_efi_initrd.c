/*
 * Unit tests for boot/efi_initrd.c against a fake firmware: Linux's initrd device path
 * (LoadFile2) is preferred to initrd= words, as in Linux's efi_load_initrd; initrd= files are
 * read from the image's own device and concatenated at 4-byte aligned offsets; a missing file
 * is named; no initrd at all is no error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "boot/efi.h"
#include "lib/errors.h"
#include "lib/unaligned.h"

#define IMAGE_HANDLE  0x1111
#define DEVICE_HANDLE 0x2222
#define LF2_HANDLE    0x3333
#define BS_BYTES      400
#define LOADED_BYTES  80
#define FILES_MAX     12

static uint8_t system_table[128], boot_services[BS_BYTES], loaded_image[LOADED_BYTES];
static uint8_t memory[4096] __attribute__((aligned(4096)));
static bool has_device_path;
static const char device_path_initrd[] = "from the device path";
static struct efi_handover h;
static struct boot_env env;

/* A file as EFI_FILE_PROTOCOL: its members first, then the fake's state. */
struct fake_file {
	uint64_t revision;
	void *open, *close, *delete_, *read, *write, *get_position, *set_position;
	const char *name, *data;
	uint64_t size, position;
};
static struct fake_file files[FILES_MAX], root;
static struct {
	uint64_t revision;
	void *open_volume;
} sfs;
static struct {
	void *load_file;
} lf2;

static bool is_guid(const void *guid, uint64_t low, uint64_t high)
{
	return load_le64(guid) == low && load_le64((const uint8_t *)guid + 8) == high;
}

static uint64_t EFIAPI fake_allocate_pages(uint32_t type, uint32_t memory_type, uint64_t pages,
					   uint64_t *at)
{
	assert_int_equal(type, EFI_ALLOCATE_MAX_ADDRESS);
	assert_int_equal(memory_type, EFI_LOADER_DATA);
	assert_int_equal(*at, EFI_INITRD_MAX);
	if (pages * EFI_PAGE_SIZE > sizeof(memory))
		return EFI_BUFFER_TOO_SMALL;
	memset(memory, 0xee, sizeof(memory)); /* what the firmware left there */
	*at = (uintptr_t)memory;
	return EFI_SUCCESS;
}

static uint64_t EFIAPI fake_locate_device_path(const void *guid, const void **path,
					       uint64_t *device)
{
	const uint8_t *node = *path;
	assert_true(is_guid(guid, EFI_LOAD_FILE2_GUID_LOW, EFI_LOAD_FILE2_GUID_HIGH));
	assert_int_equal(node[0], EFI_DP_MEDIA);
	assert_int_equal(node[1], EFI_DP_MEDIA_VENDOR);
	assert_true(is_guid(node + EFI_DP_HEADER_SIZE, LINUX_EFI_INITRD_MEDIA_GUID_LOW,
			    LINUX_EFI_INITRD_MEDIA_GUID_HIGH));
	if (!has_device_path)
		return EFI_NOT_FOUND;
	*path = node + load_le16(node + 2); /* the end node: all of the path matched */
	*device = LF2_HANDLE;
	return EFI_SUCCESS;
}

static uint64_t EFIAPI fake_load_file(void *self, const void *path, uint8_t boot_policy,
				      uint64_t *size, void *buffer)
{
	assert_ptr_equal(self, &lf2);
	assert_int_equal(((const uint8_t *)path)[0], EFI_DP_END);
	assert_int_equal(boot_policy, 0);
	if (!buffer || *size < sizeof(device_path_initrd)) {
		*size = sizeof(device_path_initrd);
		return EFI_BUFFER_TOO_SMALL;
	}
	memcpy(buffer, device_path_initrd, sizeof(device_path_initrd));
	return EFI_SUCCESS;
}

static uint64_t EFIAPI fake_handle_protocol(uint64_t handle, const void *guid, void **interface)
{
	if (handle == IMAGE_HANDLE &&
	    is_guid(guid, EFI_LOADED_IMAGE_GUID_LOW, EFI_LOADED_IMAGE_GUID_HIGH))
		*interface = loaded_image;
	else if (handle == DEVICE_HANDLE &&
		 is_guid(guid, EFI_SIMPLE_FS_GUID_LOW, EFI_SIMPLE_FS_GUID_HIGH))
		*interface = &sfs;
	else if (handle == LF2_HANDLE &&
		 is_guid(guid, EFI_LOAD_FILE2_GUID_LOW, EFI_LOAD_FILE2_GUID_HIGH))
		*interface = &lf2;
	else
		return EFI_UNSUPPORTED;
	return EFI_SUCCESS;
}

static uint64_t EFIAPI fake_open_volume(void *self, void **dir)
{
	assert_ptr_equal(self, &sfs);
	*dir = &root;
	return EFI_SUCCESS;
}

static bool same_name(const uint16_t *utf16, const char *ascii)
{
	for (; *ascii; utf16++, ascii++)
		if (*utf16 != (uint8_t)*ascii)
			return false;
	return *utf16 == 0;
}

static uint64_t EFIAPI fake_open(void *dir, void **file, const uint16_t *name, uint64_t mode,
				 uint64_t attributes)
{
	assert_ptr_equal(dir, &root);
	assert_int_equal(mode, EFI_FILE_MODE_READ);
	assert_int_equal(attributes, 0);
	for (int i = 0; i < FILES_MAX && files[i].name; i++)
		if (same_name(name, files[i].name)) {
			files[i].position = 0;
			*file = &files[i];
			return EFI_SUCCESS;
		}
	return EFI_NOT_FOUND;
}

static uint64_t EFIAPI fake_close(void *file)
{
	(void)file;
	return EFI_SUCCESS;
}

/* Gives at most 3 bytes a call, as a firmware may give less than asked. */
static uint64_t EFIAPI fake_read(void *file, uint64_t *size, void *buffer)
{
	struct fake_file *f = file;
	uint64_t n = f->size - f->position;
	if (n > *size)
		n = *size;
	if (n > 3)
		n = 3;
	memcpy(buffer, f->data + f->position, n);
	f->position += n;
	*size = n;
	return EFI_SUCCESS;
}

static uint64_t EFIAPI fake_set_position(void *file, uint64_t position)
{
	struct fake_file *f = file;
	f->position = position == EFI_FILE_POSITION_END ? f->size : position;
	return EFI_SUCCESS;
}

static uint64_t EFIAPI fake_get_position(void *file, uint64_t *position)
{
	*position = ((struct fake_file *)file)->position;
	return EFI_SUCCESS;
}

static void add_file(int i, const char *name, const char *data)
{
	files[i] = root;
	files[i].name = name;
	files[i].data = data;
	files[i].size = strlen(data);
}

static void put_pointer(uint8_t *table, uint64_t offset, void *p)
{
	store_le64(table + offset, (uintptr_t)p);
}

static int setup(void **state)
{
	(void)state;
	memset(&env, 0, sizeof(env));
	memset(files, 0, sizeof(files));
	has_device_path = false;
	put_pointer(system_table, EFI_ST_BOOT_SERVICES, boot_services);
	put_pointer(boot_services, EFI_BS_ALLOCATE_PAGES, (void *)fake_allocate_pages);
	put_pointer(boot_services, EFI_BS_HANDLE_PROTOCOL, (void *)fake_handle_protocol);
	put_pointer(boot_services, EFI_BS_LOCATE_DEVICE_PATH, (void *)fake_locate_device_path);
	store_le64(loaded_image + EFI_LI_DEVICE_HANDLE, DEVICE_HANDLE);
	sfs.open_volume = (void *)fake_open_volume;
	lf2.load_file = (void *)fake_load_file;
	root = (struct fake_file){.open = (void *)fake_open,
				  .close = (void *)fake_close,
				  .read = (void *)fake_read,
				  .get_position = (void *)fake_get_position,
				  .set_position = (void *)fake_set_position};
	h.image_handle = IMAGE_HANDLE;
	h.system_table = (uintptr_t)system_table;
	return 0;
}

static void assert_initrd(uint64_t size)
{
	assert_int_equal(env.module_count, 1);
	assert_int_equal(env.modules[0].start, (uintptr_t)memory);
	assert_int_equal(env.modules[0].end, (uintptr_t)memory + size);
	assert_int_equal(env.avoid_count, 1);
	assert_int_equal(env.avoid[0].start, (uintptr_t)memory);
	assert_int_equal(env.avoid[0].length, size);
}

static void test_the_device_path_is_preferred_to_initrd_words(void **state)
{
	(void)state;
	has_device_path = true;
	add_file(0, "\\a.img", "from a file");
	assert_int_equal(efi_load_initrd(&h, "quiet initrd=\\a.img", &env), KS_OK);
	assert_initrd(sizeof(device_path_initrd));
	assert_string_equal((const char *)memory, device_path_initrd);
}

static void test_initrd_files_are_concatenated_4_byte_aligned(void **state)
{
	(void)state;
	add_file(0, "\\a.img", "ABCDE");
	add_file(1, "\\boot\\b.img", "xyz");
	assert_int_equal(
		efi_load_initrd(&h, "initrd=\\a.img root=/dev/sda initrd=/boot/b.img", &env),
		KS_OK);
	assert_initrd(8 + 3);
	assert_memory_equal(memory, "ABCDE\0\0\0xyz", 11);
}

static void test_a_missing_initrd_file_is_named(void **state)
{
	(void)state;
	add_file(0, "\\a.img", "ABCDE");
	assert_int_equal(efi_load_initrd(&h, "initrd=\\a.img initrd=\\gone.img", &env), KS_ENOENT);
	assert_string_equal(env.why, "initrd= file not found on the image's device: \\gone.img");
	assert_int_equal(env.module_count, 0);
}

static void test_no_device_path_and_no_initrd_word_is_no_initrd(void **state)
{
	(void)state;
	assert_int_equal(efi_load_initrd(&h, "quiet xinitrd=\\a.img initrd=", &env), KS_OK);
	assert_int_equal(env.module_count, 0);
	assert_int_equal(efi_load_initrd(&h, NULL, &env), KS_OK);
	assert_int_equal(env.module_count, 0);
}

static void test_more_initrd_files_than_the_stub_reads_are_refused(void **state)
{
	(void)state;
	add_file(0, "\\a.img", "A");
	char line[256] = "";
	for (int i = 0; i < 9; i++)
		strcat(line, "initrd=\\a.img ");
	assert_int_equal(efi_load_initrd(&h, line, &env), KS_ENOSPC);
	assert_int_equal(env.module_count, 0);
}

#define T(fn) cmocka_unit_test_setup(fn, setup)
int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_the_device_path_is_preferred_to_initrd_words),
		T(test_initrd_files_are_concatenated_4_byte_aligned),
		T(test_a_missing_initrd_file_is_named),
		T(test_no_device_path_and_no_initrd_word_is_no_initrd),
		T(test_more_initrd_files_than_the_stub_reads_are_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
