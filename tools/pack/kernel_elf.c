/*
 * Reading a kernel with libelf: PT_LOAD segments become one flat payload from the lowest
 * physical address; the relocation sections kept by --emit-relocs become fixups
 * (emit_relocs.c; a static PIE's dynamic relocations: dynamic_relocs.c).
 */
#include <elf.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/kslide/image.h"
#include "tools/pack/elf_reader.h"
#include "tools/pack/kernel_elf.h"


int reader_fail(struct reader *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->err, r->err_cap, fmt, ap);
	va_end(ap);
	return -1;
}

const char *x86_64_type_name(unsigned type)
{
	static const char *const names[] = {
		[R_X86_64_NONE] = "R_X86_64_NONE",
		[R_X86_64_64] = "R_X86_64_64",
		[R_X86_64_PC32] = "R_X86_64_PC32",
		[R_X86_64_GOT32] = "R_X86_64_GOT32",
		[R_X86_64_PLT32] = "R_X86_64_PLT32",
		[R_X86_64_COPY] = "R_X86_64_COPY",
		[R_X86_64_GLOB_DAT] = "R_X86_64_GLOB_DAT",
		[R_X86_64_JUMP_SLOT] = "R_X86_64_JUMP_SLOT",
		[R_X86_64_RELATIVE] = "R_X86_64_RELATIVE",
		[R_X86_64_GOTPCREL] = "R_X86_64_GOTPCREL",
		[R_X86_64_32] = "R_X86_64_32",
		[R_X86_64_32S] = "R_X86_64_32S",
		[R_X86_64_16] = "R_X86_64_16",
		[R_X86_64_PC16] = "R_X86_64_PC16",
		[R_X86_64_8] = "R_X86_64_8",
		[R_X86_64_PC8] = "R_X86_64_PC8",
		[R_X86_64_DTPMOD64] = "R_X86_64_DTPMOD64",
		[R_X86_64_DTPOFF64] = "R_X86_64_DTPOFF64",
		[R_X86_64_TPOFF64] = "R_X86_64_TPOFF64",
		[R_X86_64_TLSGD] = "R_X86_64_TLSGD",
		[R_X86_64_TLSLD] = "R_X86_64_TLSLD",
		[R_X86_64_DTPOFF32] = "R_X86_64_DTPOFF32",
		[R_X86_64_GOTTPOFF] = "R_X86_64_GOTTPOFF",
		[R_X86_64_TPOFF32] = "R_X86_64_TPOFF32",
		[R_X86_64_PC64] = "R_X86_64_PC64",
		[R_X86_64_GOTOFF64] = "R_X86_64_GOTOFF64",
		[R_X86_64_GOTPC32] = "R_X86_64_GOTPC32",
		[R_X86_64_GOT64] = "R_X86_64_GOT64",
		[R_X86_64_GOTPCREL64] = "R_X86_64_GOTPCREL64",
		[R_X86_64_GOTPC64] = "R_X86_64_GOTPC64",
		[R_X86_64_GOTPLT64] = "R_X86_64_GOTPLT64",
		[R_X86_64_PLTOFF64] = "R_X86_64_PLTOFF64",
		[R_X86_64_SIZE32] = "R_X86_64_SIZE32",
		[R_X86_64_SIZE64] = "R_X86_64_SIZE64",
		[R_X86_64_GOTPC32_TLSDESC] = "R_X86_64_GOTPC32_TLSDESC",
		[R_X86_64_TLSDESC_CALL] = "R_X86_64_TLSDESC_CALL",
		[R_X86_64_TLSDESC] = "R_X86_64_TLSDESC",
		[R_X86_64_IRELATIVE] = "R_X86_64_IRELATIVE",
		[R_X86_64_RELATIVE64] = "R_X86_64_RELATIVE64",
		[R_X86_64_GOTPCRELX] = "R_X86_64_GOTPCRELX",
		[R_X86_64_REX_GOTPCRELX] = "R_X86_64_REX_GOTPCRELX",
	};
	if (type < sizeof(names) / sizeof(names[0]) && names[type])
		return names[type];
	return NULL;
}

int reader_add_fixup(struct reader *r, uint64_t offset, enum reloc_kind kind)
{
	struct kernel_elf *k = r->k;
	if (k->fixup_count == k->fixup_cap) {
		size_t cap = k->fixup_cap ? 2 * k->fixup_cap : 1024;
		struct fixup *f = realloc(k->fixups, cap * sizeof(*f));
		if (!f)
			return reader_fail(r, "out of memory");
		k->fixups = f;
		k->fixup_cap = cap;
	}
	k->fixups[k->fixup_count].offset = offset;
	k->fixups[k->fixup_count].kind = kind;
	k->fixup_count++;
	return 0;
}


