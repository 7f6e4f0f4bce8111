/*
 * A tutorial-style x86-64 higher-half kernel: started by a Multiboot 2 loader (GRUB) or a
 * Multiboot 1 one (QEMU's -kernel), it reports what the loader handed over: its name, the
 * command line, the memory map, the modules (checked against a crc32= argument). Then it walks
 * its own page tables from CR3 and checks what its boot code and every `sym - KERNEL_VMA` in
 * it assume: virtual = physical + KERNEL_VMA. Started on UEFI (GRUB's multiboot2 on
 * x86_64-efi, or its packed image as an EFI application) it checks the EFI tags too: the
 * system table's signature where the 64-bit system table tag points, and an EFI memory map
 * tag whose descriptors are of a plausible size and cover the kernel itself. It knows nothing
 * of kslide; packed with kslide-pack it must see exactly what its loader gave it, at a random
 * base.
 */
#include <stdint.h>

#include "../common/console.h"

#define KERNEL_VMA 0xffffffff80000000ull
#define MB1_BOOTLOADER_MAGIC 0x2BADB002
#define MB2_BOOTLOADER_MAGIC 0x36d76289
#define MB1_CMDLINE (1u << 2)
#define MB1_MODS (1u << 3)
#define MB1_MMAP (1u << 6)
#define MB1_LOADER_NAME (1u << 9)
#define MB2_TAG_END 0
#define MB2_TAG_CMDLINE 1
#define MB2_TAG_LOADER_NAME 2
#define MB2_TAG_MODULE 3
#define MB2_TAG_MMAP 6
#define MB2_TAG_EFI64 12
#define MB2_TAG_EFI_MMAP 17
#define EFI_SYSTEM_TABLE_SIGNATURE 0x5453595320494249ull /* "IBI SYST" (UEFI 2.10, 4.3) */
#define EFI_DESCRIPTOR_MIN 40 /* UEFI 2.10, 7.2: EFI_MEMORY_DESCRIPTOR's own size */
#define EFI_PAGE 4096
#define MB2_TAG_ALIGN 8
#define PTE_PRESENT 0x1ull
#define PTE_LARGE 0x80ull
#define PTE_ADDRESS 0x000ffffffffff000ull
#define LARGE_PAGE_MASK 0x1fffffull

struct mb1_info {
	uint32_t flags, mem_lower, mem_upper, boot_device, cmdline, mods_count, mods_addr;
	uint32_t syms[4];
	uint32_t mmap_length, mmap_addr, drives_length, drives_addr, config_table;
	uint32_t boot_loader_name;
};

struct mb1_mmap_entry {
	uint32_t size; /* of the rest of the entry */
	uint64_t addr, len;
	uint32_t type;
} __attribute__((packed));

struct mb1_module {
	uint32_t mod_start, mod_end, string, reserved;
};

struct mb2_tag {
	uint32_t type, size;
};

struct mb2_module {
	struct mb2_tag tag;
	uint32_t mod_start, mod_end;
	char string[];
};

struct mb2_mmap {
	struct mb2_tag tag;
	uint32_t entry_size, entry_version;
	uint8_t entries[];
};

struct mb2_mmap_entry {
	uint64_t addr, len;
	uint32_t type, reserved;
};

struct mb2_efi64 {
	struct mb2_tag tag;
	uint64_t pointer;
};

struct mb2_efi_mmap {
	struct mb2_tag tag;
	uint32_t descr_size, descr_vers;
	uint8_t descriptors[];
};

struct efi_memory_descriptor {
	uint32_t type, pad;
	uint64_t physical_start, virtual_start, number_of_pages, attribute;
};

void kernel_main(uint32_t magic, uint32_t info);

/* The boot code maps physical [0, 1 GiB) at KERNEL_VMA (kernel-4m: [0, 4 MiB)): the loader's
 * data is read there. */
static const void *phys(uint64_t address)
{
	return (const void *)(uintptr_t)(address + KERNEL_VMA);
}

static void show_mmap_entry(uint64_t addr, uint64_t len, uint32_t type)
{
	kprintf("mb64-example: mmap 0x%llx-0x%llx type %u\n", (unsigned long long)addr,
		(unsigned long long)(addr + len), (unsigned)type);
}

static unsigned check_module(uint32_t start, uint32_t end, const char *args, unsigned index)
{
	uint32_t want, got = crc32(phys(start), end - start);
	int checked = arg_hex(args, "crc32", &want);
	kprintf("mb64-example: module %u: %u bytes, crc32 0x%08x %s\n", index,
		(unsigned)(end - start), (unsigned)got,
		!checked ? "(not checked)" : got == want ? "intact" : "DAMAGED");
	return checked && got != want;
}

static unsigned read_mb1(const struct mb1_info *mbi)
{
	unsigned bad = 0;
	if (mbi->flags & MB1_LOADER_NAME)
		kprintf("mb64-example: loader \"%s\"\n", (const char *)phys(mbi->boot_loader_name));
	kprintf("mb64-example: cmdline \"%s\"\n",
		mbi->flags & MB1_CMDLINE ? (const char *)phys(mbi->cmdline) : "");
	for (uint32_t off = 0; (mbi->flags & MB1_MMAP) && off < mbi->mmap_length;) {
		const struct mb1_mmap_entry *e = phys(mbi->mmap_addr + off);
		show_mmap_entry(e->addr, e->len, e->type);
		off += e->size + sizeof(e->size);
	}
	const struct mb1_module *mods = phys(mbi->mods_addr);
	for (uint32_t i = 0; (mbi->flags & MB1_MODS) && i < mbi->mods_count; i++)
		bad += check_module(mods[i].mod_start, mods[i].mod_end,
				    mods[i].string ? phys(mods[i].string) : "", i);
	return bad;
}

