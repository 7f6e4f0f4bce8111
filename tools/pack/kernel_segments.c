/*
 * A kernel's PT_LOAD segments (elf_reader.h): checked, laid out as one flat payload from the
 * lowest physical address of those that move, and copied into it; a segment linked at a
 * fixed address (Linux's per-CPU area) travels inside their span.
 */
#include <elf.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "include/kslide/image.h"
#include "tools/pack/elf_reader.h"
#include "tools/pack/kernel_elf.h"

#define PAGE_SIZE 4096u
/* Larger kernels are surely mislinked, and would not fit the x86-64 kernel-model window. */
#define KERNEL_MAX_BYTES 0x40000000u

/* Linux's x86-64 per-CPU area (struct kernel_segment): a segment linked at virtual 0. */
static bool links_at_zero(const struct reader *r, const GElf_Phdr *p)
{
	return r->k->arch == KSLIDE_ARCH_X86_64 && p->p_vaddr == 0;
}

/* The checks every loadable segment must pass: 0, 1 for an empty one (skipped), or -1. */
static int check_segment(struct reader *r, size_t i, const GElf_Phdr *p)
{
	/* ELF32 fields are 32 bits: a segment ending past 4 GiB wraps around. */
	uint64_t space = r->k->arch == KSLIDE_ARCH_I386 ? 1ull << 32 : 0;
	/* Before skipping empty segments: copy_segments copies all file-backed ones. */
	if (p->p_filesz > p->p_memsz)
		return reader_fail(r, "segment %zu has a file size larger than its memory size", i);
	if (p->p_memsz == 0)
		return 1;
	if (p->p_paddr + p->p_memsz < p->p_paddr || p->p_vaddr + p->p_memsz < p->p_vaddr ||
	    (space && (p->p_paddr + p->p_memsz > space || p->p_vaddr + p->p_memsz > space)))
		return reader_fail(r, "segment %zu wraps around the address space", i);
	return 0;
}

