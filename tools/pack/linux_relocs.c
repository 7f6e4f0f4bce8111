/*
 * Linux's appended relocation lists (tools/pack/linux_relocs.h): split from the end of the
 * payload as the decompressor reads them, then checked against the kernel's segments and
 * turned into kslide fixups.
 */
#include <stdlib.h>
#include <string.h>

#include "include/kslide/image.h"
#include "lib/unaligned.h"
#include "tools/pack/fail.h"
#include "tools/pack/linux_relocs.h"

#define ENTRY_BYTES 4
#define SIGN_BIT_32 0x80000000u

const char *linux_relocs_list_name(enum linux_reloc_list list)
{
	switch (list) {
	case LINUX_RELOCS_32: return "32-bit";
	case LINUX_RELOCS_INVERSE_32: return "inverse 32-bit";
	case LINUX_RELOCS_64: return "64-bit";
	case LINUX_RELOC_LISTS: break;
	}
	return "?";
}

int linux_relocs_split(const uint8_t *tail, size_t len, bool x86_64, struct linux_relocs *out,
		       char *err, size_t err_cap)
{
	/* Backwards from the end, in the order misc.c reads them. */
	static const enum linux_reloc_list order[] = { LINUX_RELOCS_32, LINUX_RELOCS_INVERSE_32,
						       LINUX_RELOCS_64 };
	memset(out, 0, sizeof(*out));
	if (len % ENTRY_BYTES)
		return pack_fail(err, err_cap,
				 "malformed relocation lists: the %zu bytes after the vmlinux "
				 "ELF are not whole 32-bit entries",
				 len);
	size_t at = len; /* the lists read so far lie in [at, len) */
	size_t lists = x86_64 ? 3 : 1;
	for (size_t i = 0; i < lists; i++) {
		size_t end = at;
		while (at >= ENTRY_BYTES && load_le32(tail + at - ENTRY_BYTES) != 0)
			at -= ENTRY_BYTES;
		if (at < ENTRY_BYTES)
			return pack_fail(err, err_cap,
					 "malformed relocation lists: the %s list has no "
					 "terminating zero before the vmlinux ELF",
					 linux_relocs_list_name(order[i]));
		out->entries[order[i]] = tail + at;
		out->count[order[i]] = (end - at) / ENTRY_BYTES;
		at -= ENTRY_BYTES; /* the terminator */
	}
	if (at != 0)
		return pack_fail(err, err_cap,
				 "malformed relocation lists: %zu bytes lie between the "
				 "vmlinux ELF and them",
				 at);
	return 0;
}

static int by_offset(const void *a, const void *b)
{
	const struct fixup *x = a, *y = b;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* The payload offset of the field an entry names, or -1 if no segment holds its bytes. */
static int entry_offset(const struct kernel_elf *k, uint32_t entry, unsigned width,
			uint64_t *offset)
{
	/* relocs.c stores the low 32 bits; misc.c sign-extends them on x86-64. */
	uint64_t address = k->arch == KSLIDE_ARCH_X86_64 ? (uint64_t)(int64_t)(int32_t)entry : entry;
	uint64_t where = address - k->link_virt;
	for (size_t i = 0; i < k->segment_count; i++) {
		const struct kernel_segment *s = &k->segments[i];
		uint64_t in = where - s->offset;
		if (in < s->file_size && s->file_size - in >= width) {
			*offset = where;
			return 0;
		}
	}
	return -1;
}

/*
 * The kind a list's fields get. Linux's 32-bit list holds R_X86_64_32 and _32S alike, which
 * it patches the same way; a field whose bit 31 is set holds a sign-extended address in the
 * top 2 GiB (a zero-extended one would name 2-4 GiB, where no x86-64 kernel runs), so it is
 * RELOC_ADD32S, the others RELOC_ADD32. An R_X86_64_32S field with bit 31 clear (a small
 * offset such as _text - __START_KERNEL_map) becomes RELOC_ADD32: for every slide of Linux's
 * window its result stays below 2^31, where the two kinds agree.
 */
static enum reloc_kind list_kind(const struct kernel_elf *k, enum linux_reloc_list list,
				 uint64_t offset)
{
	switch (list) {
	case LINUX_RELOCS_INVERSE_32: return RELOC_SUB32S;
	case LINUX_RELOCS_64: return RELOC_ADD64;
	case LINUX_RELOCS_32:
	case LINUX_RELOC_LISTS: break;
	}
	if (k->arch == KSLIDE_ARCH_X86_64 && (load_le32(k->payload + offset) & SIGN_BIT_32))
		return RELOC_ADD32S;
	return RELOC_ADD32;
}

int linux_relocs_fixups(const struct linux_relocs *lists, struct kernel_elf *k, char *err,
			size_t err_cap)
{
	size_t total = 0;
	for (int l = 0; l < LINUX_RELOC_LISTS; l++)
		total += lists->count[l];
	struct fixup *fixups = malloc((total ? total : 1) * sizeof(*fixups));
	if (!fixups)
		return pack_fail(err, err_cap, "out of memory");
	size_t n = 0;
	for (int l = 0; l < LINUX_RELOC_LISTS; l++) {
		unsigned width = l == LINUX_RELOCS_64 ? 8 : 4;
		for (size_t i = 0; i < lists->count[l]; i++) {
			uint32_t entry = load_le32(lists->entries[l] + i * ENTRY_BYTES);
			uint64_t offset;
			if (entry_offset(k, entry, width, &offset)) {
				free(fixups);
				return pack_fail(err, err_cap,
						 "%s relocation entry %zu (0x%08x) points "
						 "outside the kernel's loaded segments",
						 linux_relocs_list_name((enum linux_reloc_list)l),
						 i, entry);
			}
			fixups[n].offset = offset;
			fixups[n].kind = list_kind(k, (enum linux_reloc_list)l, offset);
			n++;
		}
	}
	qsort(fixups, n, sizeof(*fixups), by_offset);
	free(k->fixups);
	k->fixups = fixups;
	k->fixup_count = k->fixup_cap = n;
	return 0;
}