/* Where kernel_main runs, computed from RIP: no relocation touches it. */
static uint64_t here_from_rip(void)
{
	uint64_t here;
	__asm__("lea kernel_main(%%rip), %0" : "=r"(here));
	return here;
}

/* The EFI 64-bit system table tag: the firmware's table, signed "IBI SYST", where it points
 * (inside the 1 GiB the boot tables map). */
static unsigned check_efi64(const struct mb2_efi64 *t)
{
	int ok = t->tag.size >= sizeof(*t) && t->pointer && t->pointer < 0x40000000ull - 8 &&
		 *(const uint64_t *)phys(t->pointer) == EFI_SYSTEM_TABLE_SIGNATURE;
	kprintf("mb64-example: EFI system table: signature %s\n", ok ? "IBI SYST" : "WRONG");
	return !ok;
}

/* The EFI memory map tag: descriptors at least EFI_MEMORY_DESCRIPTOR's size, one of them
 * holding the kernel's own code. */
static unsigned check_efi_mmap(const struct mb2_efi_mmap *t)
{
	uint64_t kernel = here_from_rip() - KERNEL_VMA;
	int plausible = t->descr_size >= EFI_DESCRIPTOR_MIN, inside = 0;
	for (uint32_t off = 0; plausible && off + t->descr_size <= t->tag.size - sizeof(*t);
	     off += t->descr_size) {
		const struct efi_memory_descriptor *d = (const void *)(t->descriptors + off);
		inside |= d->physical_start <= kernel &&
			  kernel - d->physical_start < d->number_of_pages * EFI_PAGE;
	}
	kprintf("mb64-example: EFI memory map: descriptors of %s size, the kernel inside one: %s\n",
		plausible ? "plausible" : "WRONG", inside ? "yes" : "NO");
	return !plausible || !inside;
}

static unsigned read_mb2(const uint8_t *info)
{
	unsigned bad = 0, modules = 0;
	const char *cmdline = "";
	for (const uint8_t *p = info + 8;;) {
		const struct mb2_tag *t = (const void *)p;
		if (t->type == MB2_TAG_END)
			break;
		kprintf("mb64-example: tag type %u\n", (unsigned)t->type); /* as tutorials list them */
		if (t->type == MB2_TAG_CMDLINE)
			cmdline = (const char *)(t + 1);
		if (t->type == MB2_TAG_LOADER_NAME)
			kprintf("mb64-example: loader \"%s\"\n", (const char *)(t + 1));
		if (t->type == MB2_TAG_MODULE) {
			const struct mb2_module *m = (const void *)t;
			bad += check_module(m->mod_start, m->mod_end, m->string, modules++);
		}
		if (t->type == MB2_TAG_EFI64)
			bad += check_efi64((const void *)t);
		if (t->type == MB2_TAG_EFI_MMAP)
			bad += check_efi_mmap((const void *)t);
		if (t->type == MB2_TAG_MMAP) {
			const struct mb2_mmap *m = (const void *)t;
			for (uint32_t off = 0; off + m->entry_size <= m->tag.size - sizeof(*m);
			     off += m->entry_size) {
				const struct mb2_mmap_entry *e = (const void *)(m->entries + off);
				show_mmap_entry(e->addr, e->len, e->type);
			}
		}
		p += (t->size + MB2_TAG_ALIGN - 1) & ~(uint32_t)(MB2_TAG_ALIGN - 1);
	}
	kprintf("mb64-example: cmdline \"%s\"\n", cmdline);
	return bad;
}

/* The physical address the page tables map virt to (4 levels, 2 MiB pages at the PD), or 0. */
static uint64_t walk(uint64_t virt)
{
	uint64_t table;
	__asm__ volatile("mov %%cr3, %0" : "=r"(table));
	for (int level = 3, shift = 39; level >= 0; level--, shift -= 9) {
		uint64_t entry = ((const uint64_t *)phys(table & PTE_ADDRESS))[(virt >> shift) & 511];
		if (!(entry & PTE_PRESENT))
			return 0;
		if (level == 1 && (entry & PTE_LARGE))
			return (entry & PTE_ADDRESS & ~LARGE_PAGE_MASK) + (virt & LARGE_PAGE_MASK);
		table = entry;
	}
	return (table & PTE_ADDRESS) + (virt & 0xfff);
}

/* An absolute address the linker wrote and a relocating loader must have moved. */
static void (*const main_absolute)(uint32_t, uint32_t) = kernel_main;

void kernel_main(uint32_t magic, uint32_t info)
{
	console_init();
	unsigned bad = 0;
	if (magic == MB2_BOOTLOADER_MAGIC)
		bad += read_mb2(phys(info));
	else if (magic == MB1_BOOTLOADER_MAGIC)
		bad += read_mb1(phys(info));
	else {
		kprintf("mb64-example: not started by a Multiboot loader (magic 0x%x)\n",
			(unsigned)magic);
		qemu_exit(1);
		return;
	}
	uint64_t virt = here_from_rip(), at = walk(virt);
	kprintf("mb64-example: here at 0x%llx; pointers %s\n", (unsigned long long)at,
		(uint64_t)(uintptr_t)main_absolute == virt ? "relocated" : "WRONG");
	bad += (uint64_t)(uintptr_t)main_absolute != virt;
	kprintf("mb64-example: page walk: virtual 0x%llx = physical 0x%llx + KERNEL_VMA: %s\n",
		(unsigned long long)virt, (unsigned long long)at,
		at && virt - at == KERNEL_VMA ? "yes" : "NO");
	bad += !at || virt - at != KERNEL_VMA;
	kprintf("mb64-example: %s\n", bad ? "FAILED" : "done");
	qemu_exit(bad ? 1 : 0);
}
