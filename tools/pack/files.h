/*
 * kslide-pack's files: the kernel is read from a regular file of bounded size, the image goes
 * to a regular file (atomically) or, asked for with "-", to standard output. Nothing else is
 * read from or replaced: not a FIFO, a device or a directory.
 */
#ifndef KSLIDE_TOOLS_PACK_FILES_H
#define KSLIDE_TOOLS_PACK_FILES_H

#include <stddef.h>
#include <stdint.h>

/*
 * The largest kernel file read: twice the largest span of loadable segments the reader
 * accepts (kernel_elf.c, 1 GiB), which leaves room for the debug information of a vmlinux.
 */
#define PACK_INPUT_MAX (2ull << 30)

/* "-o -": the image goes to standard output. */
#define PACK_STDOUT "-"

/*
 * The whole of the regular file at path (malloc'd; *len bytes), or NULL with a message in err:
 * missing, unreadable, not a regular file (a FIFO is refused without waiting for a writer), or
 * larger than PACK_INPUT_MAX.
 */
uint8_t *pack_read_input(const char *path, size_t *len, char *err, size_t err_cap);

/*
 * Whether the image may go to path: "-", a path where nothing is yet (its directory must
 * exist), a regular file or a symbolic link to one. 0, or -1 with a message: an existing
 * device, FIFO, socket or directory is refused, never replaced.
 */
int pack_output_check(const char *path, char *err, size_t err_cap);

/*
 * Write the image to path as pack_output_check allows: standard output for "-"; otherwise
 * via a temporary file in the same directory and rename(2), so that the path holds either
 * the old content or the whole new one, never a part. A symbolic link stays and its target
 * is replaced. 0, or -1 with a message, the old content untouched and nothing left behind.
 */
int pack_write_output(const char *path, const uint8_t *bytes, size_t size, char *err,
		      size_t err_cap);

#endif
