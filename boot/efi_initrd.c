/*
 * Linux's initrd from UEFI (boot/efi.h): the initrd device path first, then initrd= files,
 * as Linux's EFI stub does (drivers/firmware/efi/libstub/efi-stub-helper.c, efi_load_initrd,
 * and file.c). Boot services still run; every failure returns to the firmware.
 */
#include "boot/efi.h"
#include "lib/errors.h"
#include "lib/string.h"
#include "lib/unaligned.h"

#define INITRD_WORD	 "initrd="
#define INITRD_WORD_LEN	 7
#define INITRD_FILES_MAX 8   /* initrd= words read; more is refused */
#define PATH_MAX_UNITS	 256 /* UTF-16 units of one path, its NUL included */
#define READ_CHUNK                                                                                 \
	0x100000u	    /* Linux reads files 1 MiB at a time: some firmware                    \
				     fails larger reads (file.c, EFI_READ_CHUNK_SIZE) */
#define INITRD_FILE_ALIGN 4 /* cpio archives are read 4-byte aligned */

typedef uint64_t EFIAPI (*efi_allocate_pages_fn)(uint32_t type, uint32_t memory_type,
						 uint64_t pages, uint64_t *memory);
typedef uint64_t EFIAPI (*efi_locate_device_path_fn)(const void *guid, const void **path,
						     uint64_t *device);
typedef uint64_t EFIAPI (*efi_load_file_fn)(void *self, const void *path, uint8_t boot_policy,
					    uint64_t *size, void *buffer);
typedef uint64_t EFIAPI (*efi_open_volume_fn)(void *sfs, void **root);
typedef uint64_t EFIAPI (*efi_file_open_fn)(void *dir, void **file, const uint16_t *name,
					    uint64_t mode, uint64_t attributes);
typedef uint64_t EFIAPI (*efi_file_close_fn)(void *file);
typedef uint64_t EFIAPI (*efi_file_read_fn)(void *file, uint64_t *size, void *buffer);
typedef uint64_t EFIAPI (*efi_file_set_position_fn)(void *file, uint64_t position);
typedef uint64_t EFIAPI (*efi_file_get_position_fn)(void *file, uint64_t *position);

/* Linux's initrd device path: the vendor media node of LINUX_EFI_INITRD_MEDIA_GUID, the end. */
static const struct __attribute__((packed)) {
	uint8_t type, subtype;
	uint16_t length;
	uint64_t guid[2];
	uint8_t end_type, end_subtype;
	uint16_t end_length;
} initrd_path = {
	EFI_DP_MEDIA,
	EFI_DP_MEDIA_VENDOR,
	EFI_DP_HEADER_SIZE + 16,
	{LINUX_EFI_INITRD_MEDIA_GUID_LOW, LINUX_EFI_INITRD_MEDIA_GUID_HIGH},
	EFI_DP_END,
	EFI_DP_END_ENTIRE,
	EFI_DP_HEADER_SIZE,
};

static char why_missing[64 + PATH_MAX_UNITS];

static void *member(const void *table, uint64_t offset)
{
	return (void *)(uintptr_t)load_le64((const uint8_t *)table + offset);
}

static void *boot_service(const struct efi_handover *h, uint64_t offset)
{
	return member(member((const void *)(uintptr_t)h->system_table, EFI_ST_BOOT_SERVICES),
		      offset);
}

static int refuse(struct boot_env *env, int rc, const char *why)
{
	env->why = why;
	return rc;
}

/* Loader data below EFI_INITRD_MAX for size bytes; its address or 0. */
static uint64_t allocate(const struct efi_handover *h, uint64_t size)
{
	efi_allocate_pages_fn allocate_pages = boot_service(h, EFI_BS_ALLOCATE_PAGES);
	uint64_t at = EFI_INITRD_MAX;
	uint64_t pages = (size + EFI_PAGE_SIZE - 1) / EFI_PAGE_SIZE;
	if (allocate_pages(EFI_ALLOCATE_MAX_ADDRESS, EFI_LOADER_DATA, pages, &at) != EFI_SUCCESS)
		return 0;
	return at;
}

