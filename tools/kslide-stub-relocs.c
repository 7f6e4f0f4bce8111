/*
 * kslide-stub-relocs: the stub's own relocation table, as an assembly file to link into it.
 *
 * A loader may put the stub somewhere other than its link address (GRUB does when the
 * Multiboot2 header carries a relocatable tag). The stub's entry then adds the difference to
 * every field that holds one of its own addresses before it uses any
 * (boot/x86/self_relocate.h); this table names those fields. It reads the linked stub's relocations
 * (the stub is linked with --emit-relocs) and writes, as offsets from _image_start, the
 * 32-bit words to add the distance to: the 32-bit fields (R_386_32, R_X86_64_32,
 * R_X86_64_32S) and the low halves of the 64-bit ones (R_X86_64_64), whose high halves stay 0
 * because the stub lies below 4 GiB wherever it is loaded (the Multiboot2 header keeps it
 * below 2 GiB); PC-relative ones need nothing. Every field must lie in the self-checked part
 * of the stub ([_stub_checked_start, _stub_end)) and hold an address inside the image, or
 * the build fails: the loaders' header words (.multiboot, .multiboot2, x86-64's .pvh, and its
 * .efi mark, which only kslide-pack reads) are the only fields left as linked, since the
 * loader has read them already (and a PVH monitor loads the stub at its link address, where
 * they are right).
 *
 * The offsets are the same bytes at any link address, so the stub links twice, as the kernel
 * does for kallsyms: with an empty table, then with the table of that link. The table sits at
 * the end of the stub, so it moves nothing before it; --check proves that the table inside a
 * linked stub is that stub's own, and --oracle that the table moves one link of the stub
 * onto another link of the same objects, byte for byte (the linker as the judge).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <getopt.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/common/atomic_file.h"
#include "tools/common/die.h"

#ifndef KSLIDE_VERSION
#define KSLIDE_VERSION "0.1"
#endif

#define TABLE_SECTION ".stub_relocs"

static const char *progname = "kslide-stub-relocs";

/* One linked stub: its allocated bytes from _image_start to _stub_end, and its fields. */
struct stub {
	const char *path;
	uint64_t start, checked, end; /* _image_start, _stub_checked_start, _stub_end */
	uint8_t *bytes;		      /* [start, end) as linked */
	uint32_t *words; /* offsets from start of the words to move, sorted */
	size_t n, n64;	 /* how many; how many of them are 64-bit fields' low halves */
	uint64_t table_at, table_size; /* the .stub_relocs section */
};

#define die(...) tool_die(progname, __VA_ARGS__)

static void usage(FILE *out)
{
	fprintf(out,
		"usage: %s -o OUT.S STUB.ELF\n"
		"       %s -o OUT.S --empty\n"
		"       %s --check STUB.ELF\n"
		"       %s --oracle STUB.ELF MOVED.ELF\n"
		"Write the stub's relocation table as assembly: the offsets from _image_start of\n"
		"the 32-bit words that hold the stub's own addresses (64-bit fields' low halves).\n"
		"  -o, --output FILE  where to write (replaced atomically)\n"
		"      --empty        a table with no fields, for the first link\n"
		"      --check        STUB.ELF's own table lists exactly its relocations\n"
		"      --oracle       STUB.ELF's table moves it onto MOVED.ELF, the same objects\n"
		"                     linked elsewhere: every self-checked byte equal\n"
		"  -h, --help         this text\n"
		"  -V, --version      the version\n",
		progname, progname, progname, progname);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p)
		die(NULL, "out of memory");
	return p;
}

static int by_value(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

enum field { FIELD_NONE, FIELD_32, FIELD_64, FIELD_UNKNOWN };

static enum field field_of(unsigned machine, unsigned type)
{
	if (machine == EM_386) {
		switch (type) {
		case R_386_32: return FIELD_32;
		case R_386_PC32:
		case R_386_PLT32: return FIELD_NONE;
		}
	} else if (machine == EM_X86_64) {
		switch (type) {
		case R_X86_64_32:
		case R_X86_64_32S: return FIELD_32;
		case R_X86_64_64: return FIELD_64;
		case R_X86_64_PC32:
		case R_X86_64_PLT32:
		case R_X86_64_PC64: return FIELD_NONE;
		}
	}
	return FIELD_UNKNOWN;
}

static bool symbol(Elf *elf, const char *want, uint64_t *value)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t i = 0; data && i < n; i++) {
			GElf_Sym s;
			const char *name;
			if (gelf_getsym(data, (int)i, &s) &&
			    (name = elf_strptr(elf, sh.sh_link, s.st_name)) && !strcmp(name, want)) {
				*value = s.st_value;
				return true;
			}
		}
	}
	return false;
}

static const char *section_name(Elf *elf, const GElf_Shdr *sh)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	return elf_strptr(elf, shstrndx, sh->sh_name);
}

