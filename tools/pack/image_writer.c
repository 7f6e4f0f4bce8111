/*
 * Image assembly: the stub's bytes, then the payload, then the relocation table (both
 * compressed, each its own frame, when a codec is chosen), then the handoff data, then
 * (--shuffle) the shuffle table; the
 * container's headers in the stub are filled in (container.h), then its kslide header,
 * summed and checksummed.
 */
#include <stdlib.h>
#include <string.h>

#include "include/kslide/image.h"
#include "lib/errors.h"
#include "lib/image.h"
#include "lib/reloc.h"
#include "tools/pack/compress.h"
#include "tools/pack/container.h"
#include "tools/pack/early_relocs.h"
#include "tools/pack/fail.h"
#include "tools/pack/image_writer.h"

#define PAYLOAD_ALIGN 16

/* Bytes a fixup patches (lib/reloc.h). */
static uint64_t fixup_width(enum reloc_kind kind)
{
	switch (kind) {
	case RELOC_ADD64:
		return 8;
	case RELOC_ADD32:
	case RELOC_ADD32S:
	case RELOC_SUB32S:
		break;
	}
	return 4;
}

static int by_offset(const void *a, const void *b)
{
	const struct fixup *x = a, *y = b;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/*
 * lib/reloc.c refuses a table whose fields overlap, within a kind or across kinds (a 64-bit
 * field over a 32-bit one), so that no patch lands on another. 0, or -1 with a message.
 */
static int check_overlap(const struct kernel_elf *k, char *err, size_t err_cap)
{
	if (k->fixup_count < 2)
		return 0;
	struct fixup *sorted = malloc(k->fixup_count * sizeof(*sorted));
	if (!sorted)
		return pack_fail(err, err_cap, "out of memory");
	memcpy(sorted, k->fixups, k->fixup_count * sizeof(*sorted));
	qsort(sorted, k->fixup_count, sizeof(*sorted), by_offset);
	int rc = 0;
	for (size_t i = 1; i < k->fixup_count && rc == 0; i++) {
		const struct fixup *prev = &sorted[i - 1], *next = &sorted[i];
		if (next->offset - prev->offset < fixup_width(prev->kind))
			rc = pack_fail(err, err_cap,
				       next->offset == prev->offset
					       ? "two relocations patch offset 0x%llx"
					       : "two relocations overlap at offset 0x%llx",
				       (unsigned long long)next->offset);
	}
	free(sorted);
	return rc;
}

/* Encode one kind's run of sorted offsets as a group; returns bytes used or 0. */
static size_t encode_group(const struct fixup *f, size_t n, uint8_t *out, size_t cap)
{
	size_t used = 0, w;
	if (cap < 1)
		return 0;
	out[used++] = (uint8_t)f[0].kind;
	if (!(w = reloc_put_uleb128(out + used, cap - used, n)))
		return 0;
	used += w;
	uint64_t prev = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(w = reloc_put_uleb128(out + used, cap - used, f[i].offset - prev)))
			return 0;
		used += w;
		prev = f[i].offset;
	}
	return used;
}

int pack_encode_fixups(const struct fixup *fixups, size_t count, uint8_t **table, size_t *size,
		       char *err, size_t err_cap)
{
	/* Worst case: 10 bytes per offset plus a header per group. */
	size_t cap = count * 10 + 64, used = 0;
	uint8_t *out = malloc(cap);
	if (!out)
		return pack_fail(err, err_cap, "out of memory");
	for (size_t i = 0; i < count;) {
		size_t j = i + 1;
		while (j < count && fixups[j].kind == fixups[i].kind)
			j++;
		size_t w = encode_group(&fixups[i], j - i, out + used, cap - used);
		if (!w) {
			free(out);
			return pack_fail(err, err_cap, "relocation table overflow");
		}
		used += w;
		i = j;
	}
	*table = out;
	*size = used;
	return 0;
}

int pack_encode_relocs(const struct kernel_elf *k, uint8_t **table, size_t *size, char *err,
		       size_t err_cap)
{
	if (check_overlap(k, err, err_cap))
		return -1;
	return pack_encode_fixups(k->fixups, k->fixup_count, table, size, err, err_cap);
}

long pack_find_kslide_header(const uint8_t *stub, size_t size)
{
	for (size_t off = 0; off + sizeof(struct kslide_image_header) <= size; off += 8)
		if (memcmp(stub + off, KSLIDE_IMAGE_MAGIC, KSLIDE_IMAGE_MAGIC_BYTES) == 0)
			return (long)off;
	return -1;
}

/* Where each part of the image lies, from its first byte. */
struct image_layout {
	size_t payload_offset, payload_stored_size;
	size_t relocs_offset, relocs_size, relocs_stored_size;
	size_t relocs_runs_size;
	size_t data_offset;
	size_t total;
};

unsigned pack_stub_arch(const struct kernel_elf *k, const struct pack_options *opt)
{
	if (k->single_slide && k->arch == KSLIDE_ARCH_X86_64 && opt->container == &container_efi)
		return KSLIDE_ARCH_X86_64;
	return kernel_elf_stub_arch(k);
}

