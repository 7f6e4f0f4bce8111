/*
 * A minimal kernel for kslide: say where it was put, check that its absolute addresses were
 * relocated, and end QEMU with the verdict. Needs only include/kslide/bootinfo.h.
 */
#include <stdint.h>

#include "kslide/bootinfo.h"

#define COM1 0x3f8          /* first serial port, a 16550 UART */
#define UART_DLL 0          /* divisor low byte, while LCR_DLAB is set */
#define UART_DLM 1          /* divisor high byte, while LCR_DLAB is set */
#define UART_IER 1          /* interrupt enable, while LCR_DLAB is clear */
#define UART_LCR 3          /* line control */
#define UART_LSR 5          /* line status */
#define LCR_DLAB 0x80       /* divisor latch access */
#define LCR_8N1 0x03        /* 8 data bits, no parity, 1 stop bit */
#define DIVISOR_115200 1    /* 115200 = 1.8432 MHz / 16 / 1 */
#define LSR_THR_EMPTY 0x20  /* transmitter ready for a byte */
#define QEMU_EXIT_PORT 0xf4 /* -device isa-debug-exit,iobase=0xf4: QEMU exits (v << 1) | 1 */
#define EXIT_PASS 0
#define EXIT_FAIL 1

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline void outl(uint16_t port, uint32_t v)
{
	__asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

/* Polled output, no interrupts: 115200 8N1, the same settings the stub used. */
static void serial_init(void)
{
	outb(COM1 + UART_IER, 0);
	outb(COM1 + UART_LCR, LCR_DLAB);
	outb(COM1 + UART_DLL, DIVISOR_115200);
	outb(COM1 + UART_DLM, 0);
	outb(COM1 + UART_LCR, LCR_8N1);
}

static void put_char(char c)
{
	while (!(inb(COM1 + UART_LSR) & LSR_THR_EMPTY))
		;
	outb(COM1, (uint8_t)c);
}

static void put_str(const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			put_char('\r');
		put_char(*s);
	}
}

static void put_hex(uint32_t v)
{
	put_str("0x");
	for (int shift = 28; shift >= 0; shift -= 4)
		put_char("0123456789abcdef"[(v >> shift) & 0xf]);
}

static void put_dec(uint32_t v)
{
	char digits[10];
	int n = 0;
	do
		digits[n++] = (char)('0' + v % 10);
	while (v /= 10);
	while (n)
		put_char(digits[--n]);
}

static void __attribute__((noreturn)) qemu_exit(uint32_t code)
{
	outl(QEMU_EXIT_PORT, code);
	for (;;)
		__asm__ volatile("cli; hlt");
}

/* The relocation check: the same address found two ways (entry.S and the line below). */
int marker;
int *marker_absolute = &marker; /* an R_386_32 in .data: right only if the stub patched it */
void *marker_address_from_eip(void);

void __attribute__((noreturn)) main(uint32_t magic, const struct kslide_bootinfo *bi)
{
	serial_init();
	if (magic != KSLIDE_BOOT_MAGIC) {
		put_str("example: not started by the kslide stub\n");
		qemu_exit(EXIT_FAIL);
	}
	/* An i386 kernel lives below 4 GiB, so 32 bits are enough to print these. */
	put_str("example: hello from ");
	put_hex((uint32_t)bi->phys_base);
	put_str(" (slide ");
	put_hex((uint32_t)kslide_phys_slide(bi));
	put_str(", ");
	put_dec((uint32_t)bi->phys_slots);
	put_str(" slots)\n");

	if ((void *)marker_absolute == marker_address_from_eip()) {
		put_str("example: relocation ok\n");
		qemu_exit(EXIT_PASS);
	}
	put_str("example: relocation BROKEN: pointer ");
	put_hex((uint32_t)(uintptr_t)marker_absolute);
	put_str(", really at ");
	put_hex((uint32_t)(uintptr_t)marker_address_from_eip());
	put_str("\n");
	qemu_exit(EXIT_FAIL);
}
