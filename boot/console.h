/* The stub's console: serial output (COM1). Callers start each line with "kslide: ". */
#ifndef KSLIDE_BOOT_CONSOLE_H
#define KSLIDE_BOOT_CONSOLE_H

void console_init(void);
void console_print(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