bool kernel_elf_runs_code_at(const struct kernel_elf *k, uint64_t offset)
{
	for (size_t i = 0; i < k->segment_count; i++) {
		const struct kernel_segment *s = &k->segments[i];
		if (s->executable && !s->fixed && offset >= s->offset &&
		    offset - s->offset < s->file_size)
			return true;
	}
	return false;
}

/* A kernel has code: some executable segment holds bytes of the file. */
static int check_code(struct reader *r)
{
	for (size_t i = 0; i < r->k->segment_count; i++)
		if (r->k->segments[i].executable && r->k->segments[i].file_size)
			return 0;
	return reader_fail(r, "no executable segment holds bytes of the file (a PT_LOAD with PF_X "
			      "and a file size): a kernel has code");
}

static int read_entry(struct reader *r)
{
	GElf_Ehdr eh;
	gelf_getehdr(r->elf, &eh);
	struct kernel_elf *k = r->k;
	if (eh.e_entry - k->link_virt < k->mem_size)
		k->entry_offset = eh.e_entry - k->link_virt;
	else if (eh.e_entry - k->link_phys < k->mem_size)
		k->entry_offset = eh.e_entry - k->link_phys;
	else
		return reader_fail(r, "entry point outside the image (0x%llx)", (unsigned long long)eh.e_entry);
	if (kernel_elf_runs_code_at(k, k->entry_offset))
		return 0;
	/* In a segment's file bytes but not marked executable: the policy decides, since a
	 * Multiboot entry runs with paging off, where PF_X means nothing (nasm marks a section
	 * executable only when told, and GRUB enters it all the same). */
	for (size_t i = 0; i < k->segment_count; i++) {
		const struct kernel_segment *s = &k->segments[i];
		if (!s->fixed && k->entry_offset - s->offset < s->file_size) {
			snprintf(k->entry_not_code, sizeof(k->entry_not_code),
				 "entry point 0x%llx is not in the file bytes of an executable "
				 "segment", (unsigned long long)eh.e_entry);
			return 0;
		}
	}
	return reader_fail(r, "entry point 0x%llx is not in the file bytes of an executable "
			      "segment: the ELF header's e_entry must point at code",
			   (unsigned long long)eh.e_entry);
}

/* libelf quietly sees no sections (or fails on a header) when a table is cut off. */
static int check_tables(struct reader *r, const GElf_Ehdr *eh, size_t len)
{
	/* e_shnum 0 with e_shoff set: the count is in section 0, so there is at least one. */
	uint64_t shnum = eh->e_shnum ? eh->e_shnum : eh->e_shoff != 0;
	size_t phnum, count;
	if (eh->e_shoff > len || shnum * eh->e_shentsize > len - eh->e_shoff)
		return reader_fail(r, "section headers lie past the end of the file (truncated?)");
	if (elf_getphdrnum(r->elf, &phnum) != 0 || elf_getshdrnum(r->elf, &count) != 0)
		return reader_fail(r, "cannot count the headers: %s", elf_errmsg(-1));
	if ((uint64_t)count * eh->e_shentsize > len - eh->e_shoff)
		return reader_fail(r, "section headers lie past the end of the file (truncated?)");
	if (eh->e_phnum != PN_XNUM)
		phnum = eh->e_phnum; /* libelf counts 0 when the table is cut off */
	if (eh->e_phoff > len || (uint64_t)phnum * eh->e_phentsize > len - eh->e_phoff)
		return reader_fail(r, "program headers lie past the end of the file (truncated?)");
	return 0;
}

/* GNU ld marks a PIE linked at a non-zero base ET_EXEC; its PT_DYNAMIC gives it away. */
static bool has_dynamic_segment(Elf *elf)
{
	size_t count;
	if (elf_getphdrnum(elf, &count) != 0)
		return false;
	for (size_t i = 0; i < count; i++) {
		GElf_Phdr p;
		if (gelf_getphdr(elf, (int)i, &p) && p.p_type == PT_DYNAMIC)
			return true;
	}
	return false;
}

/* Image order: the stub patches each block of the image right after copying it
 * (lib/reloc.h, reloc_move), which needs the groups in ascending order. */