/* Calls visit for each non-empty PT_LOAD segment after checking it; stops at the first error. */
static int each_segment(struct reader *r, int (*visit)(struct reader *, size_t, const GElf_Phdr *,
						       void *),
			void *ctx)
{
	size_t count;
	if (elf_getphdrnum(r->elf, &count) != 0)
		return reader_fail(r, "cannot read program headers: %s", elf_errmsg(-1));
	for (size_t i = 0; i < count; i++) {
		GElf_Phdr p;
		if (!gelf_getphdr(r->elf, (int)i, &p))
			return reader_fail(r, "cannot read program header %zu", i);
		if (p.p_type != PT_LOAD)
			continue;
		int rc = check_segment(r, i, &p);
		if (rc == 0)
			rc = visit(r, i, &p, ctx);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* The segments that move: one virtual-to-physical offset, and the physical span they cover. */
struct moving_span {
	bool any;
	size_t first; /* the segment whose offset the others must share */
	GElf_Phdr first_header;
	uint64_t lo, mem_end, file_end;
	size_t loaded; /* non-empty segments, fixed ones too */
};

static int add_moving(struct reader *r, size_t i, const GElf_Phdr *p, void *ctx)
{
	struct moving_span *m = ctx;
	m->loaded++;
	if (links_at_zero(r, p))
		return 0;
	const GElf_Phdr *f = &m->first_header;
	/* Kept, not refused: one delta for physical and virtual (the Multiboot handoff's single
	 * slide) keeps any offsets; the policy refuses them for independent slides. */
	if (m->any && p->p_vaddr - p->p_paddr != f->p_vaddr - f->p_paddr &&
	    !r->k->offsets_differ[0])
		snprintf(r->k->offsets_differ, sizeof(r->k->offsets_differ),
			 "segments %zu and %zu have different virtual-to-physical offsets (virtual "
			 "0x%llx at physical 0x%llx, virtual 0x%llx at physical 0x%llx)",
			 m->first, i, (unsigned long long)f->p_vaddr, (unsigned long long)f->p_paddr,
			 (unsigned long long)p->p_vaddr, (unsigned long long)p->p_paddr);
	if (p->p_align > r->k->max_segment_align)
		r->k->max_segment_align = p->p_align;
	if (!m->any) {
		m->first = i;
		m->first_header = *p;
		m->any = true;
	}
	m->lo = p->p_paddr < m->lo ? p->p_paddr : m->lo;
	m->mem_end = p->p_paddr + p->p_memsz > m->mem_end ? p->p_paddr + p->p_memsz : m->mem_end;
	return 0;
}

/* A fixed segment must lie inside the moving ones' span: it travels in their payload. */
static int check_fixed(struct reader *r, size_t i, const GElf_Phdr *p, void *ctx)
{
	const struct moving_span *m = ctx;
	if (links_at_zero(r, p) && (p->p_paddr < m->lo || p->p_paddr + p->p_memsz > m->mem_end))
		return reader_fail(r, "segment %zu is linked at virtual 0 (a per-CPU area) but its "
				      "physical range [0x%llx, 0x%llx) lies outside the image "
				      "[0x%llx, 0x%llx)",
				   i, (unsigned long long)p->p_paddr,
				   (unsigned long long)(p->p_paddr + p->p_memsz),
				   (unsigned long long)m->lo, (unsigned long long)m->mem_end);
	return 0;
}

static int record_segment(struct reader *r, size_t i, const GElf_Phdr *p, void *ctx)
{
	struct moving_span *m = ctx;
	struct kernel_segment *s = &r->k->segments[r->k->segment_count++];
	(void)i;
	s->offset = p->p_paddr - m->lo;
	s->file_size = p->p_filesz;
	s->mem_size = p->p_memsz;
	s->vaddr = p->p_vaddr;
	s->fixed = links_at_zero(r, p);
	s->executable = p->p_flags & PF_X;
	if (p->p_filesz && p->p_paddr + p->p_filesz > m->file_end)
		m->file_end = p->p_paddr + p->p_filesz;
	return 0;
}

/*
 * Segments: contiguous physical layout, no overlap; a per-CPU segment at virtual 0 inside the
 * image (struct kernel_segment). Offsets that differ are noted (kernel_elf.offsets_differ)
 * for the policy, which allows them only with a single slide.
 */
int segments_read(struct reader *r)
{
	struct moving_span m = { .lo = UINT64_MAX };
	if (each_segment(r, add_moving, &m))
		return -1;
	if (!m.any)
		return reader_fail(r, m.loaded ? "every segment is linked at virtual 0: an x86-64 "
						 "kernel must be linked in the upper half"
					       : "no loadable segments");
	if (each_segment(r, check_fixed, &m))
		return -1;
	if (m.lo % PAGE_SIZE)
		return reader_fail(r, "lowest segment is not page aligned (0x%llx)",
				   (unsigned long long)m.lo);
	if (m.mem_end - m.lo > KERNEL_MAX_BYTES)
		return reader_fail(r, "segments span %llu MiB, more than a kernel may (%u MiB): are "
				      "they linked far apart?",
				   (unsigned long long)((m.mem_end - m.lo) >> 20), KERNEL_MAX_BYTES >> 20);
	r->k->segments = calloc(m.loaded, sizeof(*r->k->segments));
	if (!r->k->segments)
		return reader_fail(r, "out of memory");
	m.file_end = 0;
	if (each_segment(r, record_segment, &m))
		return -1;
	r->k->link_phys = m.lo;
	r->k->link_virt = m.lo + (m.first_header.p_vaddr - m.first_header.p_paddr);
	r->k->mem_size = m.mem_end - m.lo;
	r->k->file_size = m.file_end > m.lo ? m.file_end - m.lo : 0;
	return 0;
}

static int check_overlap(struct reader *r, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		GElf_Phdr a, b;
		gelf_getphdr(r->elf, (int)i, &a);
		if (a.p_type != PT_LOAD || a.p_memsz == 0)
			continue;
		for (size_t j = i + 1; j < count; j++) {
			gelf_getphdr(r->elf, (int)j, &b);
			if (b.p_type != PT_LOAD || b.p_memsz == 0)
				continue;
			if (a.p_paddr < b.p_paddr + b.p_memsz && b.p_paddr < a.p_paddr + a.p_memsz)
				return reader_fail(r, "segments overlap (%zu and %zu)", i, j);
		}
	}
	return 0;
}

int segments_copy(struct reader *r, const uint8_t *buf, size_t len)
{
	size_t count;
	elf_getphdrnum(r->elf, &count);
	if (check_overlap(r, count))
		return -1;
	for (size_t i = 0; i < count; i++) {
		GElf_Phdr p;
		gelf_getphdr(r->elf, (int)i, &p);
		if (p.p_type == PT_LOAD && p.p_filesz &&
		    (p.p_offset > len || p.p_filesz > len - p.p_offset))
			return reader_fail(r, "segment %zu lies past the end of the file", i);
	}
	r->k->payload = calloc(1, r->k->file_size ? r->k->file_size : 1);
	if (!r->k->payload)
		return reader_fail(r, "out of memory for a %llu-byte payload",
			    (unsigned long long)r->k->file_size);
	for (size_t i = 0; i < count; i++) {
		GElf_Phdr p;
		gelf_getphdr(r->elf, (int)i, &p);
		if (p.p_type != PT_LOAD || p.p_filesz == 0)
			continue;
		memcpy(r->k->payload + (p.p_paddr - r->k->link_phys), buf + p.p_offset, p.p_filesz);
	}
	return 0;
}
