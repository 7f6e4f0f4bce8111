/*
 * PVH start info parsing (include/protocol/pvh.h). A fixed structure of 64-bit addresses,
 * each 0 when absent ("nothing will be loaded at physical address 0"), pointing at a module
 * list, strings, the RSDP and, from version 1 on, an e820-like memory map:
 *
 *   info_addr                                                        + 56 (version 1)
 *   | magic | version | flags | nr_modules | modlist | cmdline | rsdp | memmap | entries | - |
 *
 * Nothing here trusts a count or an address before it has been read through 'mem', which
 * refuses what is not readable memory; every module must also lie inside RAM the map lists.
 */
#include "boot/pvh.h"
#include "lib/errors.h"
#include "lib/unaligned.h"

#define STRING_MAX 4096 /* longest command line we accept, as for Multiboot */
/* ACPI 6.5, 5.2.5.3: the RSDP is 20 bytes in revision 0 (ACPI 1.0), 36 from revision 2. */
#define RSDP_REVISION_AT 15
#define RSDP_V1_SIZE	 20
#define RSDP_V2_SIZE	 36

static int reject(struct boot_env *env, int rc, const char *why)
{
	env->why = why;
	return rc;
}

/* PVH's memory types are e820's, as are kslide's; the two beyond e820's are not RAM to us. */
static uint32_t map_type(uint32_t type)
{
	switch (type) {
	case PVH_MEMMAP_TYPE_RAM: return KSLIDE_MEM_USABLE;
	case PVH_MEMMAP_TYPE_ACPI: return KSLIDE_MEM_ACPI_RECLAIMABLE;
	case PVH_MEMMAP_TYPE_NVS: return KSLIDE_MEM_ACPI_NVS;
	case PVH_MEMMAP_TYPE_UNUSABLE: return KSLIDE_MEM_BAD;
	}
	return KSLIDE_MEM_RESERVED; /* reserved, disabled, persistent memory, unknown */
}

static int parse_memmap(const struct phys_reader *mem, const uint8_t *info, struct boot_env *env)
{
	uint64_t addr = load_le64(info + PVH_START_MEMMAP_PADDR);
	uint32_t count = load_le32(info + PVH_START_MEMMAP_ENTRIES);
	if (addr == 0 || count == 0)
		return reject(env, KS_EFORMAT, "PVH start info has no memory map");
	uint64_t bytes = (uint64_t)count * PVH_MEMMAP_ENTRY_SIZE;
	const uint8_t *map = mem->read(mem->ctx, addr, bytes);
	if (!map)
		return reject(env, KS_EFORMAT, "PVH memory map unreadable");
	env->map_source = "memmap";
	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *e = map + (uint64_t)i * PVH_MEMMAP_ENTRY_SIZE;
		uint64_t base = load_le64(e + PVH_MEMMAP_ADDR),
			 size = load_le64(e + PVH_MEMMAP_SIZE_AT);
		if (size > UINT64_MAX - base)
			return reject(env, KS_EFORMAT, "PVH memory map entry wraps around");
		bootenv_add_map(env, base, size, map_type(load_le32(e + PVH_MEMMAP_TYPE)));
	}
	return bootenv_avoid(env, addr, bytes);
}

/* Whether [start, start + size) lies inside one usable entry of the map read so far. */
static int in_ram(const struct boot_env *env, uint64_t start, uint64_t size)
{
	for (uint32_t i = 0; i < env->map_count; i++) {
		const struct kslide_mem_entry *e = &env->map[i];
		if (e->type == KSLIDE_MEM_USABLE && start >= e->base &&
		    start - e->base <= e->length && size <= e->length - (start - e->base))
			return 1;
	}
	return 0;
}

static int parse_string(const struct phys_reader *mem, uint64_t addr, struct boot_env *env,
			const char **out)
{
	uint64_t len;
	*out = bootenv_string(mem, addr, STRING_MAX, &len);
	if (!*out)
		return reject(env, KS_EFORMAT,
			      "a PVH command line is unreadable or longer than 4095 bytes");
	return bootenv_avoid(env, addr, len + 1);
}

