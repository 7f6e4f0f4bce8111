/* The containers kslide-pack can write (container.h): one line per container. */
#include <stdio.h>
#include <string.h>

#include "tools/pack/container.h"

static const struct container *const containers[] = {
	&container_multiboot, /* the default: the first */
	&container_pvh,
	&container_efi,
};

#define COUNT (sizeof(containers) / sizeof(containers[0]))

const struct container *container_find(const char *name)
{
	for (size_t i = 0; i < COUNT; i++)
		if (strcmp(containers[i]->name, name) == 0)
			return containers[i];
	return NULL;
}

const struct container *container_default(void)
{
	return containers[0];
}

const char *container_names(void)
{
	static char names[128];
	size_t n = 0;
	names[0] = '\0';
	for (size_t i = 0; i < COUNT && n < sizeof(names); i++)
		n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s", i ? ", " : "",
				      containers[i]->name);
	return names;
}

const struct container *container_at(size_t i)
{
	return i < COUNT ? containers[i] : NULL;
}

/* The containers whose headers start the file first: a PE keeps the stub's Multiboot headers
 * (container_efi.c), and its own magic at offset 0 says more than one found inside. */
int64_t container_load_address(const uint8_t *file, size_t size, size_t *image_at)
{
	for (int headed = 1; headed >= 0; headed--)
		for (size_t i = 0; i < COUNT; i++) {
			if ((containers[i]->prefix > 0) != headed)
				continue;
			int64_t at = containers[i]->load_address(file, size, image_at);
			if (at >= 0)
				return at;
		}
	return -1;
}
