/*
 * A tutorial-style Multiboot 1 kernel: it checks that a Multiboot loader started it, then
 * reports what the loader handed over (Multiboot 0.6.96, section 3.3): its name, the command
 * line, the memory map, the modules (checked against a crc32= argument), and where the kernel
 * runs. It knows nothing of kslide; packed with kslide-pack it must see exactly what its
 * loader gave it, at a random base.
 */
#include <stdint.h>

#include "../common/console.h"

#define MULTIBOOT_BOOTLOADER_MAGIC 0x2BADB002
#define MBI_MEM (1u << 0)
#define MBI_CMDLINE (1u << 2)
#define MBI_MODS (1u << 3)
#define MBI_MMAP (1u << 6)
#define MBI_LOADER_NAME (1u << 9)

struct multiboot_info {
	uint32_t flags;
	uint32_t mem_lower, mem_upper;
	uint32_t boot_device;
	uint32_t cmdline;
	uint32_t mods_count, mods_addr;
	uint32_t syms[4];
	uint32_t mmap_length, mmap_addr;
	uint32_t drives_length, drives_addr;
	uint32_t config_table;
	uint32_t boot_loader_name;
};

struct multiboot_mmap_entry {
	uint32_t size; /* of the rest of the entry */
	uint64_t addr, len;
	uint32_t type;
} __attribute__((packed));

struct multiboot_module {
	uint32_t mod_start, mod_end;
	uint32_t string;
	uint32_t reserved;
};

void kernel_main(uint32_t magic, const struct multiboot_info *mbi);
void *address_from_eip(void);
extern char here[];

/* An absolute address the linker wrote and a relocating loader must have moved. */
static void *const here_absolute = here;

static unsigned check_modules(const struct multiboot_info *mbi)
{
	unsigned bad = 0;
	const struct multiboot_module *mods = (const void *)mbi->mods_addr;
	for (uint32_t i = 0; i < mbi->mods_count; i++) {
		const char *args = mods[i].string ? (const char *)mods[i].string : "";
		uint32_t size = mods[i].mod_end - mods[i].mod_start, want;
		uint32_t got = crc32((const void *)mods[i].mod_start, size);
		int checked = arg_hex(args, "crc32", &want);
		kprintf("mb1-example: module %u: %u bytes, crc32 0x%08x %s\n", (unsigned)i,
			(unsigned)size, (unsigned)got,
			!checked ? "(not checked)" : got == want ? "intact" : "DAMAGED");
		bad += checked && got != want;
	}
	return bad;
}

void kernel_main(uint32_t magic, const struct multiboot_info *mbi)
{
	console_init();
	if (magic != MULTIBOOT_BOOTLOADER_MAGIC) {
		kprintf("mb1-example: not started by a Multiboot loader (magic 0x%x)\n",
			(unsigned)magic);
		qemu_exit(1);
		return;
	}
	if (mbi->flags & MBI_LOADER_NAME)
		kprintf("mb1-example: loader \"%s\"\n", (const char *)mbi->boot_loader_name);
	kprintf("mb1-example: cmdline \"%s\"\n",
		(mbi->flags & MBI_CMDLINE) ? (const char *)mbi->cmdline : "");
	if (mbi->flags & MBI_MEM)
		kprintf("mb1-example: mem_lower %u KiB, mem_upper %u KiB\n", (unsigned)mbi->mem_lower,
			(unsigned)mbi->mem_upper);
	if (mbi->flags & MBI_MMAP) {
		for (uint32_t off = 0; off < mbi->mmap_length;) {
			const struct multiboot_mmap_entry *e = (const void *)(mbi->mmap_addr + off);
			kprintf("mb1-example: mmap 0x%llx-0x%llx type %u\n",
				(unsigned long long)e->addr, (unsigned long long)(e->addr + e->len),
				(unsigned)e->type);
			off += e->size + sizeof(e->size);
		}
	}
	unsigned bad = (mbi->flags & MBI_MODS) ? check_modules(mbi) : 0;
	void *real = address_from_eip();
	kprintf("mb1-example: here at 0x%x; pointers %s\n", (unsigned)(uintptr_t)real,
		here_absolute == real ? "relocated" : "WRONG");
	bad += here_absolute != real;
	kprintf("mb1-example: %s\n", bad ? "FAILED" : "done");
	qemu_exit(bad ? 1 : 0);
}
