/*
 * reloc-oracle: the linker judges the packer. A.elf and B.elf are the same objects linked at
 * two addresses. Moving A's payload by the slide with the relocation table kslide-pack would
 * write must give B's payload, byte for byte. The slide is B.link_phys - A.link_phys on i386,
 * where the virtual base moves with the physical one, and B.link_virt - A.link_virt on
 * x86-64, where the two bases move independently and the fixups follow the virtual one.
 *
 * One place differs by design: a reference to an absolute (SHN_ABS) symbol whose value is
 * the link address itself, such as kernel_link_phys. The packer must leave it alone, while B
 * holds B's value. The oracle finds those fields on its own from A's relocations, checks that
 * moving left them unchanged and that B differs there by exactly the symbol's change, then
 * compares everything else byte for byte.
 *
 * A static PIE also carries the dynamic linker's tables (.dynamic, .rela.dyn, .relr.dyn, the
 * dynamic symbols and hashes). They hold link-time addresses no relocation adjusts; the
 * packer has consumed them and the kernel never reads them, so they are left out of the
 * comparison and counted in the report.
 *
 * Both relocators are judged: reloc_apply over A as loaded, and reloc_move, the stub's one-pass
 * copy and patch, from A's file bytes into memory full of garbage (so its zeroing of the bss
 * is judged too).
 *
 * With --image A.img (what kslide-pack wrote for A.elf), the payload and table come from the
 * packed image instead, after the image passes the stub's own check (lib/image.c) and its
 * payload is shown to be A's bytes: the oracle then judges the file that boots. A zstd image
 * is judged a third way too, the stub's: its frame decoded with the early fields patched
 * after each block and the late ones at the frame's end (lib/reloc_schedule.h).
 *
 *   usage: reloc-oracle [--image A.img] A.elf B.elf
 *   exit 0: identical after moving; 1: a mismatch, or a comparison that would prove nothing.
 */
#include <elf.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/kslide/image.h"
#include "lib/errors.h"
#include "lib/image.h"
#include "lib/reloc.h"
#include "lib/reloc_schedule.h"
#include "lib/zstd.h"
#include "tools/pack/image_writer.h"
#include "tools/pack/kernel_elf.h"

#define MAX_REPORTED 10 /* differing offsets printed before giving up */
#define ERR_CAP	     256

/* A field naming an absolute symbol whose value differs between the two links. */
struct abs_ref {
	uint64_t offset; /* from the payload's first byte */
	uint64_t shift;	 /* B's symbol value minus A's, modulo 2^(8 * width) */
	unsigned width;	 /* bytes: 4 or 8 */
	char name[64];
};

struct abs_refs {
	struct abs_ref *ref;
	size_t count, cap;
};

static const char *progname = "reloc-oracle";

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0, got;
	do {
		if (n == cap) {
			cap = cap ? 2 * cap : 1 << 16;
			uint8_t *grown = realloc(buf, cap);
			if (!grown) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = grown;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

/* A kernel as the packer reads it, plus its file bytes for the oracle's own libelf view. */
struct input {
	const char *path;
	uint8_t *file;
	size_t file_len;
	struct kernel_elf k;
	Elf *elf;
};

static int load(const char *path, struct input *in)
{
	memset(in, 0, sizeof(*in));
	in->path = path;
	in->file = read_file(path, &in->file_len);
	if (!in->file) {
		fprintf(stderr, "%s: %s: cannot read\n", progname, path);
		return -1;
	}
	char err[ERR_CAP];
	if (kernel_elf_read(in->file, in->file_len, &in->k, err, sizeof(err))) {
		fprintf(stderr, "%s: %s: %s\n", progname, path, err);
		return -1;
	}
	elf_version(EV_CURRENT);
	in->elf = elf_memory((char *)in->file, in->file_len);
	if (!in->elf) {
		fprintf(stderr, "%s: %s: %s\n", progname, path, elf_errmsg(-1));
		return -1;
	}
	return 0;
}

static void unload(struct input *in)
{
	if (in->elf)
		elf_end(in->elf);
	kernel_elf_free(&in->k);
	free(in->file);
}

/* The value of the absolute symbol called name in e's symbol table; -1 if there is none. */
static int abs_symbol_value(Elf *e, const char *name, uint64_t *value)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *n;
			if (gelf_getsym(d, (int)i, &sym) && sym.st_shndx == SHN_ABS &&
			    (n = elf_strptr(e, sh.sh_link, sym.st_name)) && strcmp(n, name) == 0) {
				*value = sym.st_value;
				return 0;
			}
		}
	}
	return -1;
}

