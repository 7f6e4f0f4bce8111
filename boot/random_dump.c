/*
 * kslide.random=N: after the base and the boot-info seed are drawn, the stub prints N more
 * bytes of the same ChaCha20 stream. Collected over many boots (kslide-stat --random-out)
 * they feed statistical test suites (rngtest, ent): a flaw in the pool or the mixing would show
 * there long before it showed in a histogram of a few hundred bases. The bytes printed are never
 * used again, so printing them reveals nothing about the base.
 */
#include <stdint.h>

#include "boot/console.h"
#include "boot/random_dump.h"
#include "lib/cmdline.h"
#include "lib/errors.h"
#include "lib/wipe.h"

#define RANDOM_DUMP_MAX 65536u /* 128 KiB of hex per boot is already slow on a UART */
#define DIGITS_MAX	12
#define CHUNK		32u

/* Decimal digits only; anything else, or a value over 'max', gives 0. */
static uint32_t parse_count(const char *s, uint32_t max)
{
	uint32_t v = 0;

	if (!*s)
		return 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return 0;
		v = v * 10 + (uint32_t)(*s - '0');
		if (v > max)
			return 0;
	}
	return v;
}

void random_dump(const char *cmdline, size_t len, struct rng *rng)
{
	char digits[DIGITS_MAX];
	uint8_t chunk[CHUNK];

	int rc = cmdline ? cmdline_get(cmdline, len, RANDOM_OPTION, digits, sizeof(digits))
			 : KS_ENOENT;
	if (rc == KS_ENOSPC) {
		console_print("kslide: warning: %s= ignored: its value is longer than %u "
			      "characters\n", RANDOM_OPTION, DIGITS_MAX - 1);
		return;
	}
	if (rc != KS_OK)
		return;
	uint32_t n = parse_count(digits, RANDOM_DUMP_MAX);
	if (n == 0) {
		console_print("kslide: warning: %s=%s ignored (want 1..%u)\n", RANDOM_OPTION,
			      digits, RANDOM_DUMP_MAX);
		return;
	}
	console_print("kslide: random=");
	while (n) {
		uint32_t take = n < CHUNK ? n : CHUNK;

		rng_bytes(rng, chunk, take);
		for (uint32_t i = 0; i < take; i++)
			console_print("%02x", chunk[i]);
		n -= take;
	}
	wipe(chunk, sizeof(chunk));
	console_print("\n");
}
