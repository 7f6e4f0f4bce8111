/* ChaCha20 against the RFC 8439 test vectors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/chacha20.h"

/* Sections 2.3.2 and 2.4.2: key 00 01 02 ... 1f. */
static void rfc_key(uint32_t key[CHACHA20_KEY_WORDS])
{
	uint8_t bytes[32];

	for (int i = 0; i < 32; i++)
		bytes[i] = (uint8_t)i;
	chacha20_key_from_bytes(key, bytes);
}

static void key_and_nonce_bytes_are_little_endian_words(void **state)
{
	(void)state;
	uint32_t key[CHACHA20_KEY_WORDS];
	uint32_t nonce[CHACHA20_NONCE_WORDS];
	static const uint8_t nonce_bytes[12] = { 0x00, 0x00, 0x00, 0x09, 0x00, 0x00,
						 0x00, 0x4a, 0x00, 0x00, 0x00, 0x00 };

	rfc_key(key);
	assert_int_equal(key[0], 0x03020100u);
	assert_int_equal(key[7], 0x1f1e1d1cu);
	chacha20_nonce_from_bytes(nonce, nonce_bytes);
	assert_int_equal(nonce[0], 0x09000000u);
	assert_int_equal(nonce[1], 0x4a000000u);
	assert_int_equal(nonce[2], 0x00000000u);
}

/* RFC 8439 section 2.3.2: block counter 1, nonce 00:00:00:09:00:00:00:4a:00:00:00:00. */
static void block_matches_rfc8439_2_3_2(void **state)
{
	(void)state;
	static const uint8_t nonce_bytes[12] = { 0x00, 0x00, 0x00, 0x09, 0x00, 0x00,
						 0x00, 0x4a, 0x00, 0x00, 0x00, 0x00 };
	static const uint8_t expected[CHACHA20_BLOCK_BYTES] = {
		0x10, 0xf1, 0xe7, 0xe4, 0xd1, 0x3b, 0x59, 0x15, 0x50, 0x0f, 0xdd, 0x1f, 0xa3,
		0x20, 0x71, 0xc4, 0xc7, 0xd1, 0xf4, 0xc7, 0x33, 0xc0, 0x68, 0x03, 0x04, 0x22,
		0xaa, 0x9a, 0xc3, 0xd4, 0x6c, 0x4e, 0xd2, 0x82, 0x64, 0x46, 0x07, 0x9f, 0xaa,
		0x09, 0x14, 0xc2, 0xd7, 0x05, 0xd9, 0x8b, 0x02, 0xa2, 0xb5, 0x12, 0x9c, 0xd1,
		0xde, 0x16, 0x4e, 0xb9, 0xcb, 0xd0, 0x83, 0xe8, 0xa2, 0x50, 0x3c, 0x4e,
	};
	uint32_t key[CHACHA20_KEY_WORDS];
	uint32_t nonce[CHACHA20_NONCE_WORDS];
	uint8_t out[CHACHA20_BLOCK_BYTES];

	rfc_key(key);
	chacha20_nonce_from_bytes(nonce, nonce_bytes);
	chacha20_block(key, 1, nonce, out);
	assert_memory_equal(out, expected, sizeof(expected));
}

static const char sunscreen[] = "Ladies and Gentlemen of the class of '99: If I could offer you "
				"only one tip for the future, sunscreen would be it.";

/* RFC 8439 section 2.4.2: initial counter 1, nonce 00:00:00:00:00:00:00:4a:00:00:00:00. */
static const uint8_t sunscreen_nonce[12] = { 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
					     0x00, 0x4a, 0x00, 0x00, 0x00, 0x00 };
