/*
 * An output file that holds either its old content or the whole new one, never a part: the
 * tools write under a temporary name beside it and rename(2) it into place only when all of
 * it was written (and synced). A symbolic link at the path stays a link; its target gets the
 * new content. Shared by kslide-pack, kslide-stat and kslide-kallsyms.
 */
#ifndef KSLIDE_TOOLS_ATOMIC_FILE_H
#define KSLIDE_TOOLS_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct atomic_file {
	FILE *f;     /* write here between open and commit */
	char *path;  /* what the rename replaces: the path, or a link's target */
	char *tmp;   /* the temporary file beside it */
	mode_t mode; /* the finished file's permissions, less the umask */
};

/* 0, or -1 with a message in err (nothing created). */
int atomic_file_open(struct atomic_file *a, const char *path, mode_t mode, char *err,
		     size_t err_cap);
/* Flush, sync and rename into place. 0, or -1 with a message: the old content untouched and
 * the temporary file gone. Either way the struct is released. */
int atomic_file_commit(struct atomic_file *a, char *err, size_t err_cap);
/* Give up: the temporary file removed, the path untouched. Safe on a closed struct. */
void atomic_file_discard(struct atomic_file *a);

#endif
