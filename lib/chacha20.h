/* ChaCha20 as specified by RFC 8439 (32-bit block counter, 96-bit nonce). */
#ifndef KSLIDE_LIB_CHACHA20_H
#define KSLIDE_LIB_CHACHA20_H

#include <stddef.h>
#include <stdint.h>

#define CHACHA20_KEY_WORDS 8
#define CHACHA20_NONCE_WORDS 3
#define CHACHA20_BLOCK_BYTES 64

/* One 64-byte keystream block (RFC 8439 section 2.3). Key and nonce are in host words. */
void chacha20_block(const uint32_t key[CHACHA20_KEY_WORDS], uint32_t counter,
		    const uint32_t nonce[CHACHA20_NONCE_WORDS], uint8_t out[CHACHA20_BLOCK_BYTES]);

/* XOR len bytes of keystream starting at block 'counter' into out (RFC 8439 section 2.4). */
void chacha20_xor(const uint32_t key[CHACHA20_KEY_WORDS], uint32_t counter,
		  const uint32_t nonce[CHACHA20_NONCE_WORDS], const uint8_t *in, uint8_t *out,
		  size_t len);

/* Little-endian key bytes (as printed in the RFC) to key words. */
void chacha20_key_from_bytes(uint32_t key[CHACHA20_KEY_WORDS], const uint8_t bytes[32]);
void chacha20_nonce_from_bytes(uint32_t nonce[CHACHA20_NONCE_WORDS], const uint8_t bytes[12]);

#endif