static int record(struct boot_env *env, uint64_t at, uint64_t size)
{
	env->modules[0].start = at;
	env->modules[0].end = at + size;
	env->modules[0].cmdline = 0;
	env->module_count = env->modules_given = 1;
	if (bootenv_avoid(env, at, size) != KS_OK)
		return refuse(env, KS_ENOSPC, "no room to protect the initrd");
	return KS_OK;
}

/* From the initrd device path: KS_ENOENT when no handle has it. */
static int load_from_device_path(const struct efi_handover *h, struct boot_env *env)
{
	efi_locate_device_path_fn locate = boot_service(h, EFI_BS_LOCATE_DEVICE_PATH);
	efi_handle_protocol_fn handle_protocol = boot_service(h, EFI_BS_HANDLE_PROTOCOL);
	static const uint64_t lf2_guid[2] = {EFI_LOAD_FILE2_GUID_LOW, EFI_LOAD_FILE2_GUID_HIGH};
	const void *path = &initrd_path;
	uint64_t device = 0, size = 0;
	void *lf2 = NULL;
	if (locate(lf2_guid, &path, &device) != EFI_SUCCESS)
		return KS_ENOENT;
	if (handle_protocol(device, lf2_guid, &lf2) != EFI_SUCCESS || !lf2)
		return refuse(env, KS_EINVAL, "the initrd device path has no LoadFile2 protocol");
	efi_load_file_fn load_file = member(lf2, EFI_LOAD_FILE2_LOAD_FILE);
	if (load_file(lf2, path, 0, &size, NULL) != EFI_BUFFER_TOO_SMALL || size == 0)
		return refuse(env, KS_EINVAL, "the initrd device path gives no size");
	uint64_t at = allocate(h, size);
	if (!at)
		return refuse(env, KS_ENOSPC, "no memory below 2 GiB for the initrd");
	if (load_file(lf2, path, 0, &size, (void *)(uintptr_t)at) != EFI_SUCCESS)
		return refuse(env, KS_EINVAL, "the initrd device path failed to load the initrd");
	return record(env, at, size);
}

/* The next initrd= word's path at or after *pos, or false. */
static bool next_initrd_word(const char *cmdline, size_t *pos, const char **path, size_t *len)
{
	size_t i = *pos;
	while (cmdline[i]) {
		while (cmdline[i] == ' ' || cmdline[i] == '\t')
			i++;
		size_t start = i;
		while (cmdline[i] && cmdline[i] != ' ' && cmdline[i] != '\t')
			i++;
		if (i - start > INITRD_WORD_LEN &&
		    memcmp(cmdline + start, INITRD_WORD, INITRD_WORD_LEN) == 0) {
			*path = cmdline + start + INITRD_WORD_LEN;
			*len = i - start - INITRD_WORD_LEN;
			*pos = i;
			return true;
		}
	}
	*pos = i;
	return false;
}

/* Open the file at path (len bytes, '/' read as '\', as Linux does) for reading. */
static int open_file(void *root, const char *path, size_t len, void **file, struct boot_env *env)
{
	uint16_t name[PATH_MAX_UNITS];
	static const char prefix[] = "initrd= file not found on the image's device: ";
	if (len >= PATH_MAX_UNITS)
		return refuse(env, KS_EINVAL, "an initrd= path is too long");
	for (size_t i = 0; i < len; i++)
		name[i] = path[i] == '/' ? '\\' : (uint8_t)path[i];
	name[len] = 0;
	efi_file_open_fn open = member(root, EFI_FILE_OPEN);
	if (open(root, file, name, EFI_FILE_MODE_READ, 0) == EFI_SUCCESS && *file)
		return KS_OK;
	memcpy(why_missing, prefix, sizeof(prefix) - 1);
	memcpy(why_missing + sizeof(prefix) - 1, path, len);
	why_missing[sizeof(prefix) - 1 + len] = '\0';
	return refuse(env, KS_ENOENT, why_missing);
}

static void close_file(void *file)
{
	efi_file_close_fn close = member(file, EFI_FILE_CLOSE);
	close(file);
}

static uint64_t file_size(void *file)
{
	efi_file_set_position_fn set = member(file, EFI_FILE_SET_POSITION);
	efi_file_get_position_fn get = member(file, EFI_FILE_GET_POSITION);
	uint64_t size = 0;
	if (set(file, EFI_FILE_POSITION_END) != EFI_SUCCESS || get(file, &size) != EFI_SUCCESS ||
	    set(file, 0) != EFI_SUCCESS)
		return UINT64_MAX;
	return size;
}

