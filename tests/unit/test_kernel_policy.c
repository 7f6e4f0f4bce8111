/* Unit tests for the kernel's secrecy policy, which is plain C: kernel/secrecy/kptr.c (what %p, %pK
 * and %px show), kernel/secrecy/sysctl.c (who may change what), kernel/secrecy/syslog.c (the ring),
 * and kernel/secrecy/seed_random.c (the generator that places the entry area). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "kernel/secrecy/kptr.h"
#include "kernel/secrecy/seed_random.h"
#include "kernel/secrecy/sysctl.h"
#include "kernel/secrecy/syslog.h"
#include "lib/siphash.h"

static const struct cred nobody = { 0 }, syslog_reader = { CAP_SYSLOG },
			 admin = { CAP_SYS_ADMIN }, root = { CAP_ALL };

static void boot_with_seed(uint8_t first_byte)
{
	struct kslide_bootinfo bi = { 0 };
	for (unsigned i = 0; i < KSLIDE_SEED_BYTES; i++)
		bi.seed[i] = (uint8_t)(first_byte + i);
	bi.virt_base = 0xc3000000;
	bi.link_virt_base = 0xc1000000;
	kptr_init(&bi);
}

static void test_hash_uses_the_first_16_seed_bytes_as_siphash_key(void **state)
{
	(void)state;
	boot_with_seed(0);
	uint8_t key_bytes[SIPHASH_KEY_BYTES];
	for (unsigned i = 0; i < sizeof(key_bytes); i++)
		key_bytes[i] = (uint8_t)i;
	struct siphash_key key;
	siphash_key_from_bytes(&key, key_bytes);
	uint64_t p = 0xc1234560;
	assert_int_equal(kptr_hash((uintptr_t)p), (uintptr_t)siphash24(&key, &p, sizeof(p)));
	assert_int_equal(kernel_virt_slide, 0x2000000);
}

static void test_new_seed_new_hash(void **state)
{
	(void)state;
	boot_with_seed(0);
	uintptr_t a = kptr_hash(0xc1000000);
	boot_with_seed(1);
	assert_int_not_equal(a, kptr_hash(0xc1000000));
	/* The key is all there is to it: the first seed again gives the first hash again. */
	boot_with_seed(0);
	assert_int_equal(kptr_hash(0xc1000000), a);
}

/* The entry area's draws come from seed bytes 16..31 only: SipHash-2-4 keyed with them over
 * the counter 0, 1, 2, ... (the reference function, lib/siphash.c, is tested on its own
 * vectors), and the %p key's bytes change nothing. */
static void test_seed_random_keys_siphash_with_the_last_16_seed_bytes(void **state)
{
	(void)state;
	struct kslide_bootinfo bi = { 0 };
	for (unsigned i = 0; i < KSLIDE_SEED_BYTES; i++)
		bi.seed[i] = (uint8_t)(0x40 + i);
	struct siphash_key key;
	siphash_key_from_bytes(&key, bi.seed + SIPHASH_KEY_BYTES);
	struct seed_random r;
	seed_random_init(&r, &bi, SEED_STREAM_ENTRY_AREA);
	for (uint64_t counter = 0; counter < 3; counter++)
		assert_int_equal(seed_random_next(&r), siphash24(&key, &counter, sizeof(counter)));

	struct seed_random again;
	for (unsigned i = 0; i < SIPHASH_KEY_BYTES; i++)
		bi.seed[i] ^= 0xff;
	seed_random_init(&r, &bi, SEED_STREAM_ENTRY_AREA);
	bi.seed[KSLIDE_SEED_BYTES - 1] ^= 1;
	seed_random_init(&again, &bi, SEED_STREAM_ENTRY_AREA);
	uint64_t zero = 0;
	assert_int_equal(seed_random_next(&r), siphash24(&key, &zero, sizeof(zero)));
	assert_int_not_equal(seed_random_next(&again), siphash24(&key, &zero, sizeof(zero)));
}

/* Each decision reads a counter range of its own: the direct map's stream starts where no
 * entry-area draw reaches, so the two draws never share a block. */
static void test_seed_streams_never_share_a_block(void **state)
{
	(void)state;
	struct kslide_bootinfo bi = { 0 };
	for (unsigned i = 0; i < KSLIDE_SEED_BYTES; i++)
		bi.seed[i] = (uint8_t)(0x11 * i);
	struct siphash_key key;
	siphash_key_from_bytes(&key, bi.seed + SIPHASH_KEY_BYTES);
	struct seed_random entry, direct;
	seed_random_init(&entry, &bi, SEED_STREAM_ENTRY_AREA);
	seed_random_init(&direct, &bi, SEED_STREAM_DIRECT_MAP);
	uint64_t first = (uint64_t)SEED_STREAM_DIRECT_MAP << SEED_STREAM_SHIFT;
	assert_true(first != 0);
	for (uint64_t counter = first; counter < first + 3; counter++) {
		assert_int_equal(seed_random_next(&direct), siphash24(&key, &counter, sizeof(counter)));
		assert_int_not_equal(seed_random_next(&entry), siphash24(&key, &counter, sizeof(counter)));
	}
}