/* The allocated sections' bytes over [start, end); bss stays zero. */
static void read_bytes(Elf *elf, struct stub *s)
{
	s->bytes = xcalloc(s->end - s->start, 1);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || !sh.sh_size)
			continue;
		if (sh.sh_addr < s->start || sh.sh_addr + sh.sh_size > s->end)
			die(s->path, "section %s lies outside _image_start.._stub_end",
			    section_name(elf, &sh));
		const char *name = section_name(elf, &sh);
		if (name && !strcmp(name, TABLE_SECTION))
			s->table_at = sh.sh_addr, s->table_size = sh.sh_size;
		if (sh.sh_type == SHT_NOBITS)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		if (!data || data->d_size != sh.sh_size)
			die(s->path, "cannot read section %s", name);
		memcpy(s->bytes + (sh.sh_addr - s->start), data->d_buf, sh.sh_size);
	}
}

/* The value a field holds as linked: the address it names. */
static uint64_t field_value(const struct stub *s, uint64_t at, enum field f)
{
	const uint8_t *p = s->bytes + (at - s->start);
	uint64_t v = 0;
	for (int i = f == FIELD_64 ? 7 : 3; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void add_field(struct stub *s, Elf *elf, const GElf_Shdr *target, uint64_t at,
		      enum field f)
{
	size_t width = f == FIELD_64 ? 8 : 4;
	if (at < s->start || at + width > s->end)
		die(s->path, "a relocation at 0x%llx lies outside the stub", (unsigned long long)at);
	if (at < s->checked) {
		/* The loaders' header words: read by the loader, never used as addresses after. */
		const char *name = section_name(elf, target);
		if (name && (!strcmp(name, ".multiboot") || !strcmp(name, ".multiboot2") ||
			     !strcmp(name, ".pvh") || !strcmp(name, ".efi")))
			return;
		die(s->path, "a relocation at 0x%llx in %s lies before the self-checked stub",
		    (unsigned long long)at, name ? name : "?");
	}
	uint64_t v = field_value(s, at, f);
	if (v < s->start || v > s->end)
		die(s->path,
		    "the field at 0x%llx holds 0x%llx, no address in the stub [0x%llx, 0x%llx]: "
		    "a constant through a symbol cannot be told from an address",
		    (unsigned long long)at, (unsigned long long)v, (unsigned long long)s->start,
		    (unsigned long long)s->end);
	s->words[s->n++] = (uint32_t)(at - s->start);
	s->n64 += f == FIELD_64;
}

static void read_stub(const char *path, struct stub *s)
{
	memset(s, 0, sizeof(*s));
	s->path = path;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		die(path, "%s", strerror(errno));
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	GElf_Ehdr eh;
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		die(path, "not an ELF file");
	if (eh.e_machine != EM_386 && eh.e_machine != EM_X86_64)
		die(path, "not an i386 or x86-64 stub");
	if (!symbol(elf, "_image_start", &s->start) || !symbol(elf, "_stub_end", &s->end) ||
	    !symbol(elf, "_stub_checked_start", &s->checked) || s->start > s->checked ||
	    s->checked > s->end || s->end - s->start > UINT32_MAX)
		die(path, "no _image_start <= _stub_checked_start <= _stub_end (not a stub?)");
	read_bytes(elf, s);

	size_t capacity = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	bool have_relocs = false;
	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) && (sh.sh_type == SHT_REL || sh.sh_type == SHT_RELA))
			capacity += sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
	s->words = xcalloc(capacity, sizeof(uint32_t));
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_REL && sh.sh_type != SHT_RELA))
			continue;
		GElf_Shdr target;
		if (!gelf_getshdr(elf_getscn(elf, sh.sh_info), &target) ||
		    !(target.sh_flags & SHF_ALLOC))
			continue; /* debug information */
		have_relocs = true;
		Elf_Data *data = elf_getdata(scn, NULL);
		size_t n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t i = 0; data && i < n; i++) {
			uint64_t at, info;
			if (sh.sh_type == SHT_REL) {
				GElf_Rel r;
				gelf_getrel(data, (int)i, &r);
				at = r.r_offset, info = r.r_info;
			} else {
				GElf_Rela r;
				gelf_getrela(data, (int)i, &r);
				at = r.r_offset, info = r.r_info;
			}
			unsigned type = eh.e_machine == EM_386 ? ELF32_R_TYPE(info) : ELF64_R_TYPE(info);
			enum field f = field_of(eh.e_machine, type);
			if (f == FIELD_UNKNOWN)
				die(path, "relocation type %u at 0x%llx: the stub cannot move it", type,
				    (unsigned long long)at);
			if (f != FIELD_NONE)
				add_field(s, elf, &target, at, f);
		}
	}
	if (!have_relocs)
		die(path, "no relocations (link the stub with --emit-relocs)");
	qsort(s->words, s->n, sizeof(uint32_t), by_value);
	elf_end(elf);
	close(fd);
}

