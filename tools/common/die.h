/* The build's small host tools' one way to stop: "PROGRAM: FILE: what went wrong", exit 1. */
#ifndef KSLIDE_TOOLS_COMMON_DIE_H
#define KSLIDE_TOOLS_COMMON_DIE_H

/* file may be NULL (the message is about no file). */
_Noreturn void tool_die(const char *program, const char *file, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
