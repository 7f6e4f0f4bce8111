/* Helpers for filling a struct boot_env; shared by the boot protocol parsers. */
#include "boot/bootenv.h"
#include "lib/errors.h"

int bootenv_avoid(struct boot_env *env, uint64_t start, uint64_t length)
{
	if (length == 0)
		return KS_OK;
	if (env->avoid_count >= BOOTENV_AVOID_MAX)
		return KS_ENOSPC;
	env->avoid[env->avoid_count].start = start;
	env->avoid[env->avoid_count].length = length;
	env->avoid_count++;
	return KS_OK;
}

void bootenv_add_map(struct boot_env *env, uint64_t base, uint64_t length, uint32_t type)
{
	if (env->map_count >= BOOTENV_MAP_MAX) {
		env->map_dropped++;
		return;
	}
	struct kslide_mem_entry *e = &env->map[env->map_count++];
	e->base = base;
	e->length = length;
	e->type = type;
	e->reserved = 0;
}

const char *bootenv_string(const struct phys_reader *mem, uint64_t addr, uint64_t max_len,
			   uint64_t *len)
{
	/* Read byte by byte so that a string ending just before unreadable memory is fine. */
	for (uint64_t i = 0; i < max_len; i++) {
		const char *c = mem->read(mem->ctx, addr + i, 1);
		if (!c)
			return NULL;
		if (*c == '\0') {
			*len = i;
			return mem->read(mem->ctx, addr, i + 1);
		}
	}
	return NULL;
}
