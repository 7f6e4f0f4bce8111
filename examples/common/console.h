/*
 * What every tutorial kernel writes first: text on the VGA screen and on the first serial
 * port, a small printf, and a CRC-32 to check what the boot loader handed over. Shared by the
 * Multiboot examples, which know nothing of kslide.
 */
#ifndef EXAMPLES_COMMON_CONSOLE_H
#define EXAMPLES_COMMON_CONSOLE_H

#include <stddef.h>
#include <stdint.h>

void console_init(void);
/* %s %c %u %d %x %llx, with an optional 0-padded width for numbers (%08x). */
void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* CRC-32 (IEEE 802.3, reflected; gzip's), as `crc32=0x...` module arguments give it. */
uint32_t crc32(const void *data, size_t len);

/* The value of "key=0x..." in a space-separated argument string; 0 if absent. */
int arg_hex(const char *args, const char *key, uint32_t *value);

/* End the QEMU test run (-device isa-debug-exit): 0 passes. Does nothing on real hardware. */
void qemu_exit(unsigned code);

#endif