static int add_abs_ref(struct abs_refs *out, uint64_t offset, uint64_t shift, unsigned width,
		       const char *name)
{
	if (out->count == out->cap) {
		size_t cap = out->cap ? 2 * out->cap : 16;
		struct abs_ref *r = realloc(out->ref, cap * sizeof(*r));
		if (!r)
			return -1;
		out->ref = r;
		out->cap = cap;
	}
	struct abs_ref *r = &out->ref[out->count++];
	r->offset = offset;
	r->shift = shift;
	r->width = width;
	snprintf(r->name, sizeof(r->name), "%s", name);
	return 0;
}

/* Bytes of the absolute field a relocation type patches; 0 for any other type. */
static unsigned absolute_width(unsigned machine, unsigned type)
{
	if (machine == EM_386)
		return type == R_386_32 ? 4 : 0;
	if (type == R_X86_64_64)
		return 8;
	return type == R_X86_64_32 || type == R_X86_64_32S ? 4 : 0;
}

/*
 * Independently of the packer: every absolute field (R_386_32; R_X86_64_64, _32, _32S) in a
 * loaded section of A that names an absolute symbol whose value in B differs. Such a symbol
 * missing from B is an error.
 */
static int find_abs_refs(const struct input *a, const struct input *b, struct abs_refs *out)
{
	GElf_Ehdr eh;
	if (!gelf_getehdr(a->elf, &eh))
		return -1;
	unsigned machine = eh.e_machine;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(a->elf, scn))) {
		GElf_Shdr sh, target, symsh;
		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_REL && sh.sh_type != SHT_RELA) ||
		    !sh.sh_entsize)
			continue;
		Elf_Scn *tscn = elf_getscn(a->elf, sh.sh_info);
		Elf_Scn *sscn = elf_getscn(a->elf, sh.sh_link);
		if (!tscn || !sscn || !gelf_getshdr(tscn, &target) || !gelf_getshdr(sscn, &symsh))
			return -1;
		if (!(target.sh_flags & SHF_ALLOC))
			continue;
		Elf_Data *rels = elf_getdata(scn, NULL), *syms = elf_getdata(sscn, NULL);
		for (size_t i = 0; rels && syms && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Rel rel; /* the addend is in B's bytes already: not needed */
			GElf_Rela rela;
			GElf_Sym sym;
			if (sh.sh_type == SHT_RELA) {
				if (!gelf_getrela(rels, (int)i, &rela))
					return -1;
				rel.r_offset = rela.r_offset;
				rel.r_info = rela.r_info;
			} else if (!gelf_getrel(rels, (int)i, &rel)) {
				return -1;
			}
			if (!gelf_getsym(syms, (int)GELF_R_SYM(rel.r_info), &sym))
				return -1;
			unsigned width = absolute_width(machine, GELF_R_TYPE(rel.r_info));
			if (!width || sym.st_shndx != SHN_ABS)
				continue;
			const char *name = elf_strptr(a->elf, symsh.sh_link, sym.st_name);
			uint64_t b_value, offset = rel.r_offset - a->k.link_virt;
			if (!name || abs_symbol_value(b->elf, name, &b_value)) {
				fprintf(stderr, "%s: absolute symbol %s is missing from %s\n",
					progname, name ? name : "?", b->path);
				return -1;
			}
			if (offset > a->k.file_size || a->k.file_size - offset < width)
				return -1;
			if (b_value != sym.st_value &&
			    add_abs_ref(out, offset, b_value - sym.st_value, width, name))
				return -1;
		}
	}
	return 0;
}