static int parse_modules(const struct phys_reader *mem, const uint8_t *info, struct boot_env *env)
{
	uint32_t count = load_le32(info + PVH_START_NR_MODULES);
	uint64_t addr = load_le64(info + PVH_START_MODLIST_PADDR);
	env->modules_given = count;
	if (count == 0)
		return KS_OK;
	if (count > BOOTENV_MODULES_MAX)
		return reject(env, KS_ENOSPC, "more modules than the stub can protect");
	uint64_t bytes = (uint64_t)count * PVH_MODULE_SIZE;
	const uint8_t *list = addr ? mem->read(mem->ctx, addr, bytes) : NULL;
	if (!list)
		return reject(env, KS_EFORMAT, "PVH module list unreadable");
	int rc = bootenv_avoid(env, addr, bytes);
	for (uint32_t i = 0; i < count && rc == KS_OK; i++) {
		const uint8_t *m = list + i * PVH_MODULE_SIZE;
		uint64_t start = load_le64(m + PVH_MODULE_PADDR),
			 size = load_le64(m + PVH_MODULE_SIZE_AT);
		/* A module the map does not hold as RAM would not survive as we think it does. */
		if (size > UINT64_MAX - start || !in_ram(env, start, size))
			return reject(env, KS_EFORMAT, "a PVH module lies beyond RAM");
		struct kslide_module *mod = &env->modules[env->module_count++];
		mod->start = start;
		mod->end = start + size;
		mod->cmdline = load_le64(m + PVH_MODULE_CMDLINE_PADDR);
		rc = bootenv_avoid(env, start, size);
		if (rc == KS_OK && mod->cmdline) {
			const char *s;
			rc = parse_string(mem, mod->cmdline, env, &s);
		}
	}
	return rc;
}

/* The firmware's RSDP, where the monitor says it is; its size by its revision. */
static void parse_rsdp(const struct phys_reader *mem, const uint8_t *info, struct boot_env *env)
{
	uint64_t addr = load_le64(info + PVH_START_RSDP_PADDR);
	const uint8_t *rsdp = addr ? mem->read(mem->ctx, addr, RSDP_V1_SIZE) : NULL;
	if (!rsdp)
		return; /* ACPI is the kernel's to find, then, as without a loader's copy */
	uint32_t size = rsdp[RSDP_REVISION_AT] >= 2 ? RSDP_V2_SIZE : RSDP_V1_SIZE;
	if (size > RSDP_V1_SIZE && !mem->read(mem->ctx, addr, size))
		size = RSDP_V1_SIZE;
	env->acpi_rsdp_copy = addr;
	env->acpi_rsdp_size = size;
	env->acpi_rsdp_kept = true;
}

int pvh_parse(const struct phys_reader *mem, uint64_t info_addr, struct boot_env *env)
{
	const uint8_t *info = mem->read(mem->ctx, info_addr, PVH_START_SIZE_V0);
	if (!info)
		return reject(env, KS_EFORMAT, "PVH start info unreadable");
	if (load_le32(info + PVH_START_MAGIC_AT) != PVH_START_MAGIC)
		return reject(env, KS_EFORMAT, "PVH start info magic is not 0x336ec578");
	uint32_t version = load_le32(info + PVH_START_VERSION);
	if (version > PVH_START_VERSION_MAX)
		return reject(env, KS_EFORMAT,
			      "PVH start info version newer than 1, which this stub reads");
	/* Version 0 ends before the map: the map's absence is its refusal, below. */
	if (version == 0)
		return reject(env, KS_EFORMAT, "PVH start info has no memory map (version 0)");
	info = mem->read(mem->ctx, info_addr, PVH_START_SIZE_V1);
	if (!info)
		return reject(env, KS_EFORMAT, "PVH start info unreadable");
	int rc = bootenv_avoid(env, info_addr, PVH_START_SIZE_V1);
	if (rc == KS_OK)
		rc = parse_memmap(mem, info, env);
	uint64_t cmdline = load_le64(info + PVH_START_CMDLINE_PADDR);
	if (rc == KS_OK && cmdline) {
		env->cmdline_phys = cmdline;
		rc = parse_string(mem, cmdline, env, &env->cmdline);
	}
	if (rc == KS_OK)
		rc = parse_modules(mem, info, env);
	if (rc == KS_OK)
		parse_rsdp(mem, info, env);
	if (rc == KS_ENOSPC && !env->why)
		env->why = "too many ranges to avoid";
	return rc;
}
