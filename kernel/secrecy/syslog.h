/* The kernel log: a ring of the most recent printk output, read through SYS_SYSLOG. */
#ifndef KSLIDE_KERNEL_SECRECY_SYSLOG_H
#define KSLIDE_KERNEL_SECRECY_SYSLOG_H

#include <stddef.h>

#define SYSLOG_BYTES 16384

void syslog_putc(char c);

/* Copies up to len bytes starting at byte 'offset' of everything ever logged (bytes already
 * overwritten are skipped); returns the count, 0 at the end. */
size_t syslog_read(size_t offset, char *out, size_t len);

/* How many bytes were ever logged: the offset the next byte will have. */
size_t syslog_written(void);

#endif
