/* The reference kernel's console: kprintf to COM1. */
#ifndef KSLIDE_KERNEL_CONSOLE_H
#define KSLIDE_KERNEL_CONSOLE_H

void console_init(void);
void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