static const uint8_t sunscreen_cipher[114] = {
	0x6e, 0x2e, 0x35, 0x9a, 0x25, 0x68, 0xf9, 0x80, 0x41, 0xba, 0x07, 0x28, 0xdd, 0x0d, 0x69,
	0x81, 0xe9, 0x7e, 0x7a, 0xec, 0x1d, 0x43, 0x60, 0xc2, 0x0a, 0x27, 0xaf, 0xcc, 0xfd, 0x9f,
	0xae, 0x0b, 0xf9, 0x1b, 0x65, 0xc5, 0x52, 0x47, 0x33, 0xab, 0x8f, 0x59, 0x3d, 0xab, 0xcd,
	0x62, 0xb3, 0x57, 0x16, 0x39, 0xd6, 0x24, 0xe6, 0x51, 0x52, 0xab, 0x8f, 0x53, 0x0c, 0x35,
	0x9f, 0x08, 0x61, 0xd8, 0x07, 0xca, 0x0d, 0xbf, 0x50, 0x0d, 0x6a, 0x61, 0x56, 0xa3, 0x8e,
	0x08, 0x8a, 0x22, 0xb6, 0x5e, 0x52, 0xbc, 0x51, 0x4d, 0x16, 0xcc, 0xf8, 0x06, 0x81, 0x8c,
	0xe9, 0x1a, 0xb7, 0x79, 0x37, 0x36, 0x5a, 0xf9, 0x0b, 0xbf, 0x74, 0xa3, 0x5b, 0xe6, 0xb4,
	0x0b, 0x8e, 0xed, 0xf2, 0x78, 0x5e, 0x42, 0x87, 0x4d,
};

static void xor_encrypts_rfc8439_2_4_2_sunscreen(void **state)
{
	(void)state;
	uint32_t key[CHACHA20_KEY_WORDS];
	uint32_t nonce[CHACHA20_NONCE_WORDS];
	uint8_t out[sizeof(sunscreen_cipher)];

	assert_int_equal(strlen(sunscreen), sizeof(sunscreen_cipher));
	rfc_key(key);
	chacha20_nonce_from_bytes(nonce, sunscreen_nonce);
	chacha20_xor(key, 1, nonce, (const uint8_t *)sunscreen, out, sizeof(out));
	assert_memory_equal(out, sunscreen_cipher, sizeof(out));
}

static void xor_decrypts_in_place(void **state)
{
	(void)state;
	uint32_t key[CHACHA20_KEY_WORDS];
	uint32_t nonce[CHACHA20_NONCE_WORDS];
	uint8_t buf[sizeof(sunscreen_cipher)];

	rfc_key(key);
	chacha20_nonce_from_bytes(nonce, sunscreen_nonce);
	memcpy(buf, sunscreen_cipher, sizeof(buf));
	chacha20_xor(key, 1, nonce, buf, buf, sizeof(buf));
	assert_memory_equal(buf, sunscreen, sizeof(buf));
}

/* The second keystream block must come from counter + 1, not a repeat of the first. */
static void xor_advances_the_counter_per_block(void **state)
{
	(void)state;
	uint32_t key[CHACHA20_KEY_WORDS];
	uint32_t nonce[CHACHA20_NONCE_WORDS];
	uint8_t zeros[2 * CHACHA20_BLOCK_BYTES] = { 0 };
	uint8_t stream[2 * CHACHA20_BLOCK_BYTES];
	uint8_t block[CHACHA20_BLOCK_BYTES];

	rfc_key(key);
	chacha20_nonce_from_bytes(nonce, sunscreen_nonce);
	chacha20_xor(key, 7, nonce, zeros, stream, sizeof(stream));
	chacha20_block(key, 7, nonce, block);
	assert_memory_equal(stream, block, sizeof(block));
	chacha20_block(key, 8, nonce, block);
	assert_memory_equal(stream + CHACHA20_BLOCK_BYTES, block, sizeof(block));
}

static void xor_of_zero_bytes_writes_nothing(void **state)
{
	(void)state;
	uint32_t key[CHACHA20_KEY_WORDS] = { 0 };
	uint32_t nonce[CHACHA20_NONCE_WORDS] = { 0 };
	uint8_t in[4] = { 1, 2, 3, 4 };
	uint8_t out[4] = { 9, 9, 9, 9 };

	chacha20_xor(key, 0, nonce, in, out, 0);
	assert_int_equal(out[0], 9);
	assert_int_equal(out[3], 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(key_and_nonce_bytes_are_little_endian_words),
		cmocka_unit_test(block_matches_rfc8439_2_3_2),
		cmocka_unit_test(xor_encrypts_rfc8439_2_4_2_sunscreen),
		cmocka_unit_test(xor_decrypts_in_place),
		cmocka_unit_test(xor_advances_the_counter_per_block),
		cmocka_unit_test(xor_of_zero_bytes_writes_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
