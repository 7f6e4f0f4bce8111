/*
 * Multiboot 1 information parsing. Layout from the Multiboot Specification 0.6.96, section 3.3
 * "Boot information format": all fields are 32-bit little-endian at fixed offsets, present
 * when their bit in 'flags' is set.
 */
#include "boot/multiboot1.h"
#include "lib/errors.h"
#include "lib/unaligned.h"

#define MBI_MIN_SIZE 68 /* through boot_loader_name, the last field we read */

#define ONE_MIB 0x100000u
#define STRING_MAX 4096 /* longest command line or name we accept */

static int parse_mmap(const struct phys_reader *mem, const uint8_t *info, struct boot_env *env)
{
	uint32_t length = load_le32(info + MB1_INFO_MMAP_LENGTH);
	uint32_t addr = load_le32(info + MB1_INFO_MMAP_ADDR);
	const uint8_t *p = mem->read(mem->ctx, addr, length);
	if (!p)
		return KS_EFORMAT;
	/* Each entry starts with its own size, which excludes the size field itself. */
	uint32_t off = 0;
	while (off < length) {
		if (length - off < 4)
			return KS_EFORMAT;
		uint32_t size = load_le32(p + off);
		if (size < MB1_MMAP_ENTRY_MIN || size > length - off - 4)
			return KS_EFORMAT;
		const uint8_t *e = p + off + 4;
		bootenv_add_map(env, load_le64(e), load_le64(e + 8), load_le32(e + 16));
		off += size + 4;
	}
	return bootenv_avoid(env, addr, length);
}

/* Without a map, mem_upper (KiB above 1 MiB) describes the one range we may use. */
static void parse_mem_upper(const uint8_t *info, struct boot_env *env)
{
	uint64_t upper = (uint64_t)load_le32(info + MB1_INFO_MEM_UPPER) * 1024;
	bootenv_add_map(env, ONE_MIB, upper, KSLIDE_MEM_USABLE);
}

static int parse_string(const struct phys_reader *mem, uint32_t addr, struct boot_env *env,
			const char **out, uint64_t *len)
{
	*out = bootenv_string(mem, addr, STRING_MAX, len);
	if (!*out) {
		env->why = "a command line, module argument or loader name is unreadable or longer "
			   "than 4095 bytes";
		return KS_EFORMAT;
	}
	return bootenv_avoid(env, addr, *len + 1);
}

static int parse_modules(const struct phys_reader *mem, const uint8_t *info, struct boot_env *env)
{
	uint32_t count = load_le32(info + MB1_INFO_MODS_COUNT);
	uint32_t addr = load_le32(info + MB1_INFO_MODS_ADDR);
	env->modules_given = count;
	if (count > BOOTENV_MODULES_MAX) {
		env->why = "more modules than the stub can protect";
		return KS_ENOSPC;
	}
	/* "mods_count may be zero ... even if bit 3 of flags is set"; mods_addr then means nothing. */
	if (count == 0)
		return KS_OK;
	const uint8_t *list = mem->read(mem->ctx, addr, (uint64_t)count * MB1_MODULE_SIZE);
	if (!list)
		return KS_EFORMAT;
	int rc = bootenv_avoid(env, addr, (uint64_t)count * MB1_MODULE_SIZE);
	for (uint32_t i = 0; i < count && rc == KS_OK; i++) {
		const uint8_t *m = list + i * MB1_MODULE_SIZE;
		struct kslide_module *mod = &env->modules[env->module_count++];
		mod->start = load_le32(m);
		mod->end = load_le32(m + 4);
		mod->cmdline = load_le32(m + 8);
		if (mod->end < mod->start)
			return KS_EFORMAT;
		rc = bootenv_avoid(env, mod->start, mod->end - mod->start);
		if (rc == KS_OK && mod->cmdline) {
			const char *s;
			uint64_t len;
			rc = parse_string(mem, (uint32_t)mod->cmdline, env, &s, &len);
		}
	}
	return rc;
}

int multiboot1_parse(const struct phys_reader *mem, uint32_t info_addr, struct boot_env *env)
{
	const uint8_t *info = mem->read(mem->ctx, info_addr, MBI_MIN_SIZE);
	if (!info)
		return KS_EFORMAT;
	int rc = bootenv_avoid(env, info_addr, MB1_INFO_SIZE);
	uint32_t flags = load_le32(info + MB1_INFO_FLAGS);

	if (rc == KS_OK && (flags & MB1_INFO_MMAP)) {
		env->map_source = "mmap";
		rc = parse_mmap(mem, info, env);
	} else if (rc == KS_OK && (flags & MB1_INFO_MEM)) {
		env->map_source = "mem_upper";
		parse_mem_upper(info, env);
	}
	if (rc == KS_OK && (flags & MB1_INFO_CMDLINE)) {
		uint64_t len;
		env->cmdline_phys = load_le32(info + MB1_INFO_CMDLINE_ADDR);
		rc = parse_string(mem, (uint32_t)env->cmdline_phys, env, &env->cmdline, &len);
	}
	if (rc == KS_OK && (flags & MB1_INFO_MODS))
		rc = parse_modules(mem, info, env);
	if (rc == KS_OK && (flags & MB1_INFO_LOADER_NAME)) {
		uint64_t len;
		rc = parse_string(mem, load_le32(info + MB1_INFO_LOADER_NAME_ADDR), env, &env->loader_name,
				  &len);
	}
	return rc;
}
