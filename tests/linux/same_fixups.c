/*
 * linux-same-fixups: a bzImage and the -dbg package's vmlinux of the same kernel must give
 * kslide-pack the same kernel. The lists in the bzImage are Linux's own (arch/x86/tools/
 * relocs.c read the same vmlinux's .rela sections), so they judge kslide's ELF classifier,
 * and the ELF judges the bzImage reader. Same payload bytes, segments and entry; the same
 * fixups, offset and kind, except fields naming undefined weak symbols: Linux's i386 list
 * relocates those (relocs.c's do_reloc32 does not skip them), kslide leaves them at 0, so
 * each extra bzImage fixup must be one of them (a field that holds 0 in the ELF). And Linux's
 * x86-64 32-bit list does not say whether a field is R_X86_64_32 or _32S: the bzImage reader
 * calls one with bit 31 clear RELOC_ADD32 (tools/pack/linux_relocs.c), where the ELF may say
 * RELOC_ADD32S; those are counted, not differences.
 *
 * usage: linux-same-fixups BZIMAGE VMLINUX   prints "same-fixups: ..." and exits 0 if equal
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/pack/kernel_elf.h"
#include "tools/pack/linux_image.h"

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	uint8_t *buf = NULL;
	if (fseek(f, 0, SEEK_END) == 0) {
		long size = ftell(f);
		if (size >= 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)size + 1)) &&
		    fread(buf, 1, (size_t)size, f) != (size_t)size) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)size;
	}
	fclose(f);
	return buf;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Fields only the bzImage relocates: each must hold 0 in the ELF (an undefined weak symbol). */
static int compare_fixups(const struct kernel_elf *bz, const struct kernel_elf *elf)
{
	size_t i = 0, j = 0, extra = 0, bad = 0, unsigned_view = 0;
	while (i < bz->fixup_count || j < elf->fixup_count) {
		const struct fixup *a = i < bz->fixup_count ? &bz->fixups[i] : NULL;
		const struct fixup *b = j < elf->fixup_count ? &elf->fixups[j] : NULL;
		if (a && b && a->offset == b->offset) {
			bool sign_unknown = a->kind == RELOC_ADD32 && b->kind == RELOC_ADD32S &&
					    !(get32(elf->payload + a->offset) >> 31);
			unsigned_view += sign_unknown;
			if (a->kind != b->kind && !sign_unknown && bad++ < 10)
				printf("same-fixups: offset 0x%llx: kind %d from the bzImage, %d from "
				       "the ELF\n",
				       (unsigned long long)a->offset, a->kind, b->kind);
			i++, j++;
		} else if (a && (!b || a->offset < b->offset)) {
			if (get32(elf->payload + a->offset) != 0 && bad++ < 10)
				printf("same-fixups: offset 0x%llx only in the bzImage's lists, and its "
				       "field is not 0\n",
				       (unsigned long long)a->offset);
			extra++, i++;
		} else {
			if (bad++ < 10)
				printf("same-fixups: offset 0x%llx (kind %d) only from the ELF\n",
				       (unsigned long long)b->offset, b->kind);
			j++;
		}
	}
	if (extra != elf->skipped_weak && bad++ < 10)
		printf("same-fixups: %zu fixups only in the bzImage, but %zu weak undefined "
		       "references\n",
		       extra, elf->skipped_weak);
	printf("same-fixups: %zu fixups from the bzImage, %zu from the ELF, %zu only in the "
	       "bzImage (weak undefined: %zu), %zu R_X86_64_32S fields with bit 31 clear read as "
	       "32-bit, %zu differences\n",
	       bz->fixup_count, elf->fixup_count, extra, elf->skipped_weak, unsigned_view, bad);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s BZIMAGE VMLINUX\n", argv[0]);
		return 2;
	}
	size_t blen = 0, elen = 0;
	uint8_t *bfile = slurp(argv[1], &blen), *efile = slurp(argv[2], &elen);
	if (!bfile || !efile) {
		fprintf(stderr, "same-fixups: %s: %s\n", bfile ? argv[2] : argv[1], strerror(errno));
		return 2;
	}
	char err[512];
	struct linux_image li;
	struct kernel_elf bz, elf;
	if (linux_image_read(bfile, blen, &li, &bz, err, sizeof(err))) {
		fprintf(stderr, "same-fixups: %s: %s\n", argv[1], err);
		return 2;
	}
	if (kernel_elf_read(efile, elen, &elf, err, sizeof(err))) {
		fprintf(stderr, "same-fixups: %s: %s\n", argv[2], err);
		return 2;
	}
	free(bfile);
	free(efile);
	int rc = 0;
	if (bz.arch != elf.arch || bz.link_phys != elf.link_phys || bz.link_virt != elf.link_virt ||
	    bz.entry_offset != elf.entry_offset || bz.file_size != elf.file_size ||
	    bz.mem_size != elf.mem_size) {
		printf("same-fixups: the kernels differ: link 0x%llx/0x%llx vs 0x%llx/0x%llx, file "
		       "%llu vs %llu bytes\n",
		       (unsigned long long)bz.link_phys, (unsigned long long)bz.link_virt,
		       (unsigned long long)elf.link_phys, (unsigned long long)elf.link_virt,
		       (unsigned long long)bz.file_size, (unsigned long long)elf.file_size);
		rc = 1;
	} else if (memcmp(bz.payload, elf.payload, bz.file_size) != 0) {
		printf("same-fixups: the loaded bytes differ\n");
		rc = 1;
	}
	rc |= compare_fixups(&bz, &elf);
	kernel_elf_free(&bz);
	kernel_elf_free(&elf);
	return rc;
}
