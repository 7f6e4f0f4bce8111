/*
 * Booting a packed image many times under QEMU (TCG), a few at a time, and handing every
 * serial line to the caller. A progress bar goes to stderr when it is a terminal.
 */
#ifndef KSLIDE_TOOLS_STAT_BOOTS_H
#define KSLIDE_TOOLS_STAT_BOOTS_H

#include <stdbool.h>
#include <stddef.h>

#include "tools/stat/esp.h"

struct boot_plan {
	const char *image;
	const char *initrd; /* -initrd, or NULL */
	/* What a passing boot shows: the stub's "kslide: base=" line, and for Linux init's
	 * "kslide-linux: _text=" report (tests/linux/init.c) and QEMU ending by Linux's power
	 * off; with both, _text and the physical base must be the stub's. */
	bool needs_base, needs_report;
	const char *qemu;	  /* "qemu-system-i386" or "qemu-system-x86_64" */
	const char *cpu;	  /* -cpu */
	const char *memory;	  /* -m */
	const char *append;	  /* kernel command line */
	const char *const *extra; /* --qemu-arg words, in order */
	size_t extra_count;
	size_t boots, jobs;
	unsigned timeout; /* seconds per boot */
	/* NULL: QEMU's -kernel (and -initrd, -append) on its BIOS machine. Else the image boots
	 * from an ESP under this firmware (esp.h), each boot with its own ESP and variables. */
	const struct uefi_plan *uefi;
	/* NULL, or an existing directory where each failed boot's serial log is kept as
	 * boot-N.log (N from 1), for reading what the kernel printed before it stopped. */
	const char *failed_logs;
};

struct boot_outcome {
	size_t passed, failed; /* failed: a line missing, a timeout or a kernel failure verdict */
	char first_failure[512];
	size_t logs_kept; /* failed boots' logs copied to plan->failed_logs */
};

/* Called with each line of each finished boot's serial log; nonzero stops the run. */
typedef int (*boot_line_fn)(void *ctx, const char *line);

/* Run the plan; 0 when it ran to the end (boots may still have failed), -1 on a setup error
 * (errno set, or a message in 'error' when it is not empty). */
int boots_run(const struct boot_plan *plan, boot_line_fn fn, void *ctx, struct boot_outcome *out,
	      char *error, size_t error_cap);

#endif
