/* The Multiboot 2 information of boot/multiboot2_uefi.h, counted and then written by one walk
 * (boot/multiboot2_writer.h). */
#include "boot/multiboot2_uefi.h"
#include "boot/multiboot2_writer.h"
#include "include/protocol/acpi_rsdp.h"
#include "lib/errors.h"

#define MMAP_VERSION	 0	  /* Multiboot2 2.0, 3.6.8 */
#define LOWER_MEMORY_END 0xa0000  /* the most mem_lower counts: 640 KiB */
#define UPPER_MEMORY	 0x100000 /* mem_upper counts from 1 MiB */
#define KIB		 1024

static void put_string(struct mb2_writer *w, uint32_t type, const char *s)
{
	uint32_t tag = mb2_tag_open(w, type);
	s = s ? s : "";
	mb2_put(w, s, (uint32_t)strlen(s) + 1);
	mb2_tag_close(w, tag);
}

static void put_modules(struct mb2_writer *w, const struct boot_env *env)
{
	for (uint32_t i = 0; i < env->module_count; i++) {
		const struct kslide_module *m = &env->modules[i];
		uint32_t tag = mb2_tag_open(w, MB2_INFO_TAG_MODULE);
		mb2_put32(w, (uint32_t)m->start);
		mb2_put32(w, (uint32_t)m->end);
		const char *s = m->cmdline ? (const char *)(uintptr_t)m->cmdline : "";
		mb2_put(w, s, (uint32_t)strlen(s) + 1);
		mb2_tag_close(w, tag);
	}
}

static void put_mmap(struct mb2_writer *w, const struct boot_env *env)
{
	uint32_t tag = mb2_tag_open(w, MB2_INFO_TAG_MMAP);
	mb2_put32(w, MB2_MMAP_ENTRY_MIN);
	mb2_put32(w, MMAP_VERSION);
	for (uint32_t i = 0; i < env->map_count; i++) {
		mb2_put64(w, env->map[i].base);
		mb2_put64(w, env->map[i].length);
		mb2_put32(w, env->map[i].type);
		mb2_put32(w, 0);
	}
	mb2_tag_close(w, tag);
}

/* KiB of usable memory in the entry that starts at 'from', up to 'limit' (0: none); as
 * GRUB's grub_mmap_get_lower and _upper read its map. */
static uint32_t usable_kib_from(const struct boot_env *env, uint64_t from, uint64_t limit)
{
	for (uint32_t i = 0; i < env->map_count; i++) {
		const struct kslide_mem_entry *e = &env->map[i];
		if (e->type != KSLIDE_MEM_USABLE || e->base > from || e->base + e->length <= from)
			continue;
		uint64_t end = e->base + e->length;
		if (limit && end > limit)
			end = limit;
		return (uint32_t)((end - from) / KIB);
	}
	return 0;
}

static void put_meminfo(struct mb2_writer *w, const struct boot_env *env)
{
	uint32_t tag = mb2_tag_open(w, MB2_INFO_TAG_BASIC_MEMINFO);
	mb2_put32(w, usable_kib_from(env, 0, LOWER_MEMORY_END));
	mb2_put32(w, usable_kib_from(env, UPPER_MEMORY, 0));
	mb2_tag_close(w, tag);
}

static void put_system_table(struct mb2_writer *w, const struct boot_env *env)
{
	uint32_t tag = mb2_tag_open(w, MB2_INFO_TAG_EFI64);
	mb2_put64(w, env->efi_system_table);
	mb2_tag_close(w, tag);
}

/* GRUB on UEFI gives the ACPI 1.0 table's RSDP in the old tag and the 2.0 one's in the new:
 * the one RSDP the stub kept serves as both, its first 20 bytes being the 1.0 structure. */
static void put_rsdp(struct mb2_writer *w, const struct boot_env *env)
{
	if (!env->acpi_rsdp_copy || env->acpi_rsdp_size < ACPI_RSDP_V1_BYTES)
		return;
	const uint8_t *rsdp = (const uint8_t *)(uintptr_t)env->acpi_rsdp_copy;
	uint32_t tag = mb2_tag_open(w, MB2_INFO_TAG_ACPI_OLD);
	mb2_put(w, rsdp, ACPI_RSDP_V1_BYTES);
	mb2_tag_close(w, tag);
	if (env->acpi_rsdp_size == ACPI_RSDP_V1_BYTES)
		return;
	tag = mb2_tag_open(w, MB2_INFO_TAG_ACPI_NEW);
	mb2_put(w, rsdp, env->acpi_rsdp_size);
	mb2_tag_close(w, tag);
}

static void put_efi_mmap(struct mb2_writer *w, const struct boot_env *env)
{
	uint32_t tag = mb2_tag_open(w, MB2_INFO_TAG_EFI_MMAP);
	mb2_put32(w, env->efi_memdesc_size);
	mb2_put32(w, env->efi_memdesc_version);
	mb2_put(w, (const void *)(uintptr_t)env->efi_memmap, (uint32_t)env->efi_memmap_size);
	mb2_tag_close(w, tag);
}

static void write_info(struct mb2_writer *w, const struct boot_env *env, uint64_t kernel_phys)
{
	mb2_start(w);
	uint32_t tag = mb2_tag_open(w, MB2_INFO_TAG_LOAD_BASE);
	mb2_put32(w, (uint32_t)kernel_phys);
	mb2_tag_close(w, tag);
	put_string(w, MB2_INFO_TAG_CMDLINE, env->cmdline);
	put_string(w, MB2_INFO_TAG_LOADER_NAME, env->loader_name);
	put_modules(w, env);
	put_mmap(w, env);
	put_meminfo(w, env);
	put_system_table(w, env);
	put_rsdp(w, env);
	put_efi_mmap(w, env);
	mb2_finish(w);
}

int multiboot2_from_uefi(const struct boot_env *env, uint64_t kernel_phys, memory_lender lend,
			 uint64_t *out, const char **why)
{
	struct mb2_writer count = {0}, w = {0};
	if (!env->efi_memmap || env->efi_bits != 64 || env->efi_boot_services ||
	    env->efi_memmap_size > UINT32_MAX / 2) {
		*why = "no EFI memory map from ExitBootServices for the Multiboot 2 information";
		return KS_EINVAL;
	}
	write_info(&count, env, kernel_phys);
	if (lend(count.at, out) != KS_OK) {
		*why = "no free memory below 4 GiB for the Multiboot 2 information";
		return KS_ENOENT;
	}
	w.dst = (uint8_t *)(uintptr_t)*out;
	write_info(&w, env, kernel_phys);
	return KS_OK;
}
