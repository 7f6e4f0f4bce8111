/* The sysctl table: each tunable with its range and whether it can be written at all. */
#include <stddef.h>

#include "kernel/secrecy/sysctl.h"

int strcmp(const char *a, const char *b);

/* Linux's default oops_limit: enough for any honest system, finite for an attacker. */
#define OOPS_LIMIT_DEFAULT 10000
#define INT_LIMIT 0x7fffffff

int sysctl_kptr_restrict;
int sysctl_dmesg_restrict;
int sysctl_panic_on_oops;
int sysctl_oops_limit = OOPS_LIMIT_DEFAULT;
int oops_count;

struct sysctl {
	const char *name;
	int *value;
	int min, max;
	bool writable;
};

static const struct sysctl table[] = {
	{ "kernel.kptr_restrict", &sysctl_kptr_restrict, 0, 2, true },
	{ "kernel.dmesg_restrict", &sysctl_dmesg_restrict, 0, 1, true },
	{ "kernel.panic_on_oops", &sysctl_panic_on_oops, 0, 1, true },
	{ "kernel.oops_limit", &sysctl_oops_limit, 0, INT_LIMIT, true },
	{ "kernel.oops_count", &oops_count, 0, INT_LIMIT, false },
};

void sysctl_init(bool randomized)
{
	sysctl_kptr_restrict = randomized ? 1 : 0;
	sysctl_dmesg_restrict = randomized ? 1 : 0;
}

static const struct sysctl *find(const char *name)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (strcmp(table[i].name, name) == 0)
			return &table[i];
	return NULL;
}

int sysctl_read(const char *name, int *value)
{
	const struct sysctl *s = find(name);
	if (!s)
		return -ENOENT;
	*value = *s->value;
	return 0;
}

int sysctl_write(const char *name, int value, const struct cred *who)
{
	const struct sysctl *s = find(name);
	if (!s)
		return -ENOENT;
	if (!s->writable || !capable(who, CAP_SYS_ADMIN))
		return -EPERM;
	if (value < s->min || value > s->max)
		return -EINVAL;
	*s->value = value;
	return 0;
}
