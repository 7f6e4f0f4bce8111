/*
 * Work for an application processor (kernel/smp/smp_call.c): the boot CPU hands one function to
 * one AP (kernel/smp/smp.h starts them) and waits until it has run there.
 */
#ifndef KSLIDE_KERNEL_SMP_SMP_CALL_H
#define KSLIDE_KERNEL_SMP_SMP_CALL_H

#include <stdbool.h>

/* Run fn(arg) on AP ap, in ring 0 on its own stack, and wait (halted) until it has returned;
 * false when the AP is not online or does not answer. Only the boot CPU calls it. */
bool smp_call(unsigned ap, void (*fn)(void *arg), void *arg);
/* Forget any call to AP ap: it is being (re)started. */
void smp_call_forget(unsigned ap);
/* Where an AP goes once it has checked in: it runs what smp_call hands it, forever. */
__attribute__((noreturn)) void smp_ap_wait_for_work(unsigned ap);

#endif
