#include "i386_check.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <cmocka.h>

#define CHECKER "build/host32/decode-check-i386"
#define RUN32 "scripts/run32.sh build"

void assert_i386_checker_built(void)
{
	FILE *checker = fopen(CHECKER, "rb"), *kernel = fopen("build/i386/kernel.elf", "rb");
	if (checker)
		fclose(checker);
	if (kernel)
		fclose(kernel);
	if (!checker || !kernel)
		fail_msg("build/i386/kernel.elf or " CHECKER " is missing: run make unit");
}

void assert_i386_check_passes(const char *dir, size_t frames, const char *ext)
{
	char cmd[4096], expected[128], line[256] = "";
	int n = snprintf(cmd, sizeof(cmd), "%s %s %s/original", RUN32, CHECKER, dir);
	for (size_t i = 0; i < frames && (size_t)n < sizeof(cmd); i++)
		n += snprintf(cmd + n, sizeof(cmd) - (size_t)n, " %s/frame%zu.%s", dir, i, ext);
	assert_true((size_t)n < sizeof(cmd));
	FILE *out = popen(cmd, "r");
	assert_non_null(out);
	if (!fgets(line, sizeof(line), out))
		line[0] = '\0';
	int status = pclose(out);
	snprintf(cmd, sizeof(cmd), "rm -r %s", dir);
	assert_int_equal(system(cmd), 0);
	snprintf(expected, sizeof(expected),
		 "decode-check-i386: %zu frames decode to the original (4-byte pointers)\n", frames);
	assert_string_equal(line, expected);
	assert_int_equal(status, 0);
}
