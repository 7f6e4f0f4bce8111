/*
 * A tutorial-style Multiboot2 kernel: it checks that a Multiboot2 loader started it, walks the
 * boot information's tags (Multiboot2 2.0, section 3.6) and reports its loader, command line,
 * memory map, modules (checked against a crc32= argument), framebuffer, which it draws on, and
 * ELF section headers (whose loaded sections must lie inside the running kernel), and where the
 * kernel runs. It knows nothing of kslide; packed with kslide-pack it must see
 * exactly what its loader gave it, at a random base.
 */
#include <stdint.h>

#include "../common/console.h"

#define MULTIBOOT2_BOOTLOADER_MAGIC 0x36d76289
#define TAG_END 0
#define TAG_CMDLINE 1
#define TAG_LOADER_NAME 2
#define TAG_MODULE 3
#define TAG_MMAP 6
#define TAG_FRAMEBUFFER 8
#define TAG_ELF_SECTIONS 9
#define SHF_ALLOC 0x2 /* ELF: the section occupies memory while the kernel runs */
#define FRAMEBUFFER_RGB 1
#define TAG_ALIGN 8

struct tag {
	uint32_t type, size;
};

struct tag_string {
	struct tag tag;
	char string[];
};

struct tag_module {
	struct tag tag;
	uint32_t mod_start, mod_end;
	char string[];
};

struct tag_mmap {
	struct tag tag;
	uint32_t entry_size, entry_version;
	uint8_t entries[];
};

struct mmap_entry {
	uint64_t addr, len;
	uint32_t type, reserved;
};

struct tag_elf_sections {
	struct tag tag;
	uint32_t num, entsize, shndx;
	uint8_t headers[];
};

struct elf32_section {
	uint32_t name, type, flags, addr, offset, size, link, info, addralign, entsize;
};

struct tag_framebuffer {
	struct tag tag;
	uint64_t addr;
	uint32_t pitch, width, height;
	uint8_t bpp, type;
};

void kernel_main(uint32_t magic, const uint8_t *info);
void *address_from_eip(void);
extern char here[], kernel_start[], kernel_end[];

/* Absolute addresses the linker wrote and a relocating loader must have moved. */
static void *const here_absolute = here;
static char *const start_absolute = kernel_start, *const end_absolute = kernel_end;

static unsigned check_module(const struct tag_module *m, unsigned index)
{
	uint32_t size = m->mod_end - m->mod_start, want;
	uint32_t got = crc32((const void *)m->mod_start, size);
	int checked = arg_hex(m->string, "crc32", &want);
	kprintf("mb2-example: module %u: %u bytes, crc32 0x%08x %s\n", index, (unsigned)size,
		(unsigned)got, !checked ? "(not checked)" : got == want ? "intact" : "DAMAGED");
	return checked && got != want;
}

static void show_mmap(const struct tag_mmap *m)
{
	for (uint32_t off = 0; off + m->entry_size <= m->tag.size - sizeof(*m);
	     off += m->entry_size) {
		const struct mmap_entry *e = (const void *)(m->entries + off);
		kprintf("mb2-example: mmap 0x%llx-0x%llx type %u\n", (unsigned long long)e->addr,
			(unsigned long long)(e->addr + e->len), (unsigned)e->type);
	}
}

/* What a kernel finding its own symbols would read: every loaded section is part of it. */
static unsigned check_elf_sections(const struct tag_elf_sections *t)
{
	unsigned loaded = 0, outside = 0;
	for (uint32_t i = 0; i < t->num && t->entsize >= sizeof(struct elf32_section); i++) {
		const struct elf32_section *sh = (const void *)(t->headers + i * t->entsize);
		if (!(sh->flags & SHF_ALLOC) || sh->size == 0)
			continue;
		loaded++;
		outside += sh->addr < (uintptr_t)start_absolute ||
			   sh->addr + sh->size > (uintptr_t)end_absolute;
	}
	kprintf("mb2-example: ELF sections: %u loaded, %s\n", loaded,
		outside ? "some OUTSIDE the kernel" : "all inside the kernel");
	return outside != 0;
}

/* A band of colour across the top of the screen: the framebuffer is really there. */
static void draw(const struct tag_framebuffer *fb)
{
	kprintf("mb2-example: framebuffer 0x%llx %ux%u, %u bits per pixel, type %u, pitch %u\n",
		(unsigned long long)fb->addr, (unsigned)fb->width, (unsigned)fb->height,
		(unsigned)fb->bpp, (unsigned)fb->type, (unsigned)fb->pitch);
	if (fb->type != FRAMEBUFFER_RGB || fb->bpp != 32)
		return;
	for (uint32_t y = 0; y < 16 && y < fb->height; y++) {
		volatile uint32_t *row = (volatile uint32_t *)(uintptr_t)(fb->addr + y * fb->pitch);
		for (uint32_t x = 0; x < fb->width; x++)
			row[x] = (x * 255 / fb->width) << 16 | (255 - x * 255 / fb->width);
	}
}

void kernel_main(uint32_t magic, const uint8_t *info)
{
	console_init();
	if (magic != MULTIBOOT2_BOOTLOADER_MAGIC) {
		kprintf("mb2-example: not started by a Multiboot2 loader (magic 0x%x)\n",
			(unsigned)magic);
		qemu_exit(1);
		return;
	}
	unsigned bad = 0, modules = 0;
	const char *cmdline = "";
	for (const uint8_t *p = info + 8;;) {
		const struct tag *t = (const void *)p;
		if (t->type == TAG_END)
			break;
		switch (t->type) {
		case TAG_CMDLINE: cmdline = ((const struct tag_string *)t)->string; break;
		case TAG_LOADER_NAME:
			kprintf("mb2-example: loader \"%s\"\n", ((const struct tag_string *)t)->string);
			break;
		case TAG_MODULE: bad += check_module((const void *)t, modules++); break;
		case TAG_MMAP: show_mmap((const void *)t); break;
		case TAG_FRAMEBUFFER: draw((const void *)t); break;
		case TAG_ELF_SECTIONS: bad += check_elf_sections((const void *)t); break;
		}
		p += (t->size + TAG_ALIGN - 1) & ~(uint32_t)(TAG_ALIGN - 1);
	}
	kprintf("mb2-example: cmdline \"%s\"\n", cmdline);
	void *real = address_from_eip();
	kprintf("mb2-example: here at 0x%x; pointers %s\n", (unsigned)(uintptr_t)real,
		here_absolute == real ? "relocated" : "WRONG");
	bad += here_absolute != real;
	kprintf("mb2-example: %s\n", bad ? "FAILED" : "done");
	qemu_exit(bad ? 1 : 0);
}
