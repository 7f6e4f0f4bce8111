/*
 * Multiboot2 boot information parsing. Layout from the Multiboot2 Specification 2.0, section
 * 3.6 "Boot information format": a fixed part, then tags. Each tag starts 8-byte aligned with
 * a 32-bit type and a 32-bit size that counts the tag's header but not its padding; a tag of
 * type 0 and size 8 ends the list.
 *
 *   info_addr                                                       info_addr + total_size
 *   | total_size | reserved | type | size | data ... | pad | type | size | ... | 0 | 8 |
 *
 * Strings and memory maps live inside the structure, so avoiding the structure protects them;
 * only modules lie elsewhere.
 */
#include "boot/multiboot2.h"
#include "lib/errors.h"
#include "lib/unaligned.h"

/* UEFI 2.10, 7.2 EFI_BOOT_SERVICES.AllocatePages(): EFI_MEMORY_DESCRIPTOR and its types. */
#define EFI_DESC_MIN 40 /* Type, pad, PhysicalStart, VirtualStart, NumberOfPages, Attribute */
#define EFI_DESC_START 8
#define EFI_DESC_PAGES 24
#define EFI_PAGE_SHIFT 12
#define EFI_CONVENTIONAL_MEMORY 7
#define EFI_UNUSABLE_MEMORY 8
#define EFI_ACPI_RECLAIM_MEMORY 9
#define EFI_ACPI_MEMORY_NVS 10

#define ONE_MIB 0x100000u

/* Offsets of the first tag of each kind read after the walk; 0 when absent. */
struct tags {
	uint32_t cmdline, loader_name, meminfo, mmap, efi_mmap, acpi_old, acpi_new;
};

static int reject(struct boot_env *env, int rc, const char *why)
{
	env->why = why;
	return rc;
}

/* The smallest size a tag of this type may have: its fixed fields, plus a NUL for strings. */
static uint32_t min_size(uint32_t type)
{
	switch (type) {
	case MB2_INFO_TAG_CMDLINE:
	case MB2_INFO_TAG_LOADER_NAME:
		return MB2_STRING_AT + 1;
	case MB2_INFO_TAG_MODULE:
		return MB2_MODULE_STRING + 1;
	case MB2_INFO_TAG_BASIC_MEMINFO:
	case MB2_INFO_TAG_MMAP:
	case MB2_INFO_TAG_EFI64:
	case MB2_INFO_TAG_EFI_MMAP:
		return 16;
	case MB2_INFO_TAG_EFI32:
		return 12;
	}
	return MB2_TAG_HEADER;
}

/* The string from 'at' to the tag's end, or NULL if it has no NUL before then. */
static const char *tag_string(const uint8_t *tag, uint32_t at, uint32_t size)
{
	for (uint32_t i = at; i < size; i++)
		if (tag[i] == '\0')
			return (const char *)tag + at;
	return NULL;
}

static int parse_module(const uint8_t *tag, uint32_t size, uint64_t tag_phys, struct boot_env *env)
{
	/* Counted to the end, so that the refusal can say how many there were. */
	if (++env->modules_given > BOOTENV_MODULES_MAX)
		return KS_OK;
	if (!tag_string(tag, MB2_MODULE_STRING, size))
		return reject(env, KS_EFORMAT, "module string not terminated inside its tag");
	struct kslide_module *mod = &env->modules[env->module_count++];
	mod->start = load_le32(tag + MB2_MODULE_START);
	mod->end = load_le32(tag + MB2_MODULE_START + 4);
	mod->cmdline = tag_phys + MB2_MODULE_STRING;
	if (mod->end < mod->start)
		return reject(env, KS_EFORMAT, "module ends before it starts");
	return bootenv_avoid(env, mod->start, mod->end - mod->start);
}

/* Look at one tag during the walk: modules and EFI facts now, the rest remembered. */
static int note_tag(const uint8_t *tag, uint32_t off, uint64_t tag_phys, struct tags *t,
		    struct boot_env *env)
{
	uint32_t type = load_le32(tag), size = load_le32(tag + 4);
	uint32_t *first = NULL;
	switch (type) {
	case MB2_INFO_TAG_MODULE:
		return parse_module(tag, size, tag_phys, env);
	case MB2_INFO_TAG_EFI32:
		env->efi_system_table = load_le32(tag + 8);
		env->efi_bits = 32;
		break;
	case MB2_INFO_TAG_EFI64:
		env->efi_system_table = load_le64(tag + 8);
		env->efi_bits = 64;
		break;
	case MB2_INFO_TAG_EFI_BS:
		env->efi_boot_services = true;
		break;
	case MB2_INFO_TAG_CMDLINE:
		first = &t->cmdline;
		break;
	case MB2_INFO_TAG_LOADER_NAME:
		first = &t->loader_name;
		break;
	case MB2_INFO_TAG_BASIC_MEMINFO:
		first = &t->meminfo;
		break;
	case MB2_INFO_TAG_MMAP:
		first = &t->mmap;
		break;
	case MB2_INFO_TAG_EFI_MMAP:
		first = &t->efi_mmap;
		break;
	case MB2_INFO_TAG_ACPI_OLD:
		first = &t->acpi_old;
		break;
	case MB2_INFO_TAG_ACPI_NEW:
		first = &t->acpi_new;
		break;
	}
	if (first && !*first)
		*first = off;
	return KS_OK;
}