static int fixup_order(const void *a, const void *b)
{
	const struct fixup *x = a, *y = b;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* The whole reader; relocations only when asked (kernel_elf_read_segments does without). */
static int read_kernel(const uint8_t *buf, size_t len, struct kernel_elf *out, char *err,
		       size_t err_cap, bool relocations)
{
	memset(out, 0, sizeof(*out));
	struct reader r = { .k = out, .err = err, .err_cap = err_cap };
	if (len < SELFMAG || memcmp(buf, ELFMAG, SELFMAG) != 0)
		return reader_fail(&r, "not an ELF file");
	elf_version(EV_CURRENT);
	r.elf = elf_memory((char *)buf, len);
	GElf_Ehdr eh;
	int rc = -1;
	if (!r.elf || !gelf_getehdr(r.elf, &eh))
		reader_fail(&r, "malformed ELF header");
	else if (!(eh.e_machine == EM_386 && gelf_getclass(r.elf) == ELFCLASS32) &&
		 !(eh.e_machine == EM_X86_64 && gelf_getclass(r.elf) == ELFCLASS64))
		reader_fail(&r, "not an i386 or x86-64 kernel (ELF machine %u)", (unsigned)eh.e_machine);
	else if (eh.e_type == ET_REL)
		reader_fail(&r, "an object file (ET_REL), not a linked kernel: link it (ld "
				"--emit-relocs) and pack the result");
	else if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)
		reader_fail(&r, "ELF type %u is not an executable: a kernel is ET_EXEC, or ET_DYN for "
				"an x86-64 static PIE",
			    (unsigned)eh.e_type);
	else {
		out->arch = eh.e_machine == EM_386 ? KSLIDE_ARCH_I386 : KSLIDE_ARCH_X86_64;
		out->fixups_follow_virt = out->arch == KSLIDE_ARCH_X86_64;
		out->pie = out->arch == KSLIDE_ARCH_X86_64 &&
			   (eh.e_type == ET_DYN || has_dynamic_segment(r.elf));
		rc = check_tables(&r, &eh, len);
		rc = rc ? rc : reader_check_kernel_shape(&r);
		if (!rc && eh.e_type == ET_DYN && out->arch == KSLIDE_ARCH_I386)
			rc = reader_fail(&r, "an i386 kernel cannot be a PIE (ET_DYN): link it as an "
					     "executable with --emit-relocs");
		rc = rc ? rc : segments_read(&r);
		rc = rc ? rc : segments_copy(&r, buf, len);
		rc = rc ? rc : check_code(&r);
		rc = rc ? rc : read_entry(&r);
		if (relocations)
			rc = rc ? rc : out->pie ? dynamic_relocs_read(&r) : emit_relocs_read(&r);
	}
	if (r.elf)
		elf_end(r.elf);
	if (rc == 0 && out->fixup_count)
		qsort(out->fixups, out->fixup_count, sizeof(out->fixups[0]), fixup_order);
	if (rc)
		kernel_elf_free(out);
	return rc;
}

int kernel_elf_read(const uint8_t *buf, size_t len, struct kernel_elf *out, char *err,
		    size_t err_cap)
{
	return read_kernel(buf, len, out, err, err_cap, true);
}

int kernel_elf_read_segments(const uint8_t *buf, size_t len, struct kernel_elf *out, char *err,
			     size_t err_cap)
{
	return read_kernel(buf, len, out, err, err_cap, false);
}

static uint64_t furthest(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

uint64_t kernel_elf_file_extent(const uint8_t *buf, size_t len)
{
	if (len < SELFMAG || memcmp(buf, ELFMAG, SELFMAG) != 0)
		return 0;
	elf_version(EV_CURRENT);
	Elf *elf = elf_memory((char *)buf, len);
	GElf_Ehdr eh;
	size_t phnum, shnum;
	uint64_t end = 0;
	if (elf && gelf_getehdr(elf, &eh) && elf_getphdrnum(elf, &phnum) == 0 &&
	    elf_getshdrnum(elf, &shnum) == 0) {
		end = furthest(eh.e_ehsize, eh.e_phoff + (uint64_t)phnum * eh.e_phentsize);
		end = furthest(end, eh.e_shoff + (uint64_t)shnum * eh.e_shentsize);
		Elf_Scn *scn = NULL;
		GElf_Shdr sh;
		while ((scn = elf_nextscn(elf, scn)) && gelf_getshdr(scn, &sh))
			if (sh.sh_type != SHT_NOBITS)
				end = furthest(end, sh.sh_offset + sh.sh_size);
		for (size_t i = 0; i < phnum; i++) {
			GElf_Phdr p;
			if (gelf_getphdr(elf, (int)i, &p))
				end = furthest(end, p.p_offset + p.p_filesz);
		}
	}
	if (elf)
		elf_end(elf);
	return end;
}

void kernel_elf_free(struct kernel_elf *k)
{
	free(k->payload);
	free(k->fixups);
	free(k->segments);
	k->payload = NULL;
	k->fixups = NULL;
	k->segments = NULL;
}
