/* kernel/acpi/pci_state.h: bus 0's configuration, read before S3 and written back after. */
#include <stdint.h>

#include "arch/x86/x86.h"
#include "kernel/acpi/pci_state.h"

#define PCI_CONFIG_ADDRESS 0xcf8
#define PCI_CONFIG_DATA 0xcfc
#define PCI_CONFIG_ENABLE 0x80000000u
#define PCI_DEVICES 32
#define PCI_FUNCTIONS 8
#define PCI_CONFIG_DWORDS 64 /* the 256 bytes mechanism #1 reaches */
#define PCI_NO_DEVICE 0xffff /* what the vendor ID reads as where nothing answers */
/* Type 0 header (PCI Local Bus 3.0, 6.1): the command register in the low half of dword 1
 * (the status register above it clears bits written with 1, so it is not written back);
 * IDs, class and BIST are read-only or must not be written; from the first base address
 * register on, everything is configuration. */
#define PCI_COMMAND_DWORD 1
#define PCI_COMMAND_MASK 0xffffu
#define PCI_FIRST_RESTORED_DWORD 4
#define PCI_FUNCTIONS_MAX 32 /* a PC's bus 0 has a dozen; more are left as the reset made them */

struct saved_function {
	uint8_t device, function;
	uint32_t dword[PCI_CONFIG_DWORDS];
};

static struct saved_function saved[PCI_FUNCTIONS_MAX];
static unsigned saved_count;

static uint32_t config_read(unsigned device, unsigned function, unsigned dword)
{
	outl(PCI_CONFIG_ADDRESS, PCI_CONFIG_ENABLE | device << 11 | function << 8 | dword << 2);
	return inl(PCI_CONFIG_DATA);
}

static void config_write(unsigned device, unsigned function, unsigned dword, uint32_t value)
{
	outl(PCI_CONFIG_ADDRESS, PCI_CONFIG_ENABLE | device << 11 | function << 8 | dword << 2);
	outl(PCI_CONFIG_DATA, value);
}

unsigned pci_state_save(void)
{
	saved_count = 0;
	for (unsigned dev = 0; dev < PCI_DEVICES; dev++)
		for (unsigned fn = 0; fn < PCI_FUNCTIONS; fn++) {
			if ((config_read(dev, fn, 0) & 0xffff) == PCI_NO_DEVICE)
				continue;
			if (saved_count == PCI_FUNCTIONS_MAX)
				return saved_count;
			struct saved_function *f = &saved[saved_count++];
			f->device = (uint8_t)dev;
			f->function = (uint8_t)fn;
			for (unsigned d = 0; d < PCI_CONFIG_DWORDS; d++)
				f->dword[d] = config_read(dev, fn, d);
		}
	return saved_count;
}

unsigned pci_state_restore(void)
{
	unsigned written = 0;
	for (unsigned i = 0; i < saved_count; i++) {
		const struct saved_function *f = &saved[i];
		for (unsigned d = PCI_FIRST_RESTORED_DWORD; d < PCI_CONFIG_DWORDS; d++)
			if (config_read(f->device, f->function, d) != f->dword[d]) {
				config_write(f->device, f->function, d, f->dword[d]);
				written++;
			}
		uint32_t command = f->dword[PCI_COMMAND_DWORD] & PCI_COMMAND_MASK;
		if ((config_read(f->device, f->function, PCI_COMMAND_DWORD) & PCI_COMMAND_MASK) !=
		    command) {
			config_write(f->device, f->function, PCI_COMMAND_DWORD, command);
			written++;
		}
	}
	return written;
}