static void fill_header(struct kslide_image_header *h, const struct kernel_elf *k,
			const struct pack_options *opt, const struct image_layout *l)
{
	memset(h, 0, sizeof(*h));
	memcpy(h->magic, KSLIDE_IMAGE_MAGIC, KSLIDE_IMAGE_MAGIC_BYTES);
	h->version = KSLIDE_IMAGE_VERSION;
	h->header_size = sizeof(*h);
	h->flags = (opt->nokaslr_default ? KSLIDE_IMAGE_NOKASLR_DEFAULT : 0) |
		   (opt->debug_placement ? KSLIDE_IMAGE_DEBUG_PLACEMENT : 0) |
		   (opt->kslide_tag ? KSLIDE_IMAGE_KSLIDE_TAG : 0) |
		   (opt->multiboot && opt->multiboot->mb2 && !opt->multiboot->mb1
			    ? KSLIDE_IMAGE_MULTIBOOT2_KERNEL : 0) |
		   (opt->shuffle_table ? KSLIDE_IMAGE_SHUFFLE : 0);
	h->arch = pack_stub_arch(k, opt); /* the stub checks it is its own */
	h->image_file_size = l->total;
	h->payload_offset = l->payload_offset;
	h->payload_file_size = k->file_size;
	h->payload_codec = opt->codec;
	h->payload_stored_size = l->payload_stored_size;
	h->payload_mem_size = k->mem_size;
	h->relocs_offset = l->relocs_offset;
	h->relocs_size = l->relocs_size;
	h->relocs_stored_size = l->relocs_stored_size;
	h->relocs_runs_size = l->relocs_runs_size;
	h->memory_size = opt->memory_size > k->mem_size ? opt->memory_size : k->mem_size;
	h->handoff = opt->handoff;
	h->handoff_data_offset = l->data_offset;
	h->handoff_data_size = opt->handoff_data_size;
	h->link_phys_base = k->link_phys;
	h->link_virt_base = k->link_virt;
	h->entry_offset = k->entry_offset;
	h->align = opt->align;
	h->phys_min = opt->min;
	h->phys_max = opt->max - 1;
	if (h->arch == KSLIDE_ARCH_X86_64 && !k->single_slide) {
		h->virt_align = opt->virt_align;
		h->virt_min = opt->virt_min;
		h->virt_max = opt->virt_last;
	}
}

/* The payload and the relocation table as the image stores them. */
struct stored_parts {
	uint8_t *table;   /* the table as encoded, followed by its runs (zstd) */
	uint8_t *payload; /* the compressed payload, or NULL: the kernel's bytes as they are */
	uint8_t *relocs;  /* the compressed table and runs, or NULL: table as it is */
};

static void stored_parts_free(struct stored_parts *p)
{
	free(p->table);
	free(p->payload);
	free(p->relocs);
}

/*
 * Encode the table and, with a codec, compress the payload and the table, each its own frame,
 * which the stub decodes table first (docs/format.md); a zstd image's table frame holds the
 * table's runs after it, proven here. Sets the sizes in l. 0, or -1 with a message.
 */
static int store_parts(const struct kernel_elf *k, const struct pack_options *opt,
		       struct stored_parts *p, struct image_layout *l, size_t *early_count,
		       char *err, size_t err_cap)
{
	size_t relocs_size;
	*p = (struct stored_parts){ 0 };
	if (pack_encode_relocs(k, &p->table, &relocs_size, err, err_cap))
		return -1;
	l->payload_stored_size = k->file_size;
	l->relocs_size = l->relocs_stored_size = relocs_size;
	l->relocs_runs_size = 0;
	*early_count = 0;
	int rc = opt->codec != KSLIDE_CODEC_NONE &&
		 pack_compress(opt->codec, k->payload, k->file_size, &p->payload,
			       &l->payload_stored_size, err, err_cap);
	if (!rc && opt->codec == KSLIDE_CODEC_ZSTD && relocs_size) {
		uint8_t *runs = NULL;
		rc = early_relocs_runs(k, p->payload, l->payload_stored_size, p->table, relocs_size,
				       opt->virt_align ? opt->virt_align : opt->align, &runs,
				       &l->relocs_runs_size, early_count, err, err_cap);
		uint8_t *both = rc ? NULL : realloc(p->table, relocs_size + l->relocs_runs_size + 1);
		if (both) {
			memcpy(both + relocs_size, runs, l->relocs_runs_size);
			p->table = both;
		} else if (!rc) {
			rc = pack_fail(err, err_cap, "out of memory");
		}
		free(runs);
	}
	if (!rc && opt->codec != KSLIDE_CODEC_NONE && relocs_size)
		rc = pack_compress(opt->codec, p->table, relocs_size + l->relocs_runs_size,
				   &p->relocs, &l->relocs_stored_size, err, err_cap);
	if (rc)
		stored_parts_free(p);
	return rc ? -1 : 0;
}

/* The file's bytes (file_size of them, zeros past the image): 'prefix' zeroes for the
 * container's own headers, then the image: the stub, the stored payload, table and handoff
 * data; or NULL. */
