/*
 * The C half of the EFI way in (boot/efi.h): from the firmware's call to stub_main, and,
 * when the loader asks for the memory map (boot/loader_uefi.c), out of the firmware for good.
 */
#include <stddef.h>

#include "boot/efi.h"
#include "boot/stub.h"
#include "boot/stub_parts.h"
#include "lib/errors.h"
#include "lib/pagetable.h"
#include "lib/unaligned.h"

/* Room for the EFI memory map: OVMF with 256 MiB gives about 100 descriptors of 48 bytes;
 * machines with many runtime regions a few hundred. In the image, so already avoided. */
#define EFI_MAP_BYTES 16384
#define IDENTITY_END  0x100000000ull

extern const uint8_t _image_start[];
/* The x86-64 entry's identity tables (boot/x86_64/entry.S), unused on the UEFI way in
 * until the stub leaves the firmware's. */
extern uint64_t stub_page_tables[][PT_ENTRIES];
extern uint64_t stub_page_tables_end[][PT_ENTRIES];

uint8_t efi_boot_services_exited;
static struct efi_handover handover;
static struct boot_entry entry;
static uint8_t map_buffer[EFI_MAP_BYTES] __attribute__((aligned(8)));

static uint64_t table_word(uint64_t table, uint64_t offset)
{
	return load_le64((const uint8_t *)(uintptr_t)(table + offset));
}

const struct entry_regs *efi_main(uint64_t image_handle, uint64_t system_table)
{
	handover.image_handle = image_handle;
	handover.system_table = system_table;
	/* The boot services are read only once the loader has checked the system table. */
	entry.protocol = BOOT_PROTOCOL_UEFI;
	entry.magic = 0; /* UEFI has no magic register */
	entry.info = (uintptr_t)&handover;
	entry.image_start = (uintptr_t)_image_start;
	/* Read the firmware's generator now: stub_main gathers entropy only after
	 * ExitBootServices, when the firmware can no longer be asked. */
	efi_rng_read(system_table);
	const struct entry_regs *regs = stub_main(&entry);
	if (!regs && stub_env.trial)
		efi_return_status = EFI_SUCCESS;
	return regs;
}

/* The firmware's tables lie in boot-services memory, which the stub now counts as usable:
 * run on tables inside the image before anything there is handed out. */
static int switch_to_own_tables(const char **why)
{
	struct pt_builder b;
	size_t pages = (size_t)(stub_page_tables_end - stub_page_tables);
	int rc = pt_init(&b, stub_page_tables, pages, (uintptr_t)stub_page_tables);
	if (rc == KS_OK)
		rc = pt_map(&b, 0, 0, IDENTITY_END, PTE_WRITABLE);
	if (rc != KS_OK) {
		*why = "cannot build the stub's identity map";
		return rc;
	}
	__asm__ volatile("mov %0, %%cr3" : : "r"(b.pml4_phys) : "memory");
	return KS_OK;
}

/* A trial's map (boot/efi_trial.c): GetMemoryMap into the same buffer, boot services left
 * running. The firmware's own memory counts as usable, as it does after the exit. */
int efi_read_memory_map(struct efi_handover *h, const char **why)
{
	uint64_t services = table_word(h->system_table, EFI_ST_BOOT_SERVICES);
	efi_get_memory_map_fn get_memory_map =
		(efi_get_memory_map_fn)(uintptr_t)table_word(services, EFI_BS_GET_MEMORY_MAP);
	uint64_t size = sizeof(map_buffer), key = 0, desc_size = 0;
	uint32_t version = 0;
	if (get_memory_map(&size, map_buffer, &key, &desc_size, &version) != EFI_SUCCESS) {
		*why = "GetMemoryMap failed";
		return KS_EINVAL;
	}
	h->map = map_buffer;
	h->map_size = size;
	h->desc_size = desc_size;
	h->desc_version = version;
	return KS_OK;
}

int efi_leave_firmware(struct efi_handover *h, const char **why)
{
	uint64_t services = table_word(h->system_table, EFI_ST_BOOT_SERVICES);
	h->calls.get_memory_map =
		(efi_get_memory_map_fn)(uintptr_t)table_word(services, EFI_BS_GET_MEMORY_MAP);
	h->calls.exit_boot_services = (efi_exit_boot_services_fn)(uintptr_t)table_word(
		services, EFI_BS_EXIT_BOOT_SERVICES);
	int rc = efi_exit_boot_services(h, map_buffer, sizeof(map_buffer), why);
	if (rc != KS_OK)
		return rc;
	/* No firmware is left to take an interrupt; its IDT lies in memory now ours. */
	__asm__ volatile("cli");
	efi_boot_services_exited = 1;
	return switch_to_own_tables(why);
}