/* Check a map tag's entry size and that its entries fill it exactly; returns the count. */
static int map_entries(const uint8_t *tag, uint32_t min_entry, struct boot_env *env,
		       uint32_t *count)
{
	uint32_t size = load_le32(tag + 4), entry = load_le32(tag + MB2_MAP_ENTRY_SIZE);
	if (entry < min_entry)
		return reject(env, KS_EFORMAT,
			      "memory map entries smaller than the specification's");
	if ((size - MB2_MAP_ENTRIES) % entry)
		return reject(env, KS_EFORMAT, "memory map tag ends inside an entry");
	*count = (size - MB2_MAP_ENTRIES) / entry;
	return KS_OK;
}

static int parse_mmap(const uint8_t *tag, struct boot_env *env)
{
	uint32_t count = 0, entry = load_le32(tag + MB2_MAP_ENTRY_SIZE);
	int rc = map_entries(tag, MB2_MMAP_ENTRY_MIN, env, &count);
	for (uint32_t i = 0; i < count && rc == KS_OK; i++) {
		const uint8_t *e = tag + MB2_MAP_ENTRIES + i * entry;
		bootenv_add_map(env, load_le64(e), load_le64(e + 8), load_le32(e + 16));
	}
	return rc;
}

/*
 * Only EfiConventionalMemory is free for the kernel. Boot services code and data are free
 * too once the loader has called ExitBootServices(), but Linux keeps them until its runtime
 * services are set up because some firmware still touches them; and Loader code and data hold
 * what GRUB handed over. Both are left alone: fewer slots, never a clash.
 */
static uint32_t efi_type(uint32_t type)
{
	switch (type) {
	case EFI_CONVENTIONAL_MEMORY:
		return KSLIDE_MEM_USABLE;
	case EFI_UNUSABLE_MEMORY:
		return KSLIDE_MEM_BAD;
	case EFI_ACPI_RECLAIM_MEMORY:
		return KSLIDE_MEM_ACPI_RECLAIMABLE;
	case EFI_ACPI_MEMORY_NVS:
		return KSLIDE_MEM_ACPI_NVS;
	}
	return KSLIDE_MEM_RESERVED;
}

/* EFI maps come in many small pieces; join a piece to the previous entry when they touch. */
static void add_joined(struct boot_env *env, uint64_t base, uint64_t length, uint32_t type)
{
	if (env->map_count && !env->map_dropped) {
		struct kslide_mem_entry *last = &env->map[env->map_count - 1];
		if (last->type == type && base >= last->base && base - last->base == last->length) {
			last->length += length; /* no overflow: the caller checked base + length */
			return;
		}
	}
	bootenv_add_map(env, base, length, type);
}

static int parse_efi_mmap(const uint8_t *tag, struct boot_env *env)
{
	uint32_t count = 0, entry = load_le32(tag + MB2_MAP_ENTRY_SIZE);
	int rc = map_entries(tag, EFI_DESC_MIN, env, &count);
	for (uint32_t i = 0; i < count && rc == KS_OK; i++) {
		const uint8_t *d = tag + MB2_MAP_ENTRIES + i * entry;
		uint64_t base = load_le64(d + EFI_DESC_START), pages = load_le64(d + EFI_DESC_PAGES);
		if (pages > (UINT64_MAX - base) >> EFI_PAGE_SHIFT)
			return reject(env, KS_EFORMAT,
				      "EFI memory descriptor wraps around the address space");
		add_joined(env, base, pages << EFI_PAGE_SHIFT, efi_type(load_le32(d)));
	}
	return rc;
}