static uint8_t *assemble(const uint8_t *stub, size_t stub_size, const struct kernel_elf *k,
			 const struct pack_options *opt, const struct stored_parts *p,
			 struct image_layout *l, const struct container *c, size_t *file_size)
{
	size_t prefix = c->prefix;
	l->payload_offset = (stub_size + PAYLOAD_ALIGN - 1) & ~(size_t)(PAYLOAD_ALIGN - 1);
	l->relocs_offset = l->payload_offset + l->payload_stored_size;
	l->data_offset = l->relocs_offset + l->relocs_stored_size;
	l->total = l->data_offset + opt->handoff_data_size + opt->shuffle_table_size;
	*file_size = prefix + l->total;
	if (c->file_align)
		*file_size = (*file_size + c->file_align - 1) / c->file_align * c->file_align;
	uint8_t *file = calloc(1, *file_size);
	if (!file)
		return NULL;
	uint8_t *img = file + prefix;
	memcpy(img, stub, stub_size);
	memcpy(img + l->payload_offset, p->payload ? p->payload : k->payload,
	       l->payload_stored_size);
	memcpy(img + l->relocs_offset, p->relocs ? p->relocs : p->table, l->relocs_stored_size);
	if (opt->handoff_data_size)
		memcpy(img + l->data_offset, opt->handoff_data, opt->handoff_data_size);
	if (opt->shuffle_table) /* the image's tail (include/kslide/image.h) */
		memcpy(img + l->data_offset + opt->handoff_data_size, opt->shuffle_table,
		       opt->shuffle_table_size);
	return file;
}

/*
 * The kslide header at kh, filled in, summed and checksummed over the finished image, which
 * must then pass the stub's own verification. 0, or -1 with a message.
 */
static int seal(uint8_t *img, size_t kh, size_t stub_size, const struct kernel_elf *k,
		const struct pack_options *opt, const struct image_layout *l, char *err,
		size_t err_cap)
{
	struct kslide_image_header h;
	fill_header(&h, k, opt, l);
	/* The stub checks its bytes after this header itself, first of all (boot/x86/). */
	size_t checked = kh + sizeof(h);
	if (checked > stub_size || (stub_size - checked) % 4)
		return pack_fail(err, err_cap,
				 "internal error: the embedded stub's checked part is not "
				 "whole words");
	image_stub_sums(img + checked, stub_size - checked, &h.stub_sum, &h.stub_sum_of_sums);
	struct word_sums sums;
	image_payload_sums(img, &h, &sums);
	h.payload_sum = sums.sum;
	h.payload_sum_of_sums = sums.sum_of_sums;
	h.checksum = image_checksum(img, &h);
	memcpy(img + kh, &h, sizeof(h));
	const char *why;
	if (image_verify(img, l->total, &h, &why) != KS_OK)
		return pack_fail(err, err_cap, "internal error: built image fails verification: %s",
				 why);
	return 0;
}

/*
 * The payload's file-backed bytes without their zero tail, which the stub writes anyway when
 * it clears up to the memory size: a kernel that stores its bss as zeros (Linux's
 * x86-64 vmlinux, where .init.scratch follows .bss and .brk) need not be carried, copied and
 * summed byte by byte (docs/results.md, PVH cost).
 */
static uint64_t payload_without_zero_tail(const struct kernel_elf *k)
{
	uint64_t n = k->file_size;
	while (n && k->payload[n - 1] == 0)
		n--;
	return n;
}

int pack_build(const uint8_t *stub, size_t stub_size, const struct kernel_elf *kernel,
	       const struct pack_options *opt, struct packed_image *out, char *err, size_t err_cap)
{
	struct kernel_elf stored = *kernel;
	stored.file_size = payload_without_zero_tail(kernel);
	const struct kernel_elf *k = &stored;
	const struct container *c = opt->container ? opt->container : container_default();
	long kh = pack_find_kslide_header(stub, stub_size);
	if (kh < 0)
		return pack_fail(err, err_cap,
				 "internal error: the embedded stub has no kslide header");
	if (c->check_stub(stub, stub_size, &out->load_address, err, err_cap))
		return -1;
	struct stored_parts parts;
	struct image_layout l;
	if (store_parts(k, opt, &parts, &l, &out->early_reloc_count, err, err_cap))
		return -1;
	size_t file_size;
	uint8_t *file = assemble(stub, stub_size, k, opt, &parts, &l, c, &file_size);
	stored_parts_free(&parts);
	if (!file)
		return pack_fail(err, err_cap, "out of memory");
	/* The container's headers first: the kslide header's sums cover none of them. */
	if (c->finish(file, file_size, stub_size, opt, err, err_cap) ||
	    seal(file + c->prefix, (size_t)kh, stub_size, k, opt, &l, err, err_cap)) {
		free(file);
		return -1;
	}
	if (c->seal)
		c->seal(file, file_size);
	out->bytes = file;
	out->size = file_size;
	out->image_at = c->prefix;
	out->relocs_size = l.relocs_size;
	out->relocs_stored_size = l.relocs_stored_size;
	out->reloc_count = k->fixup_count;
	out->payload_stored_size = l.payload_stored_size;
	return 0;
}
