/*
 * libFuzzer target: the packer's ELF reader (tools/pack/kernel_elf.c) on arbitrary files, then
 * its relocation encoder. Whatever the reader accepts must encode to a table that lib/reloc.c
 * accepts for the payload's memory size; otherwise the stub would refuse an image the packer
 * wrote, so that is a bug here and abort() says so.
 */
#include <stdlib.h>
#include <string.h>

#include "lib/errors.h"
#include "lib/reloc.h"
#include "tools/pack/image_writer.h"
#include "tools/pack/kernel_elf.h"

#define ERR_CAP 256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_encoding(const struct kernel_elf *k)
{
	uint8_t *table;
	size_t table_size;
	char err[ERR_CAP];
	/* Two relocations at one offset is a legitimate refusal. */
	if (pack_encode_relocs(k, &table, &table_size, err, sizeof(err)) != 0)
		return;
	struct reloc_summary summary;
	if (reloc_validate(table, table_size, k->mem_size, &summary) != KS_OK ||
	    summary.total != k->fixup_count)
		abort();
	free(table);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* libelf may convert in place; the fuzzer's input must stay untouched. */
	uint8_t *copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	if (size)
		memcpy(copy, data, size);
	struct kernel_elf k;
	char err[ERR_CAP];
	if (kernel_elf_read(copy, size, &k, err, sizeof(err)) == 0) {
		if (k.file_size > k.mem_size || k.entry_offset >= k.mem_size)
			abort();
		check_encoding(&k);
		kernel_elf_free(&k);
	}
	free(copy);
	return 0;
}
