/* kernel/acpi/acpi_aml.h: finding a sleep state's SLP_TYP values in AML without interpreting it. */
#include "kernel/acpi/acpi_aml.h"
#include "lib/string.h"

/* AML encodings (ACPI 6.5, 20.2). */
#define AML_NAME_OP 0x08
#define AML_ROOT_CHAR '\\'
#define AML_PACKAGE_OP 0x12
#define AML_ZERO_OP 0x00
#define AML_ONE_OP 0x01
#define AML_BYTE_PREFIX 0x0a
#define AML_WORD_PREFIX 0x0b
#define AML_DWORD_PREFIX 0x0c
#define AML_QWORD_PREFIX 0x0e
#define AML_NAME_BYTES 4
#define SLP_TYP_MAX 7 /* a 3-bit field of PM1 control */

/* An integer constant of AML at *at, advanced past it; false for anything else. */
static bool aml_integer(const uint8_t *aml, size_t len, size_t *at, uint64_t *value)
{
	static const struct {
		uint8_t prefix, bytes;
	} forms[] = { { AML_BYTE_PREFIX, 1 }, { AML_WORD_PREFIX, 2 }, { AML_DWORD_PREFIX, 4 },
		      { AML_QWORD_PREFIX, 8 } };
	if (*at >= len)
		return false;
	uint8_t op = aml[(*at)++];
	if (op == AML_ZERO_OP || op == AML_ONE_OP) {
		*value = op;
		return true;
	}
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		if (op != forms[i].prefix)
			continue;
		if (len - *at < forms[i].bytes)
			return false;
		uint64_t v = 0;
		for (unsigned b = 0; b < forms[i].bytes; b++) /* little-endian */
			v |= (uint64_t)aml[*at + b] << (8 * b);
		*value = v;
		*at += forms[i].bytes;
		return true;
	}
	return false;
}

/* PkgLength (20.2.4): the first byte's top two bits count the bytes that follow; with none,
 * its low six bits are the length, else its low four bits and then 8 bits per byte. */
static bool aml_pkg_length(const uint8_t *aml, size_t len, size_t *at, size_t *length)
{
	if (*at >= len)
		return false;
	uint8_t lead = aml[(*at)++];
	unsigned follow = lead >> 6;
	if (len - *at < follow)
		return false;
	size_t n = follow ? (size_t)(lead & 0x0f) : (size_t)(lead & 0x3f);
	for (unsigned i = 0; i < follow; i++)
		n |= (size_t)aml[(*at)++] << (4 + 8 * i);
	*length = n;
	return true;
}

static bool package_sleep_type(const uint8_t *aml, size_t len, size_t at, uint8_t *a,
			       uint8_t *b)
{
	size_t start = at, length;
	if (at >= len || aml[at++] != AML_PACKAGE_OP || !aml_pkg_length(aml, len, &at, &length))
		return false;
	/* The package ends length bytes after its PkgLength started. */
	if (length > len - (start + 1))
		return false;
	size_t end = start + 1 + length;
	uint64_t x, y;
	if (at >= end || aml[at++] < 2 || !aml_integer(aml, end, &at, &x) ||
	    !aml_integer(aml, end, &at, &y) || x > SLP_TYP_MAX || y > SLP_TYP_MAX)
		return false;
	*a = (uint8_t)x;
	*b = (uint8_t)y;
	return true;
}

bool acpi_aml_sleep_type(const uint8_t *aml, size_t len, unsigned state, uint8_t *a, uint8_t *b)
{
	const char name[AML_NAME_BYTES] = { '_', 'S', (char)('0' + state), '_' };
	for (size_t i = 1; i + AML_NAME_BYTES <= len; i++) {
		if (memcmp(aml + i, name, AML_NAME_BYTES) != 0)
			continue;
		size_t op = aml[i - 1] == AML_ROOT_CHAR ? i - 1 : i;
		if (op == 0 || aml[op - 1] != AML_NAME_OP)
			continue;
		if (package_sleep_type(aml, len, i + AML_NAME_BYTES, a, b))
			return true;
	}
	return false;
}