static int parse_strings(const uint8_t *info, uint32_t info_addr, const struct tags *t,
			 struct boot_env *env)
{
	if (t->cmdline) {
		const uint8_t *tag = info + t->cmdline;
		env->cmdline = tag_string(tag, MB2_STRING_AT, load_le32(tag + 4));
		if (!env->cmdline)
			return reject(env, KS_EFORMAT,
				      "command line not terminated inside its tag");
		env->cmdline_phys = (uint64_t)info_addr + t->cmdline + MB2_STRING_AT;
	}
	if (t->loader_name) {
		const uint8_t *tag = info + t->loader_name;
		env->loader_name = tag_string(tag, MB2_STRING_AT, load_le32(tag + 4));
		if (!env->loader_name)
			return reject(env, KS_EFORMAT,
				      "boot loader name not terminated inside its tag");
	}
	return KS_OK;
}

/* The most precise map wins: the firmware's own, then the e820-style one, then a size. */
static int parse_map(const uint8_t *info, const struct tags *t, struct boot_env *env)
{
	if (t->efi_mmap) {
		env->map_source = "efi";
		return parse_efi_mmap(info + t->efi_mmap, env);
	}
	if (t->mmap) {
		env->map_source = "mmap";
		return parse_mmap(info + t->mmap, env);
	}
	if (t->meminfo) {
		env->map_source = "meminfo";
		uint64_t upper = (uint64_t)load_le32(info + t->meminfo + MB2_MEMINFO_UPPER) * 1024;
		bootenv_add_map(env, ONE_MIB, upper, KSLIDE_MEM_USABLE);
	}
	return KS_OK;
}

/* Walk the tags to the end tag, checking each one's size before anything reads its fields. */
static int walk(const uint8_t *info, uint32_t info_addr, uint32_t total, struct tags *t,
		struct boot_env *env)
{
	for (uint32_t off = MB2_INFO_HEADER;;) {
		if (total - off < MB2_TAG_HEADER)
			return reject(env, KS_EFORMAT, "tags end without an end tag");
		const uint8_t *tag = info + off;
		uint32_t type = load_le32(tag), size = load_le32(tag + 4);
		if (size < MB2_TAG_HEADER)
			return reject(env, KS_EFORMAT, "tag smaller than its own header");
		if (size > total - off)
			return reject(env, KS_EFORMAT,
				      "tag runs past the end of the boot information");
		if (size < min_size(type))
			return reject(env, KS_EFORMAT, "tag too short for its type");
		if (type == MB2_INFO_TAG_END)
			return KS_OK;
		int rc = note_tag(tag, off, (uint64_t)info_addr + off, t, env);
		if (rc != KS_OK)
			return rc;
		/* total and off are multiples of 8, so the padded size still fits. */
		off += (size + MB2_TAG_ALIGN - 1) & ~(uint32_t)(MB2_TAG_ALIGN - 1);
	}
}

int multiboot2_parse(const struct phys_reader *mem, uint32_t info_addr, struct boot_env *env)
{
	const uint8_t *head = mem->read(mem->ctx, info_addr, MB2_INFO_HEADER);
	if (!head)
		return reject(env, KS_EFORMAT, "boot information unreadable");
	uint32_t total = load_le32(head);
	if (info_addr % MB2_TAG_ALIGN || total % MB2_TAG_ALIGN)
		return reject(env, KS_EFORMAT, "boot information not 8-byte aligned");
	if (total < MB2_INFO_HEADER + MB2_TAG_HEADER)
		return reject(env, KS_EFORMAT, "boot information too short for an end tag");
	const uint8_t *info = mem->read(mem->ctx, info_addr, total);
	if (!info)
		return reject(env, KS_EFORMAT, "boot information unreadable");

	struct tags t = { 0 };
	int rc = bootenv_avoid(env, info_addr, total);
	if (rc == KS_OK)
		rc = walk(info, info_addr, total, &t, env);
	if (rc == KS_OK && env->modules_given > BOOTENV_MODULES_MAX)
		return reject(env, KS_ENOSPC, "more modules than the stub can protect");
	if (rc == KS_OK)
		rc = parse_strings(info, info_addr, &t, env);
	if (rc == KS_OK)
		rc = parse_map(info, &t, env);
	uint32_t acpi = t.acpi_new ? t.acpi_new : t.acpi_old;
	if (acpi) { /* the RSDP copy is the tag's payload; the walk checked its size */
		env->acpi_rsdp_copy = (uint64_t)info_addr + acpi + MB2_TAG_HEADER;
		env->acpi_rsdp_size = load_le32(info + acpi + 4) - MB2_TAG_HEADER;
	}
	if (rc == KS_ENOSPC && !env->why)
		env->why = "too many ranges to avoid";
	return rc;
}
