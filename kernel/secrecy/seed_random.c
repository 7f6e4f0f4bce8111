/* kernel/secrecy/seed_random.h: SipHash-2-4 in counter mode over the second half of the seed. */
#include "kernel/secrecy/seed_random.h"

#define SEED_RANDOM_KEY_OFFSET SIPHASH_KEY_BYTES /* after the %p key's bytes */
_Static_assert(SEED_RANDOM_KEY_OFFSET + SIPHASH_KEY_BYTES <= KSLIDE_SEED_BYTES,
	       "the seed holds both keys");

void seed_random_init(struct seed_random *r, const struct kslide_bootinfo *bi,
		      enum seed_stream stream)
{
	siphash_key_from_bytes(&r->key, bi->seed + SEED_RANDOM_KEY_OFFSET);
	r->counter = (uint64_t)stream << SEED_STREAM_SHIFT;
}

uint64_t seed_random_next(void *ctx)
{
	struct seed_random *r = ctx;
	uint64_t block = r->counter++;
	return siphash24(&r->key, &block, sizeof(block));
}
