/*
 * The entry area (kernel/secrecy/entry_area.h): where it goes, what is in it. The stubs are
 * assembled once, as a template in the image (kernel/<arch>/entry.S) that refers to nothing outside
 * itself, and copied into the area's code page; with page-table isolation off, each CR3
 * switch in the copy is jumped over.
 */
#include <stddef.h>

#include "kernel/cpu/trap_vectors.h"
#include "kernel/memory.h"
#include "kernel/mm/frames.h"
#include "kernel/secrecy/entry_area.h"
#include "kernel/secrecy/oops.h"
#include "kernel/secrecy/seed_random.h"
#include "lib/string.h"
#include "lib/uniform.h"

#define ENTRY_WINDOW_SLOTS (ENTRY_WINDOW_PAGES - ENTRY_AREA_PAGES + 1)

/* A CR3 switch in the template: it starts with a 2-byte NOP, which becomes a short jump over
 * the skip bytes after it when page-table isolation is off. */
struct pti_site {
	uint32_t offset, skip;
};
#define OPCODE_JMP_SHORT 0xeb
#define JMP_SHORT_MAX 127

/* kernel/<arch>/entry.S. Hidden, so that a PIE takes their addresses RIP-relative. */
#define HIDDEN __attribute__((visibility("hidden")))
extern HIDDEN const uint8_t entry_text_start[], entry_text_end[];
extern HIDDEN const uint32_t entry_vector_offsets[TRAP_VECTOR_COUNT];
extern HIDDEN const uint32_t entry_syscall_offset, entry_exit_offset;
extern HIDDEN const struct pti_site entry_pti_sites_start[], entry_pti_sites_end[];

struct entry_percpu entry_percpu;

static struct {
	uintptr_t base;
	bool pti;
	void *page[ENTRY_AREA_PAGES];
} area;

/* The template, as the area's code page must hold it, into a page-sized dst. */
static void build_code(uint8_t *dst, bool pti)
{
	size_t len = (size_t)(entry_text_end - entry_text_start);
	if (len > PAGE_SIZE)
		panic("entry stubs (%u bytes) exceed a page", (unsigned)len);
	memcpy(dst, entry_text_start, len);
	if (pti)
		return;
	for (const struct pti_site *s = entry_pti_sites_start; s < entry_pti_sites_end; s++) {
		if (s->skip > JMP_SHORT_MAX || s->offset + 2 > len)
			panic("entry stub CR3 switch at +0x%x cannot be jumped over", s->offset);
		dst[s->offset] = OPCODE_JMP_SHORT;
		dst[s->offset + 1] = (uint8_t)s->skip;
	}
}

void entry_area_init(const struct kslide_bootinfo *bi, bool pti)
{
	struct seed_random r;
	seed_random_init(&r, bi, SEED_STREAM_ENTRY_AREA);
	area.base = ENTRY_WINDOW_START +
		    (uintptr_t)uniform_below(ENTRY_WINDOW_SLOTS, seed_random_next, &r) * PAGE_SIZE;
	area.pti = pti;
	uint64_t frames[ENTRY_AREA_PAGES];
	for (unsigned n = 0; n < ENTRY_AREA_PAGES; n++) {
		if (!(area.page[n] = frames_alloc(1, 1)))
			panic("no memory outside the image for the entry area");
		frames[n] = entry_area_frame(n);
	}
	build_code(area.page[ENTRY_PAGE_CODE], pti);
	const bool writable[ENTRY_AREA_PAGES] = { [ENTRY_PAGE_STACK] = true };
	arch_entry_area_map(area.base, frames, writable);
}

uintptr_t entry_area_base(void)
{
	return area.base;
}

bool entry_area_pti(void)
{
	return area.pti;
}

void *entry_area_page(unsigned n)
{
	return area.page[n];
}

uint64_t entry_area_frame(unsigned n)
{
	return direct_virt_to_phys(area.page[n]);
}

static uintptr_t code_at(uint32_t offset)
{
	return area.base + ENTRY_PAGE_CODE * PAGE_SIZE + offset;
}

uintptr_t entry_area_vector(unsigned v)
{
	return code_at(entry_vector_offsets[v]);
}

uintptr_t entry_area_syscall(void)
{
	return code_at(entry_syscall_offset);
}

uintptr_t entry_area_exit(void)
{
	return code_at(entry_exit_offset);
}

uintptr_t entry_area_stack_top(void)
{
	return area.base + (ENTRY_PAGE_STACK + 1) * PAGE_SIZE;
}

bool entry_area_code_intact(void)
{
	static uint8_t fresh[PAGE_SIZE];
	build_code(fresh, area.pti);
	return memcmp(fresh, area.page[ENTRY_PAGE_CODE], PAGE_SIZE) == 0;
}
