/*
 * libFuzzer target: a bzImage's setup header (tools/pack/bzimage.c) and Linux's appended
 * relocation lists (tools/pack/linux_relocs.c), on arbitrary files. A header accepted must
 * describe the file it came from: its bytes are the file's from 0x1f1, a protocol that names
 * the payload, and setup and payload inside the file. The input is split by both list forms
 * too: lists accepted must fill it exactly, every entry non-zero and inside the input.
 */
#include <stdlib.h>
#include <string.h>

#include "tools/pack/bzimage.h"
#include "tools/pack/linux_relocs.h"

#define ENTRY_BYTES 4 /* every list entry and terminator is a 32-bit word (arch/x86/tools/relocs.c) */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_header(const uint8_t *data, size_t size)
{
	struct bzimage_header h;
	char err[256];
	if (bzimage_parse(data, size, &h, err, sizeof(err)) != 0) {
		if (!memchr(err, 0, sizeof(err)) || !err[0])
			abort(); /* a refusal always says why */
		return;
	}
	if (!bzimage_detect(data, size) || h.size > BZIMAGE_HEADER_MAX_BYTES ||
	    BZIMAGE_HEADER_OFFSET + h.size > size ||
	    memcmp(h.bytes, data + BZIMAGE_HEADER_OFFSET, h.size) != 0)
		abort();
	if (h.version < BZIMAGE_PROTOCOL_PAYLOAD || h.setup_bytes > size ||
	    h.payload_offset > size || h.payload_length > size - h.payload_offset ||
	    h.payload_offset < h.setup_bytes)
		abort();
}

static void check_lists(const uint8_t *data, size_t size, bool x86_64)
{
	struct linux_relocs lists;
	char err[256];
	if (linux_relocs_split(data, size, x86_64, &lists, err, sizeof(err)) != 0)
		return;
	size_t words = 0, list_count = x86_64 ? LINUX_RELOC_LISTS : 1;
	for (size_t l = 0; l < LINUX_RELOC_LISTS; l++) {
		if (l >= list_count && lists.count[l])
			abort(); /* i386 has only the 32-bit list */
		words += lists.count[l];
		for (size_t i = 0; i < lists.count[l]; i++) {
			const uint8_t *e = lists.entries[l] + i * ENTRY_BYTES;
			if (e < data || e + ENTRY_BYTES > data + size)
				abort();
			if (!(e[0] | e[1] | e[2] | e[3]))
				abort(); /* a zero ends a list; it is never an entry */
		}
	}
	if ((words + list_count) * ENTRY_BYTES != size)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A private copy, so that reads past the end are the sanitizers' to see. */
	uint8_t *copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	check_header(copy, size);
	check_lists(copy, size, false);
	check_lists(copy, size, true);
	free(copy);
	return 0;
}
