/* Polled COM1 output at 115200 8N1 (register map from the NS16550A datasheet). */
#include "arch/x86/serial.h"
#include "arch/x86/x86.h"

#define COM1 0x3f8
#define UART_DATA 0        /* DLAB=0: transmit holding register */
#define UART_IER 1         /* DLAB=0: interrupt enable */
#define UART_DLL 0         /* DLAB=1: divisor latch low */
#define UART_DLM 1         /* DLAB=1: divisor latch high */
#define UART_FCR 2         /* FIFO control */
#define UART_LCR 3         /* line control */
#define UART_MCR 4         /* modem control */
#define UART_LSR 5         /* line status */
#define LCR_DLAB 0x80      /* divisor latch access */
#define LCR_8N1 0x03       /* 8 data bits, no parity, 1 stop bit */
#define FCR_ENABLE_CLEAR 0x07
#define MCR_DTR_RTS_OUT2 0x0b
#define LSR_THR_EMPTY 0x20
#define DIVISOR_115200 1   /* 115200 = 1.8432 MHz / 16 / 1 */
#define TX_SPIN_LIMIT 100000 /* give up on a missing UART rather than hang the boot */

void serial_init(void)
{
	outb(COM1 + UART_IER, 0);
	outb(COM1 + UART_LCR, LCR_DLAB);
	outb(COM1 + UART_DLL, DIVISOR_115200);
	outb(COM1 + UART_DLM, 0);
	outb(COM1 + UART_LCR, LCR_8N1);
	outb(COM1 + UART_FCR, FCR_ENABLE_CLEAR);
	outb(COM1 + UART_MCR, MCR_DTR_RTS_OUT2);
}

static void put_raw(char c)
{
	for (int i = 0; i < TX_SPIN_LIMIT; i++)
		if (inb(COM1 + UART_LSR) & LSR_THR_EMPTY)
			break;
	outb(COM1 + UART_DATA, (uint8_t)c);
}

void serial_putc(void *ctx, char c)
{
	(void)ctx;
	if (c == '\n')
		put_raw('\r');
	put_raw(c);
}