static uint64_t align_up(uint64_t v)
{
	return (v + INITRD_FILE_ALIGN - 1) & ~(uint64_t)(INITRD_FILE_ALIGN - 1);
}

/* Read the whole file into buffer, size bytes. */
static int read_file(void *file, uint8_t *buffer, uint64_t size)
{
	efi_file_read_fn read = member(file, EFI_FILE_READ);
	while (size) {
		uint64_t n = size < READ_CHUNK ? size : READ_CHUNK;
		if (read(file, &n, buffer) != EFI_SUCCESS || n == 0)
			return KS_EINVAL;
		buffer += n;
		size -= n;
	}
	return KS_OK;
}

/* From the initrd= words: two passes, sizes then contents, each file opened by its path. */
static int load_from_files(const struct efi_handover *h, const char *cmdline, struct boot_env *env)
{
	static const uint64_t li_guid[2] = {EFI_LOADED_IMAGE_GUID_LOW, EFI_LOADED_IMAGE_GUID_HIGH};
	static const uint64_t sfs_guid[2] = {EFI_SIMPLE_FS_GUID_LOW, EFI_SIMPLE_FS_GUID_HIGH};
	efi_handle_protocol_fn handle_protocol = boot_service(h, EFI_BS_HANDLE_PROTOCOL);
	void *image = NULL, *sfs = NULL, *root = NULL, *file = NULL;
	const char *path;
	size_t pos = 0, len, files = 0;
	uint64_t total = 0, sizes[INITRD_FILES_MAX] = {0};
	if (!cmdline || !next_initrd_word(cmdline, &pos, &path, &len))
		return KS_OK;
	if (handle_protocol(h->image_handle, li_guid, &image) != EFI_SUCCESS || !image ||
	    handle_protocol(load_le64((const uint8_t *)image + EFI_LI_DEVICE_HANDLE), sfs_guid,
			    &sfs) != EFI_SUCCESS ||
	    !sfs)
		return refuse(env, KS_EINVAL,
			      "initrd= given, but the image's device has no file "
			      "system");
	efi_open_volume_fn open_volume = member(sfs, EFI_SFS_OPEN_VOLUME);
	if (open_volume(sfs, &root) != EFI_SUCCESS || !root)
		return refuse(env, KS_EINVAL, "cannot open the image's file system for initrd=");
	for (pos = 0; next_initrd_word(cmdline, &pos, &path, &len); files++) {
		if (files == INITRD_FILES_MAX)
			return refuse(env, KS_ENOSPC, "more initrd= files than the stub reads (8)");
		int rc = open_file(root, path, len, &file, env);
		if (rc != KS_OK)
			return rc;
		sizes[files] = file_size(file);
		close_file(file);
		if (sizes[files] > EFI_INITRD_MAX - align_up(total))
			return refuse(env, KS_EINVAL,
				      "an initrd= file's size is unreadable or "
				      "too large");
		total = align_up(total) + sizes[files];
	}
	uint64_t at = allocate(h, total);
	if (!at)
		return refuse(env, KS_ENOSPC, "no memory below 2 GiB for the initrd= files");
	memset((void *)(uintptr_t)at, 0, (size_t)total);
	uint64_t offset = 0;
	files = 0;
	for (pos = 0; next_initrd_word(cmdline, &pos, &path, &len); files++) {
		int rc = open_file(root, path, len, &file, env);
		if (rc != KS_OK)
			return rc;
		offset = align_up(offset);
		rc = read_file(file, (uint8_t *)(uintptr_t)(at + offset), sizes[files]);
		close_file(file);
		if (rc != KS_OK)
			return refuse(env, rc, "an initrd= file could not be read");
		offset += sizes[files];
	}
	close_file(root);
	return record(env, at, total);
}

int efi_load_initrd(const struct efi_handover *h, const char *cmdline, struct boot_env *env)
{
	int rc = load_from_device_path(h, env);
	return rc == KS_ENOENT ? load_from_files(h, cmdline, env) : rc;
}
