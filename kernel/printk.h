/*
 * printk: kernel messages to the console and the syslog ring, with %p hashed and %pK
 * restricted (kernel/secrecy/kptr.h). kprintf (kernel/console.h) writes to the console only: it is
 * the machine owner's channel and the test harness's, never readable from user mode.
 */
#ifndef KSLIDE_KERNEL_PRINTK_H
#define KSLIDE_KERNEL_PRINTK_H

void printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
