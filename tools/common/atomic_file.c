/* Write whole or not at all (atomic_file.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/common/atomic_file.h"

#define TEMP_SUFFIX ".tmpXXXXXX"

static int fail(char *err, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, cap, fmt, ap);
	va_end(ap);
	return -1;
}

static void release(struct atomic_file *a)
{
	free(a->path);
	free(a->tmp);
	a->path = a->tmp = NULL;
	a->f = NULL;
}

int atomic_file_open(struct atomic_file *a, const char *path, mode_t mode, char *err,
		     size_t err_cap)
{
	*a = (struct atomic_file){ .f = NULL };
	mode_t mask = umask(0);
	umask(mask);
	a->mode = mode & ~mask;
	/* A symbolic link stays a link: its target is what gets replaced. */
	struct stat st;
	a->path = lstat(path, &st) == 0 && S_ISLNK(st.st_mode) ? realpath(path, NULL) : NULL;
	if (!a->path)
		a->path = strdup(path);
	size_t n = a->path ? strlen(a->path) + sizeof(TEMP_SUFFIX) : 0;
	a->tmp = n ? malloc(n) : NULL;
	if (!a->tmp) {
		release(a);
		return fail(err, err_cap, "out of memory");
	}
	snprintf(a->tmp, n, "%s%s", a->path, TEMP_SUFFIX);
	int fd = mkstemp(a->tmp);
	if (fd >= 0)
		a->f = fdopen(fd, "wb");
	if (!a->f) {
		int e = errno;
		if (fd >= 0) {
			close(fd);
			unlink(a->tmp);
		}
		release(a);
		return fail(err, err_cap, "cannot create a temporary file beside it: %s",
			    strerror(e));
	}
	return 0;
}

int atomic_file_commit(struct atomic_file *a, char *err, size_t err_cap)
{
	int e = 0;
	errno = 0;
	if (fflush(a->f) != 0 || ferror(a->f))
		e = errno ? errno : EIO;
	if (!e && fchmod(fileno(a->f), a->mode) != 0)
		e = errno;
	if (!e && fsync(fileno(a->f)) != 0)
		e = errno;
	if (fclose(a->f) != 0 && !e)
		e = errno;
	a->f = NULL;
	if (!e && rename(a->tmp, a->path) != 0)
		e = errno;
	if (e)
		unlink(a->tmp);
	release(a);
	return e ? fail(err, err_cap, "cannot write: %s", strerror(e)) : 0;
}

void atomic_file_discard(struct atomic_file *a)
{
	if (a->f) {
		fclose(a->f);
		unlink(a->tmp);
	}
	release(a);
}
