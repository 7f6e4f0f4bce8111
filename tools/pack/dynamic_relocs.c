/*
 * A static PIE kernel (x86-64, ET_DYN) carries its absolute addresses as dynamic relocations:
 * RELA entries in allocated SHT_RELA sections (.rela.dyn) and, with -z pack-relative-relocs,
 * a bitmap-coded SHT_RELR section (.relr.dyn). Each becomes a 64-bit fixup that adds the
 * virtual slide. The payload field is set to the link-time value first, so the image holds
 * what the kernel would contain at its link address, whatever the linker left in the field.
 *
 * Formats: System V ABI AMD64 supplement, 4.4 (RELA types); the RELR proposal adopted into
 * the generic ABI (SHT_RELR = 19): an even word is the address of the next field to patch, an
 * odd word is a bitmap of the 63 words that follow the last address.
 */
#include <elf.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <string.h>

#include "tools/pack/elf_reader.h"

#define WORD 8u
#define RELR_BITS 63u

/* Offset of the 8-byte field at virtual address vaddr, or -1 (with a message) if it has no
 * file bytes to hold a value. */
static int field_offset(struct reader *r, uint64_t vaddr, const char *what, uint64_t *offset)
{
	uint64_t where = vaddr - r->k->link_virt;
	if (where > r->k->file_size || r->k->file_size - where < WORD)
		return reader_fail(r, "%s at 0x%llx patches memory outside the loaded file bytes",
				   what, (unsigned long long)vaddr);
	*offset = where;
	return 0;
}

static void put64(uint8_t *p, uint64_t v)
{
	for (unsigned i = 0; i < WORD; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static int patch(struct reader *r, uint64_t vaddr, uint64_t value, bool moves, const char *what)
{
	uint64_t where = 0;
	if (field_offset(r, vaddr, what, &where))
		return -1;
	put64(r->k->payload + where, value);
	if (!moves) {
		r->k->skipped_absolute++;
		return 0;
	}
	return reader_add_fixup(r, where, RELOC_ADD64);
}

static int rela_entry(struct reader *r, Elf_Data *symbols, const GElf_Rela *rel)
{
	unsigned type = GELF_R_TYPE(rel->r_info);
	size_t index = GELF_R_SYM(rel->r_info);
	const char *name = x86_64_type_name(type);
	GElf_Sym sym;
	switch (type) {
	case R_X86_64_NONE:
		return 0;
	case R_X86_64_RELATIVE:
		return patch(r, rel->r_offset, (uint64_t)rel->r_addend, true, "R_X86_64_RELATIVE");
	case R_X86_64_64:
	case R_X86_64_GLOB_DAT:
		if (!symbols || !gelf_getsym(symbols, (int)index, &sym))
			return reader_fail(r, "%s at 0x%llx has a bad symbol index", name,
					   (unsigned long long)rel->r_offset);
		if (index != 0 && sym.st_shndx == SHN_UNDEF)
			return reader_fail(r, "%s at 0x%llx refers to an undefined symbol: a kernel "
					      "has no dynamic linker to resolve it",
					   name, (unsigned long long)rel->r_offset);
		uint64_t addend = type == R_X86_64_64 ? (uint64_t)rel->r_addend : 0;
		return patch(r, rel->r_offset, sym.st_value + addend, sym.st_shndx != SHN_ABS, name);
	}
	if (name)
		return reader_fail(r, "unsupported dynamic relocation type %s at 0x%llx", name,
				   (unsigned long long)rel->r_offset);
	return reader_fail(r, "unsupported dynamic relocation type %u at 0x%llx", type,
			   (unsigned long long)rel->r_offset);
}

static int read_rela(struct reader *r, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	Elf_Scn *symtab = sh->sh_link ? elf_getscn(r->elf, sh->sh_link) : NULL;
	Elf_Data *symbols = symtab ? elf_getdata(symtab, NULL) : NULL;
	if (!data || sh->sh_entsize != sizeof(Elf64_Rela))
		return reader_fail(r, "malformed dynamic relocation section");
	for (size_t i = 0; i < sh->sh_size / sh->sh_entsize; i++) {
		GElf_Rela rel;
		if (!gelf_getrela(data, (int)i, &rel))
			return reader_fail(r, "cannot read dynamic relocation %zu", i);
		if (rela_entry(r, symbols, &rel))
			return -1;
	}
	return 0;
}

/* A RELR field already holds its link-time value (the format has no addend). */
static int relr_field(struct reader *r, uint64_t vaddr)
{
	uint64_t where = 0;
	if (field_offset(r, vaddr, "a RELR relocation", &where))
		return -1;
	return reader_add_fixup(r, where, RELOC_ADD64);
}

static int read_relr(struct reader *r, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	if (!data || data->d_size != sh->sh_size || sh->sh_size % WORD)
		return reader_fail(r, "malformed RELR section");
	const uint8_t *bytes = data->d_buf;
	uint64_t next = 0;
	bool have_base = false;
	for (size_t i = 0; i < sh->sh_size / WORD; i++) {
		uint64_t entry = 0;
		for (unsigned b = 0; b < WORD; b++)
			entry |= (uint64_t)bytes[i * WORD + b] << (8 * b);
		if ((entry & 1) == 0) {
			if (relr_field(r, entry))
				return -1;
			next = entry + WORD;
			have_base = true;
			continue;
		}
		if (!have_base)
			return reader_fail(r, "RELR section starts with a bitmap, not an address");
		for (unsigned bit = 1; bit <= RELR_BITS; bit++)
			if ((entry >> bit) & 1 && relr_field(r, next + (bit - 1) * WORD))
				return -1;
		next += RELR_BITS * WORD;
	}
	return 0;
}

int dynamic_relocs_read(struct reader *r)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(r->elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			return reader_fail(r, "cannot read a section header");
		/* Unallocated RELA sections are --emit-relocs copies: the dynamic ones say it all. */
		bool dynamic = (sh.sh_flags & SHF_ALLOC) != 0;
		int rc = 0;
		if (sh.sh_type == SHT_REL && dynamic)
			rc = reader_fail(r, "REL relocations are not supported for x86-64");
		else if (sh.sh_type == SHT_RELA && dynamic)
			rc = read_rela(r, scn, &sh);
		else if (sh.sh_type == SHT_RELR)
			rc = read_relr(r, scn, &sh);
		if (rc)
			return rc;
	}
	return 0;
}
