/* Pointer hashing and kptr_restrict: the policy half of keeping the base secret. */
#include "kernel/secrecy/kptr.h"
#include "kernel/secrecy/sysctl.h"
#include "lib/siphash.h"

uintptr_t kernel_virt_slide;

static struct siphash_key ptr_key;

void kptr_init(const struct kslide_bootinfo *bi)
{
	/* The first 16 seed bytes; the stub drew them from its ChaCha20 pool after the base. */
	siphash_key_from_bytes(&ptr_key, bi->seed);
	kernel_virt_slide = (uintptr_t)kslide_virt_slide(bi);
}

uintptr_t kptr_hash(uintptr_t p)
{
	uint64_t v = p;
	return (uintptr_t)siphash24(&ptr_key, &v, sizeof(v));
}

uint64_t kptr_restricted(uint64_t addr, const struct cred *reader)
{
	switch (sysctl_kptr_restrict) {
	case 0:
		return addr;
	case 1:
		return capable(reader, CAP_SYSLOG) ? addr : 0;
	default:
		return 0;
	}
}

uintptr_t kptr_format(void *ctx, char kind, uintptr_t p)
{
	if (kind == 'x')
		return p;
	if (kind == 'K')
		return (uintptr_t)kptr_restricted(p, (const struct cred *)ctx);
	return kptr_hash(p);
}
