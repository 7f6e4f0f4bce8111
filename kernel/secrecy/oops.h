/* Oopses and panics: counting failed guesses at the kernel, and stopping for good. */
#ifndef KSLIDE_KERNEL_SECRECY_OOPS_H
#define KSLIDE_KERNEL_SECRECY_OOPS_H

/* A process faulted on a kernel address: count it; panic when panic_on_oops is set or the
 * count reaches oops_limit. */
void oops_user(unsigned pid);

/* Print "kernel panic: ..." on the console and end the run as a failure. */
__attribute__((noreturn, format(printf, 1, 2))) void panic(const char *fmt, ...);

#endif
