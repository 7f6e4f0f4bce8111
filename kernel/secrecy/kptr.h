/*
 * What the kernel shows of its own addresses. %p prints a keyed hash (SipHash-2-4, key from
 * the boot info's seed: fresh at every boot, never the bytes that chose the base), %pK follows
 * kernel.kptr_restrict, %px prints the address. See docs/security.md.
 */
#ifndef KSLIDE_KERNEL_SECRECY_KPTR_H
#define KSLIDE_KERNEL_SECRECY_KPTR_H

#include <stdint.h>

#include "include/kslide/bootinfo.h"
#include "kernel/proc/cred.h"

/* The slide this boot: runtime minus link-time virtual address of any kernel symbol. */
extern uintptr_t kernel_virt_slide;

void kptr_init(const struct kslide_bootinfo *bi);

/* The hash %p prints, truncated to the pointer's width. */
uintptr_t kptr_hash(uintptr_t p);

/* %pK: addr itself or 0, per kptr_restrict and the reader's CAP_SYSLOG. */
uint64_t kptr_restricted(uint64_t addr, const struct cred *reader);

/* A lib/format pointer hook (format_ptr_fn): ctx is the const struct cred of whoever will
 * read the text, or NULL when that is not known (printk: the syslog is read later, by anyone
 * dmesg_restrict lets in), which %pK treats as unprivileged. */
uintptr_t kptr_format(void *ctx, char kind, uintptr_t p);

#endif