static void test_pK_follows_kptr_restrict_and_CAP_SYSLOG(void **state)
{
	(void)state;
	const uint64_t p = 0xc2001000;
	sysctl_kptr_restrict = 0;
	assert_int_equal(kptr_restricted(p, &nobody), p);
	assert_int_equal(kptr_restricted(p, NULL), p);
	sysctl_kptr_restrict = 1;
	assert_int_equal(kptr_restricted(p, &nobody), 0);
	assert_int_equal(kptr_restricted(p, &admin), 0); /* CAP_SYS_ADMIN is not CAP_SYSLOG */
	assert_int_equal(kptr_restricted(p, &syslog_reader), p);
	assert_int_equal(kptr_restricted(p, NULL), 0);
	sysctl_kptr_restrict = 2;
	assert_int_equal(kptr_restricted(p, &root), 0);
}

static void test_format_hook_kinds(void **state)
{
	(void)state;
	boot_with_seed(7);
	sysctl_kptr_restrict = 1;
	uintptr_t p = 0xc2001000;
	assert_int_equal(kptr_format(NULL, 'x', p), p);
	assert_int_equal(kptr_format(NULL, 'K', p), 0); /* printk: reader unknown */
	assert_int_equal(kptr_format((void *)&syslog_reader, 'K', p), p);
	assert_int_equal(kptr_format(NULL, 'p', p), kptr_hash(p));
}

static void test_sysctl_defaults_follow_randomization(void **state)
{
	(void)state;
	int v;
	sysctl_init(true);
	assert_int_equal(sysctl_read("kernel.kptr_restrict", &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(sysctl_read("kernel.dmesg_restrict", &v), 0);
	assert_int_equal(v, 1);
	sysctl_init(false);
	assert_int_equal(sysctl_read("kernel.kptr_restrict", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(sysctl_read("kernel.nosuch", &v), -ENOENT);
}

static void test_sysctl_writes_need_CAP_SYS_ADMIN_and_a_valid_value(void **state)
{
	(void)state;
	sysctl_init(true);
	assert_int_equal(sysctl_write("kernel.kptr_restrict", 0, &nobody), -EPERM);
	assert_int_equal(sysctl_write("kernel.kptr_restrict", 0, &syslog_reader), -EPERM);
	assert_int_equal(sysctl_write("kernel.kptr_restrict", 0, NULL), -EPERM);
	assert_int_equal(sysctl_kptr_restrict, 1);
	assert_int_equal(sysctl_write("kernel.kptr_restrict", 3, &admin), -EINVAL);
	assert_int_equal(sysctl_write("kernel.dmesg_restrict", 2, &admin), -EINVAL);
	assert_int_equal(sysctl_write("kernel.kptr_restrict", 2, &admin), 0);
	assert_int_equal(sysctl_kptr_restrict, 2);
	assert_int_equal(sysctl_write("kernel.oops_count", 0, &root), -EPERM);
	assert_int_equal(sysctl_write("kernel.nosuch", 0, &root), -ENOENT);
}

static void log_text(const char *s)
{
	while (*s)
		syslog_putc(*s++);
}

static void test_syslog_ring_keeps_the_newest_bytes(void **state)
{
	(void)state;
	char out[64];
	log_text("first line\n");
	assert_int_equal(syslog_read(0, out, 6), 6);
	assert_memory_equal(out, "first ", 6);
	assert_int_equal(syslog_read(6, out, sizeof(out)), 5);
	assert_int_equal(syslog_read(11, out, sizeof(out)), 0);
	/* Overflow the ring: reads from 0 start at the oldest byte still kept. */
	for (unsigned i = 0; i < SYSLOG_BYTES / 8; i++)
		log_text("abcdefgh");
	log_text("END");
	size_t total = 11 + SYSLOG_BYTES + 3;
	assert_int_equal(syslog_read(0, out, 4), 4);
	assert_memory_equal(out, "defg", 4); /* oldest kept: byte total - SYSLOG_BYTES */
	assert_int_equal(syslog_read(total - 3, out, sizeof(out)), 3);
	assert_memory_equal(out, "END", 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash_uses_the_first_16_seed_bytes_as_siphash_key),
		cmocka_unit_test(test_new_seed_new_hash),
		cmocka_unit_test(test_seed_random_keys_siphash_with_the_last_16_seed_bytes),
		cmocka_unit_test(test_seed_streams_never_share_a_block),
		cmocka_unit_test(test_pK_follows_kptr_restrict_and_CAP_SYSLOG),
		cmocka_unit_test(test_format_hook_kinds),
		cmocka_unit_test(test_sysctl_defaults_follow_randomization),
		cmocka_unit_test(test_sysctl_writes_need_CAP_SYS_ADMIN_and_a_valid_value),
		cmocka_unit_test(test_syslog_ring_keeps_the_newest_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
