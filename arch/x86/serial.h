/* 16550 UART on COM1, polled: the console of the stub and the reference kernel. */
#ifndef KSLIDE_ARCH_X86_SERIAL_H
#define KSLIDE_ARCH_X86_SERIAL_H

void serial_init(void);
void serial_putc(void *ctx, char c); /* format_putc_fn; translates \n to \r\n */

#endif