/* The table as the stub reads it (boot/x86/self_relocate.h): the count, then the offsets. */
static uint8_t *table_bytes(const struct stub *s, size_t *size)
{
	*size = 4 * (1 + s->n);
	uint8_t *t = xcalloc(*size, 1), *p = t;
	for (size_t k = 0; k <= s->n; k++) {
		uint32_t v = k == 0 ? (uint32_t)s->n : s->words[k - 1];
		for (int i = 0; i < 4; i++)
			*p++ = (uint8_t)(v >> (8 * i));
	}
	return t;
}

static void write_table(FILE *f, const struct stub *s)
{
	fprintf(f, "/* Generated by %s: the stub's own relocation table. Do not edit. */\n",
		progname);
	fprintf(f, "\t.section %s, \"a\"\n\t.p2align 2\n\t.globl stub_relocs\n", TABLE_SECTION);
	fprintf(f, "stub_relocs:\n\t.long %zu\n", s ? s->n : 0);
	for (size_t i = 0; s && i < s->n; i++)
		fprintf(f, "\t.long 0x%x\n", s->words[i]);
	fprintf(f, "\t.section .note.GNU-stack, \"\", @progbits\n");
}

static void check(const struct stub *s)
{
	size_t size;
	uint8_t *want = table_bytes(s, &size);
	if (!s->table_at)
		die(s->path, "no %s section", TABLE_SECTION);
	if (s->table_at < s->checked || s->table_at + s->table_size > s->end)
		die(s->path, "the table lies outside the self-checked stub");
	if (s->table_size != size || memcmp(s->bytes + (s->table_at - s->start), want, size))
		die(s->path, "its table is not its relocations (%zu words): something moved between "
			     "the links",
		    s->n);
	free(want);
}

/* a's table applied to a's bytes, moved to b's address, must give b's bytes: the stub's way,
 * 32-bit words, wrapping. */
static void oracle(struct stub *a, const struct stub *b)
{
	if (b->start == a->start)
		die(b->path, "linked at the same address as %s: it judges nothing", a->path);
	if (b->end - b->start != a->end - a->start || b->checked - b->start != a->checked - a->start)
		die(b->path, "not the same objects as %s (sizes differ)", a->path);
	uint32_t delta = (uint32_t)(b->start - a->start);
	for (size_t i = 0; i < a->n; i++) {
		uint32_t off = a->words[i];
		uint32_t v = (uint32_t)field_value(a, a->start + off, FIELD_32) + delta;
		for (int k = 0; k < 4; k++)
			a->bytes[off + k] = (uint8_t)(v >> (8 * k));
	}
	uint64_t from = a->checked - a->start;
	for (uint64_t off = from; off < a->end - a->start; off++)
		if (a->bytes[off] != b->bytes[off])
			die(b->path, "byte 0x%llx (offset 0x%llx) is 0x%02x; %s moved by its table "
				     "gives 0x%02x",
			    (unsigned long long)(b->start + off), (unsigned long long)off,
			    b->bytes[off], a->path, a->bytes[off]);
	printf("%s: %s moved by its table (%zu words, %zu of them 64-bit fields' low halves) "
	       "equals %s\n",
	       progname, a->path, a->n, a->n64, b->path);
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "output", required_argument, NULL, 'o' }, { "empty", no_argument, NULL, 'e' },
		{ "check", no_argument, NULL, 'c' },	    { "oracle", no_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' },	    { "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL;
	bool empty = false, checking = false, judging = false;
	int c;
	while ((c = getopt_long(argc, argv, "o:hV", options, NULL)) != -1) {
		switch (c) {
		case 'o': output = optarg; break;
		case 'e': empty = true; break;
		case 'c': checking = true; break;
		case 'O': judging = true; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("%s %s\n", progname, KSLIDE_VERSION); return 0;
		default: usage(stderr); return 1;
		}
	}
	int args = argc - optind;
	bool ok = checking	? !output && !empty && !judging && args == 1
		  : judging	? !output && !empty && args == 2
		  : output && empty ? args == 0
				    : output && args == 1;
	if (!ok) {
		usage(stderr);
		return 1;
	}
	struct stub s;
	if (checking || judging) {
		read_stub(argv[optind], &s);
		check(&s);
		if (judging) {
			struct stub moved;
			read_stub(argv[optind + 1], &moved);
			check(&moved);
			oracle(&s, &moved);
		}
		return 0;
	}
	if (!empty)
		read_stub(argv[optind], &s);
	struct atomic_file out;
	char err[512];
	if (atomic_file_open(&out, output, 0666, err, sizeof(err)))
		die(output, "%s", err);
	write_table(out.f, empty ? NULL : &s);
	if (atomic_file_commit(&out, err, sizeof(err)))
		die(output, "%s", err);
	return 0;
}