/* A little-endian field of width bytes (4 or 8). */
static uint64_t get_le(const uint8_t *p, unsigned width)
{
	uint64_t v = 0;
	for (unsigned i = width; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

/*
 * At each link-dependent absolute field: moving must have left A's value, and B must hold it
 * plus the symbol's shift. Then take B's bytes so the byte comparison covers the rest.
 */
static int check_abs_refs(const struct abs_refs *refs, const uint8_t *orig, uint8_t *moved,
			  const uint8_t *want)
{
	int bad = 0;
	for (size_t i = 0; i < refs->count; i++) {
		const struct abs_ref *r = &refs->ref[i];
		uint64_t mask = r->width == 8 ? UINT64_MAX : ((uint64_t)1 << (8 * r->width)) - 1;
		uint64_t a = get_le(orig + r->offset, r->width), m = get_le(moved + r->offset, r->width),
			 b = get_le(want + r->offset, r->width);
		if (m != a || b != ((a + r->shift) & mask)) {
			fprintf(stderr,
				"  absolute %s at offset 0x%06llx: A 0x%08llx, moved A 0x%08llx, "
				"B 0x%08llx (expected unchanged, and B = A + 0x%llx)\n",
				r->name, (unsigned long long)r->offset, (unsigned long long)a,
				(unsigned long long)m, (unsigned long long)b,
				(unsigned long long)(r->shift & mask));
			bad = 1;
		}
		memcpy(moved + r->offset, want + r->offset, r->width);
	}
	return bad;
}

static int is_loader_table(const GElf_Shdr *sh)
{
	switch (sh->sh_type) {
	case SHT_DYNAMIC: case SHT_RELA: case SHT_REL: case SHT_RELR:
	case SHT_DYNSYM: case SHT_HASH: case SHT_GNU_HASH:
		return 1;
	case SHT_STRTAB:
		return 1; /* allocated string tables in a kernel are .dynstr */
	}
	return 0;
}

/* Take B's bytes for A's allocated dynamic-linking tables; returns how many bytes. */
static uint64_t skip_loader_tables(const struct input *a, uint8_t *moved, const uint8_t *want)
{
	uint64_t skipped = 0;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(a->elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || !is_loader_table(&sh))
			continue;
		uint64_t off = sh.sh_addr - a->k.link_virt;
		if (off > a->k.mem_size || sh.sh_size > a->k.mem_size - off)
			continue;
		memcpy(moved + off, want + off, sh.sh_size);
		skipped += sh.sh_size;
	}
	return skipped;
}

/* A payload as loaded: file_size bytes, zero up to mem_size. Caller frees. */
static uint8_t *loaded_image(const struct kernel_elf *k)
{
	uint8_t *img = calloc(1, k->mem_size ? k->mem_size : 1);
	if (img)
		memcpy(img, k->payload, k->file_size);
	return img;
}

/* Print up to MAX_REPORTED differing offsets; return how many bytes differ. */
static uint64_t report_differences(const uint8_t *moved, const uint8_t *want, uint64_t size,
				   const struct kernel_elf *a)
{
	uint64_t differ = 0;
	for (uint64_t off = 0; off < size; off++) {
		if (moved[off] == want[off])
			continue;
		if (differ < MAX_REPORTED)
			fprintf(stderr,
				"  offset 0x%06llx (A virt 0x%08llx): "
				"moved A has 0x%02x, B has 0x%02x\n",
				(unsigned long long)off, (unsigned long long)(a->link_virt + off),
				moved[off], want[off]);
		differ++;
	}
	return differ;
}

/* Signed delta as "0x..." or "-0x..." for messages. */
static void print_delta(FILE *to, int64_t delta)
{
	uint64_t mag = delta < 0 ? -(uint64_t)delta : (uint64_t)delta;
	fprintf(to, "%s0x%llx", delta < 0 ? "-" : "", (unsigned long long)mag);
}

/* Preconditions without which a match would prove nothing, or could not be checked. */
static int comparable(const struct kernel_elf *a, const struct kernel_elf *b)
{
	if (a->mem_size != b->mem_size || a->file_size != b->file_size) {
		fprintf(stderr,
			"%s: sizes differ (file 0x%llx vs 0x%llx, memory 0x%llx vs 0x%llx)\n",
			progname, (unsigned long long)a->file_size,
			(unsigned long long)b->file_size, (unsigned long long)a->mem_size,
			(unsigned long long)b->mem_size);
		return 0;
	}
	if (a->arch != b->arch || a->fixups_follow_virt != b->fixups_follow_virt) {
		fprintf(stderr, "%s: the two kernels are built for different architectures\n",
			progname);
		return 0;
	}
	/* On i386 one slide moves both bases, so the links must keep their offset. */
	if (!a->fixups_follow_virt && a->link_virt - a->link_phys != b->link_virt - b->link_phys) {
		fprintf(stderr, "%s: the two links use different virtual-physical offsets\n",
			progname);
		return 0;
	}
	if (a->fixup_count == 0) {
		fprintf(stderr, "%s: A has no relocations: the comparison proves nothing\n",
			progname);
		return 0;
	}
	if (memcmp(a->payload, b->payload, a->file_size) == 0) {
		fprintf(stderr,
			"%s: payloads are identical before moving: the comparison proves nothing\n",
			progname);
		return 0;
	}
	return 1;
}

/* A zstd image's payload as the stub decodes it: the frame, and the table's runs. */
struct packed_zstd {
	uint8_t *frame;
	size_t frame_size;
	const uint8_t *runs; /* after the table, in its buffer */
	size_t runs_size;
};

static _Alignas(ZSTD_WORKSPACE_ALIGN) uint8_t workspace[ZSTD_WORKSPACE_SIZE];

/* size bytes decoded from one zstd frame into a new buffer; NULL when it fails. */
static uint8_t *zstd_whole(const uint8_t *frame, size_t frame_size, size_t size)
{
	uint8_t *out = malloc(size + 1);
	size_t got = 0;
	if (out && (zstd_decompress(workspace, sizeof(workspace), out, size, frame, frame_size,
				    &got, NULL, NULL) != KS_OK ||
		    got != size)) {
		free(out);
		out = NULL;
	}
	return out;
}

/* Whether the image's stored payload is A's file bytes: the same up to file_size, which may
 * stop short of A's (the packer leaves a zero tail to the stub's clearing), and zeros after. */
static int is_payload_of(const struct kernel_elf *a, const uint8_t *stored, uint64_t file_size)
{
	if (file_size > a->file_size || memcmp(stored, a->payload, file_size) != 0)
		return 0;
	for (uint64_t i = file_size; i < a->file_size; i++)
		if (a->payload[i] != 0)
			return 0;
	return 1;
}

/*
 * The relocation table of A's packed image, after the checks the stub makes, the size of its
 * stored payload, and for a zstd image (z not NULL) its payload frame and runs. 0 or -1.
 */
static int table_from_image(const char *path, const struct kernel_elf *a, uint8_t **table,
			    size_t *table_size, uint64_t *file_size, struct packed_zstd *z)
{
	size_t len;
	uint8_t *img = read_file(path, &len);
	if (!img) {
		fprintf(stderr, "%s: %s: cannot read\n", progname, path);
		return -1;
	}
	struct kslide_image_header h;
	const char *why = "no kslide header";
	long off = pack_find_kslide_header(img, len);
	int rc = -1;
	if (off >= 0)
		memcpy(&h, img + off, sizeof(h));
	int zstd = off >= 0 && h.payload_codec == KSLIDE_CODEC_ZSTD;
	uint8_t *decoded = NULL;
	if (off < 0 || image_verify(img, len, &h, &why) != KS_OK) {
		; /* why says it */
	} else if (h.payload_codec != KSLIDE_CODEC_NONE && !zstd) {
		why = "its codec is neither none nor zstd";
	} else if (zstd && !(decoded = zstd_whole(img + h.payload_offset, h.payload_stored_size,
						  h.payload_file_size))) {
		why = "its payload does not decode";
	} else if (h.payload_mem_size != a->mem_size || h.link_virt_base != a->link_virt ||
		   !is_payload_of(a, zstd ? decoded : img + h.payload_offset,
				  h.payload_file_size)) {
		why = "its payload is not A's";
	} else if (zstd && h.relocs_size != 0) {
		*table = zstd_whole(img + h.relocs_offset, h.relocs_stored_size,
				    h.relocs_size + h.relocs_runs_size);
		why = *table ? why : "its relocation table does not decode";
		rc = *table ? 0 : -1;
	} else if (!(*table = malloc(h.relocs_size + 1))) {
		why = "out of memory";
	} else {
		memcpy(*table, img + h.relocs_offset, h.relocs_size);
		rc = 0;
	}
	*table_size = h.relocs_size;
	*file_size = h.payload_file_size;
	if (rc == 0 && zstd && z) {
		z->frame_size = h.payload_stored_size;
		z->frame = malloc(z->frame_size + 1);
		if (z->frame)
			memcpy(z->frame, img + h.payload_offset, z->frame_size);
		z->runs = *table + h.relocs_size;
		z->runs_size = h.relocs_runs_size;
		rc = z->frame ? 0 : -1;
	}
	if (rc)
		fprintf(stderr, "%s: %s: %s\n", progname, path, why);
	free(decoded);
	free(img);
	return rc;
}

/* The stub's garbage-filled destination: reloc_move must write every byte, bss included. */
#define UNWRITTEN_BYTE 0xa5

/*
 * Move A to B's address with one of the two relocators, into a buffer of its own: reloc_apply
 * over A as loaded, or reloc_move (what the stub runs) from A's file bytes into memory that
 * holds garbage. Returns the moved image (caller frees) or NULL after a message.
 */
static uint8_t *move_image(const struct kernel_elf *a, uint64_t file_size, const uint8_t *table,
			   size_t table_size, int64_t delta, int use_move)
{
	uint8_t *moved = use_move ? malloc(a->mem_size ? a->mem_size : 1) : loaded_image(a);
	if (!moved) {
		fprintf(stderr, "%s: out of memory\n", progname);
		return NULL;
	}
	int status;
	if (use_move) {
		memset(moved, UNWRITTEN_BYTE, a->mem_size);
		status = reloc_move(moved, a->payload, file_size, a->mem_size, table, table_size,
				    delta, NULL);
	} else {
		status = reloc_apply(moved, a->mem_size, table, table_size, delta);
	}
	if (status != KS_OK) {
		fprintf(stderr, "%s: %s of A's relocations: %s\n", progname,
			use_move ? "reloc_move" : "reloc_apply", ks_strerror(status));
		free(moved);
		return NULL;
	}
	return moved;
}

/*
 * The stub's way with a zstd image: the payload decoded straight into memory full of
 * garbage, the early fields patched after each block, the late ones once final, the bss
 * cleared (lib/reloc_schedule.h). Returns the moved image (caller frees) or NULL.
 */
static uint8_t *decode_and_schedule(const struct kernel_elf *a, uint64_t file_size,
				    const uint8_t *table, size_t table_size,
				    const struct packed_zstd *z, int64_t delta)
{
	uint8_t *moved = malloc(a->mem_size ? a->mem_size : 1);
	if (!moved) {
		fprintf(stderr, "%s: out of memory\n", progname);
		return NULL;
	}
	memset(moved, UNWRITTEN_BYTE, a->mem_size);
	struct reloc_schedule schedule;
	reloc_schedule_init(&schedule, moved, a->mem_size, table, table_size, z->runs,
			    z->runs_size, delta);
	struct decode_progress progress = reloc_schedule_progress(&schedule);
	size_t got = 0;
	int status = zstd_decompress(workspace, sizeof(workspace), moved, file_size, z->frame,
				     z->frame_size, &got, &progress, NULL);
	if (status == KS_OK && got != file_size)
		status = KS_EFORMAT;
	if (status == KS_OK) {
		memset(moved + file_size, 0, a->mem_size - file_size);
		status = reloc_schedule_finish(&schedule);
	}
	if (status != KS_OK) {
		fprintf(stderr, "%s: decoding with the relocation schedule: %s\n", progname,
			ks_strerror(status));
		free(moved);
		return NULL;
	}
	return moved;
}

/* Judge one moved image against B; 0 when identical but for what is left alone by design. */
static int judge(const struct input *ia, const struct abs_refs *refs, const uint8_t *orig,
		 uint8_t *moved, const uint8_t *want, int64_t delta, const char *how,
		 uint64_t *tables)
{
	const struct kernel_elf *a = &ia->k;
	int abs_bad = check_abs_refs(refs, orig, moved, want);
	*tables = skip_loader_tables(ia, moved, want);
	uint64_t differ = report_differences(moved, want, a->mem_size, a);
	if (!abs_bad && !differ)
		return 0;
	fprintf(stderr, "%s: %s: %llu bytes differ after moving by ", progname, how,
		(unsigned long long)differ);
	print_delta(stderr, delta);
	fprintf(stderr, "%s\n", abs_bad ? ", and absolute references are wrong" : "");
	return 1;
}

/*
 * Move A's image to B's address with the packer's table, once with each relocator; each result
 * must be B. Returns the exit code.
 */
static int compare(const struct input *ia, const struct input *ib, const char *image)
{
	const struct kernel_elf *a = &ia->k, *b = &ib->k;
	if (!comparable(a, b))
		return 1;

	char err[ERR_CAP];
	uint8_t *table;
	size_t table_size;
	struct packed_zstd z = { 0 };
	uint64_t file_size = a->file_size; /* of the payload the stub moves */
	if (image) {
		if (table_from_image(image, a, &table, &table_size, &file_size, &z))
			return 1;
	} else if (pack_encode_relocs(a, &table, &table_size, err, sizeof(err))) {
		fprintf(stderr, "%s: encoding A's relocations: %s\n", progname, err);
		return 1;
	}
	struct abs_refs refs = {0};
	struct reloc_summary summary;
	int64_t delta = a->fixups_follow_virt ? (int64_t)(b->link_virt - a->link_virt)
					      : (int64_t)(b->link_phys - a->link_phys);
	uint8_t *orig = loaded_image(a), *want = loaded_image(b);
	uint64_t tables = 0;
	int rc = 1, status;
	if (!orig || !want) {
		fprintf(stderr, "%s: out of memory\n", progname);
	} else if (find_abs_refs(ia, ib, &refs)) {
		fprintf(stderr, "%s: %s: cannot read its absolute references\n", progname,
			ia->path);
	} else if ((status = reloc_validate(table, table_size, a->mem_size, &summary)) != KS_OK) {
		fprintf(stderr, "%s: A's relocation table: %s\n", progname, ks_strerror(status));
	} else {
		rc = 0;
		for (int use_move = 0; use_move <= 1 && rc == 0; use_move++) {
			uint8_t *moved = move_image(a, file_size, table, table_size, delta, use_move);
			rc = !moved || judge(ia, &refs, orig, moved, want, delta,
					     use_move ? "reloc_move" : "reloc_apply", &tables);
			free(moved);
		}
		if (rc == 0 && z.frame) {
			uint8_t *moved = decode_and_schedule(a, file_size, table, table_size, &z, delta);
			rc = !moved || judge(ia, &refs, orig, moved, want, delta,
					     "the zstd schedule", &tables);
			free(moved);
		}
	}
	if (rc == 0) {
		printf("reloc-oracle: %s%llu relocations, %llu bytes identical after moving by ",
		       image ? "packed image, " : "", (unsigned long long)summary.total,
		       (unsigned long long)a->mem_size);
		print_delta(stdout, delta);
		printf("%s with reloc_apply and reloc_move%s (%zu link-dependent absolute "
		       "references left alone",
		       a->fixups_follow_virt ? " virtual" : "",
		       z.frame ? ", and decoding zstd with the early and late fields scheduled" : "",
		       refs.count);
		if (tables)
			printf("; %llu bytes of dynamic-linking tables not compared",
			       (unsigned long long)tables);
		printf(")\n");
	}
	free(refs.ref);
	free(orig);
	free(want);
	free(table);
	free(z.frame);
	return rc;
}

int main(int argc, char **argv)
{
	const char *image = NULL;
	if (argc == 5 && strcmp(argv[1], "--image") == 0) {
		image = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: %s [--image A.img] A.elf B.elf\n", progname);
		return 2;
	}
	struct input a, b;
	int rc = 1;
	if (load(argv[1], &a) == 0) {
		if (load(argv[2], &b) == 0)
			rc = compare(&a, &b, image);
		unload(&b);
	}
	unload(&a);
	return rc;
}
