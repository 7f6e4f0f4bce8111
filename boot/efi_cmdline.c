/*
 * The load options as the kernel's command line (boot/efi.h): EFI_LOADED_IMAGE_PROTOCOL's
 * LoadOptions are UTF-16LE, the command line is ASCII. Read as Linux's EFI stub reads them
 * (efi_convert_cmdline, drivers/firmware/efi/libstub/efi-stub-helper.c): up to the first NUL
 * or newline, or the options' end, or the buffer's; unlike it, a character outside ASCII
 * becomes '?' instead of UTF-8, since no kslide word and no Linux parameter needs one.
 */
#include "boot/efi.h"

#define SURROGATE_HIGH_FIRST 0xd800u
#define SURROGATE_HIGH_LAST  0xdbffu
#define SURROGATE_LOW_FIRST  0xdc00u
#define SURROGATE_LOW_LAST   0xdfffu
#define ASCII_END	     0x80u

size_t efi_options_to_ascii(const uint8_t *options, uint32_t size, char *out, size_t cap)
{
	size_t len = 0, units = options ? size / 2 : 0;
	if (cap == 0)
		return 0;
	for (size_t i = 0; i < units && len < cap - 1; i++) {
		uint16_t c = (uint16_t)(options[2 * i] | options[2 * i + 1] << 8);
		if (c == '\0' || c == '\n')
			break;
		if (c >= ASCII_END) {
			/* A surrogate pair is one character: one '?' for both halves. */
			if (c >= SURROGATE_HIGH_FIRST && c <= SURROGATE_HIGH_LAST &&
			    i + 1 < units) {
				uint16_t next =
					(uint16_t)(options[2 * i + 2] | options[2 * i + 3] << 8);
				if (next >= SURROGATE_LOW_FIRST && next <= SURROGATE_LOW_LAST)
					i++;
			}
			c = '?';
		}
		out[len++] = (char)c;
	}
	out[len] = '\0';
	return len;
}
