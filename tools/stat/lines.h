/*
 * Parsing the serial lines a boot prints: the stub's "kslide: base=..." line, where its
 * "kslide: loader=..." line says the image lies, its "kslide: random=<hex>" diagnostic, the
 * reference kernel's "kernel: usable=..." map, and what the Linux tests' init reports
 * (tests/linux/init.c): "kslide-linux: _text=...", its "kslide-linux: usable=..." map and
 * "kslide-linux: initrd=...". Pure functions over one NUL-terminated line (trailing \r and
 * \n allowed).
 */
#ifndef KSLIDE_TOOLS_STAT_LINES_H
#define KSLIDE_TOOLS_STAT_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LINE_SOURCES_MAX 64 /* "rdseed,rdrand,rdtsc,pit,rtc,efirng" and room */

/* "kslide: base=0x<virt> phys=0x<phys> slots=N [vslots=N] align=0x<A> [valign=0x<A>]
 *  entropy=SRC,SRC credited=K" */
struct base_line {
	uint64_t virt, phys;
	uint64_t slots, align;
	bool has_vslots;	 /* x86-64: the virtual base is drawn on its own */
	uint64_t vslots, valign; /* without vslots=: slots and align; without valign=: align */
	char entropy[LINE_SOURCES_MAX];
	unsigned credited;
};

struct mem_span {
	uint64_t start, end; /* [start, end) */
};

/* 0 and *out filled for a complete base line; -1 for any other line or a malformed one. */
int line_parse_base(const char *line, struct base_line *out);

/* Where a Linux kernel runs, as init found it: "kslide-linux: _text=0x<virt>
 * kernel_code=0x<first>-0x<last>" (/proc/kallsyms and /proc/iomem; the range is inclusive). */
struct linux_report {
	uint64_t text;	     /* the virtual base */
	uint64_t code_first; /* the physical base */
	uint64_t code_last;
};

/* 0 and *out filled for a complete base line; -1 for any other line or a malformed one. */
int line_parse_linux(const char *line, struct linux_report *out);

/*
 * "kernel: usable=0x0-0x9fc00,0x100000-0x3ffe0000" (the reference kernel) or
 * "kslide-linux: usable=..." (Linux's init, from the boot memory map): 0 with up to 'cap'
 * spans [start, end), else -1.
 */
int line_parse_usable(const char *line, struct mem_span *spans, size_t cap, size_t *count);

/* "kslide: loader=\"NAME\" map=SOURCE entries=N image=0x<at>": 0 with where the loader put the
 * packed image, else -1 (also for a stub older than image=). */
int line_parse_image(const char *line, uint64_t *at);

/* "kslide-linux: initrd=0x<start>-0x<end>": 0 with the span [start, end), else -1. */
int line_parse_initrd(const char *line, struct mem_span *out);

/* What an EFI memory descriptor is, as far as Linux's EFI stub's KASLR cares. */
enum efi_mem_kind {
	EFI_MEM_OTHER,
	EFI_MEM_CONVENTIONAL, /* EfiConventionalMemory: free */
	EFI_MEM_LOADER_CODE,  /* EfiLoaderCode: what the stub allocated for the kernel */
	EFI_MEM_LOADER_DATA,  /* EfiLoaderData: the initrd among others */
};

struct efi_mem {
	unsigned index; /* the descriptor's place in the map: memNN */
	enum efi_mem_kind kind;
	struct mem_span span; /* [start, end) */
};

/*
 * One descriptor of the EFI memory map Linux logs at boot with efi=debug, as init forwards it
 * (tests/linux/init.c): "kslide-linux: efi: memNN: [Conventional|   |...|UC]
 * range=[0x<first>-0x<last>] (NMB)", the range inclusive. 0 with *out filled, else -1.
 */
int line_parse_efi_mem(const char *line, struct efi_mem *out);

/*
 * "kslide: random=<hex>": 0 with *hex pointing at the digits and *len their count (even),
 * else -1.
 */
int line_parse_random(const char *line, const char **hex, size_t *len);

#endif
