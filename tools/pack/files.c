/* kslide-pack's input and output files (files.h): regular files only, or standard output. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/common/atomic_file.h"
#include "tools/pack/fail.h"
#include "tools/pack/files.h"

#define IMAGE_MODE 0644

/* "a FIFO": what a file that is not regular is, for messages. */
static const char *kind_of(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISDIR(mode))
		return "a directory";
	return "not a regular file";
}

uint8_t *pack_read_input(const char *path, size_t *len, char *err, size_t err_cap)
{
	/* O_NONBLOCK: opening a FIFO would otherwise wait for a writer. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		pack_fail(err, err_cap, "%s", strerror(errno));
		return NULL;
	}
	struct stat st;
	uint8_t *buf = NULL;
	if (fstat(fd, &st) != 0)
		pack_fail(err, err_cap, "%s", strerror(errno));
	else if (S_ISDIR(st.st_mode))
		pack_fail(err, err_cap, "%s", strerror(EISDIR));
	else if (!S_ISREG(st.st_mode))
		pack_fail(err, err_cap,
			  "%s, not a regular file: kslide-pack reads a kernel from a regular "
			  "file",
			  kind_of(st.st_mode));
	else if ((unsigned long long)st.st_size > PACK_INPUT_MAX)
		pack_fail(err, err_cap, "%llu bytes, more than the %llu MiB a kernel file may have",
			  (unsigned long long)st.st_size, PACK_INPUT_MAX >> 20);
	else if (!(buf = malloc(st.st_size ? (size_t)st.st_size : 1)))
		pack_fail(err, err_cap, "out of memory for %llu bytes",
			  (unsigned long long)st.st_size);
	size_t done = 0, want = buf ? (size_t)st.st_size : 0;
	while (buf && done < want) {
		ssize_t n = read(fd, buf + done, want - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			pack_fail(err, err_cap, "%s", strerror(errno));
			free(buf);
			buf = NULL;
		}
		if (n <= 0)
			break; /* a file that shrank: what it holds now */
		done += (size_t)n;
	}
	close(fd);
	*len = done;
	return buf;
}

int pack_output_check(const char *path, char *err, size_t err_cap)
{
	if (strcmp(path, PACK_STDOUT) == 0)
		return isatty(STDOUT_FILENO)
			       ? pack_fail(err, err_cap,
					   "standard output is a terminal: redirect it, "
					   "or give -o FILE")
			       : 0;
	struct stat st;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : pack_fail(err, err_cap, "%s", strerror(errno));
	if (S_ISLNK(st.st_mode) && stat(path, &st) != 0)
		return pack_fail(err, err_cap,
				 "a symbolic link to nothing (%s): kslide-pack replaces only "
				 "regular files",
				 strerror(errno));
	if (S_ISDIR(st.st_mode))
		return pack_fail(err, err_cap, "cannot write: %s", strerror(EISDIR));
	if (!S_ISREG(st.st_mode))
		return pack_fail(err, err_cap,
				 "%s, not a regular file: kslide-pack replaces only regular "
				 "files (-o - writes to standard output)",
				 kind_of(st.st_mode));
	return 0;
}

static int write_all(int fd, const uint8_t *bytes, size_t size)
{
	size_t done = 0;
	while (done < size) {
		ssize_t w = write(fd, bytes + done, size - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? errno : EIO;
		done += (size_t)w;
	}
	return 0;
}

static int write_atomic(const char *path, const uint8_t *bytes, size_t size, char *err,
			size_t err_cap)
{
	struct atomic_file out;
	if (atomic_file_open(&out, path, IMAGE_MODE, err, err_cap))
		return -1;
	if (fwrite(bytes, 1, size, out.f) != size) {
		int e = errno;
		atomic_file_discard(&out);
		return pack_fail(err, err_cap, "cannot write: %s", strerror(e ? e : EIO));
	}
	return atomic_file_commit(&out, err, err_cap);
}

int pack_write_output(const char *path, const uint8_t *bytes, size_t size, char *err,
		      size_t err_cap)
{
	if (pack_output_check(path, err, err_cap))
		return -1;
	if (strcmp(path, PACK_STDOUT) == 0) {
		int e = write_all(STDOUT_FILENO, bytes, size);
		return e ? pack_fail(err, err_cap, "cannot write to standard output: %s",
				     strerror(e))
			 : 0;
	}
	return write_atomic(path, bytes, size, err, err_cap);
}
