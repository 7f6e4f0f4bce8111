/* VGA text and COM1 output, a small printf, CRC-32 (see console.h). */
#include <stdarg.h>

#include "console.h"

#define VGA_TEXT 0xb8000 /* 80x25 colour text mode, a character and an attribute per cell */
#define VGA_COLUMNS 80
#define VGA_ROWS 25
#define VGA_GREY_ON_BLACK 0x07
#define COM1 0x3f8
#define UART_IER 1
#define UART_LCR 3
#define UART_LSR 5
#define LCR_DLAB 0x80 /* the next two registers set the baud divisor */
#define LCR_8N1 0x03
#define DIVISOR_115200 1
#define LSR_THR_EMPTY 0x20
#define QEMU_EXIT_PORT 0xf4
#define CRC32_POLY 0xedb88320u

static unsigned row, column;

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

void console_init(void)
{
	volatile uint16_t *screen = (volatile uint16_t *)VGA_TEXT;
	for (unsigned i = 0; i < VGA_COLUMNS * VGA_ROWS; i++)
		screen[i] = (uint16_t)(VGA_GREY_ON_BLACK << 8 | ' ');
	outb(COM1 + UART_IER, 0);
	outb(COM1 + UART_LCR, LCR_DLAB);
	outb(COM1, DIVISOR_115200);
	outb(COM1 + 1, 0);
	outb(COM1 + UART_LCR, LCR_8N1);
}

static void vga_putc(char c)
{
	volatile uint16_t *screen = (volatile uint16_t *)VGA_TEXT;
	if (c != '\n')
		screen[row * VGA_COLUMNS + column++] = (uint16_t)(VGA_GREY_ON_BLACK << 8 | (uint8_t)c);
	if (c == '\n' || column == VGA_COLUMNS) {
		column = 0;
		row = (row + 1) % VGA_ROWS;
	}
}

static void putc(char c)
{
	vga_putc(c);
	if (c == '\n')
		putc('\r');
	while (!(inb(COM1 + UART_LSR) & LSR_THR_EMPTY))
		;
	outb(COM1, (uint8_t)c);
}

/* Hex by shifts, decimal only of 32 bits: a 64-bit division would need libgcc. */
static void put_number(unsigned long long v, unsigned base, unsigned width)
{
	char digits[24];
	unsigned n = 0;
	do {
		if (base == 16) {
			digits[n++] = "0123456789abcdef"[v & 0xf];
			v >>= 4;
		} else {
			uint32_t low = (uint32_t)v;
			digits[n++] = (char)('0' + low % 10);
			v = low / 10;
		}
	} while (v);
	while (n < width)
		digits[n++] = '0';
	while (n)
		putc(digits[--n]);
}

void kprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			putc(*fmt);
			continue;
		}
		unsigned width = 0;
		while (*++fmt >= '0' && *fmt <= '9')
			width = width * 10 + (unsigned)(*fmt - '0');
		switch (*fmt) {
		case 's':
			for (const char *s = va_arg(ap, const char *); *s; s++)
				putc(*s);
			break;
		case 'c': putc((char)va_arg(ap, int)); break;
		case 'u': put_number(va_arg(ap, unsigned), 10, width); break;
		case 'd': {
			int v = va_arg(ap, int);
			if (v < 0)
				putc('-');
			put_number(v < 0 ? -(unsigned)v : (unsigned)v, 10, width);
			break;
		}
		case 'x': put_number(va_arg(ap, unsigned), 16, width); break;
		case 'l': /* %llx */
			fmt += 2;
			put_number(va_arg(ap, unsigned long long), 16, width);
			break;
		default: putc(*fmt); break;
		}
	}
	va_end(ap);
}

uint32_t crc32(const void *data, size_t len)
{
	const uint8_t *p = data;
	uint32_t crc = 0xffffffffu;
	while (len--) {
		crc ^= *p++;
		for (int bit = 0; bit < 8; bit++)
			crc = (crc >> 1) ^ (CRC32_POLY & -(crc & 1));
	}
	return ~crc;
}

int arg_hex(const char *args, const char *key, uint32_t *value)
{
	for (const char *p = args; *p; p++) {
		const char *k = key, *q = p;
		while (*k && *q == *k)
			k++, q++;
		if (*k || *q != '=' || (p != args && p[-1] != ' '))
			continue;
		q++;
		if (q[0] == '0' && q[1] == 'x')
			q += 2;
		uint32_t v = 0;
		for (; (*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f'); q++)
			v = v * 16 + (uint32_t)(*q <= '9' ? *q - '0' : *q - 'a' + 10);
		*value = v;
		return 1;
	}
	return 0;
}

void qemu_exit(unsigned code)
{
	outb(QEMU_EXIT_PORT, (uint8_t)code);
}
