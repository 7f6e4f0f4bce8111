/*
 * A machine whose kernel refuses 32-bit programs, for `make check-no-ia32`: preloaded into
 * every process of a make check (LD_PRELOAD is inherited), it makes each way a program is
 * started fail with ENOEXEC for an i386 ELF file, as Linux does when it is built without
 * IA32_EMULATION or with IA32_EMULATION_DEFAULT_DISABLED ("Exec format error"). Everything
 * else starts as usual, so a check run under it finds every 32-bit program the tests start
 * without scripts/run32.sh.
 *
 * It sees the calls made through the C library's exported functions (sh, make, Python and the
 * tests' own programs all start programs so); a statically linked program, or one that makes
 * the system call itself, escapes it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

static bool is_i386_elf_fd(int fd)
{
	Elf32_Ehdr h;
	ssize_t got = pread(fd, &h, sizeof(h), 0);
	return got == (ssize_t)sizeof(h) && memcmp(h.e_ident, ELFMAG, SELFMAG) == 0 &&
	       h.e_ident[EI_CLASS] == ELFCLASS32 && h.e_machine == EM_386;
}

static bool is_i386_elf(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool i386 = is_i386_elf_fd(fd);
	close(fd);
	return i386;
}

/* What execvp would run: FILE itself when it names a path, else the first match in PATH. */
static bool resolves_to_i386(const char *file)
{
	if (!file || !*file)
		return false;
	if (strchr(file, '/'))
		return is_i386_elf(file);
	const char *path = getenv("PATH");
	if (!path)
		path = "/bin:/usr/bin";
	char candidate[4096];
	while (*path) {
		const char *end = strchr(path, ':');
		size_t len = end ? (size_t)(end - path) : strlen(path);
		int n = snprintf(candidate, sizeof(candidate), "%.*s/%s", (int)len,
				 len ? path : ".", file);
		if (n > 0 && (size_t)n < sizeof(candidate) && access(candidate, X_OK) == 0)
			return is_i386_elf(candidate);
		path += len + (end != NULL);
		if (!end)
			break;
	}
	return false;
}

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

int execve(const char *path, char *const argv[], char *const envp[])
{
	if (is_i386_elf(path))
		return errno = ENOEXEC, -1;
	return REAL(execve)(path, argv, envp);
}

int execv(const char *path, char *const argv[])
{
	return execve(path, argv, environ);
}

int execvpe(const char *file, char *const argv[], char *const envp[])
{
	if (resolves_to_i386(file))
		return errno = ENOEXEC, -1;
	return REAL(execvpe)(file, argv, envp);
}

int execvp(const char *file, char *const argv[])
{
	return execvpe(file, argv, environ);
}

int fexecve(int fd, char *const argv[], char *const envp[])
{
	if (is_i386_elf_fd(fd))
		return errno = ENOEXEC, -1;
	return REAL(fexecve)(fd, argv, envp);
}

int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *actions,
		const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	if (is_i386_elf(path))
		return ENOEXEC;
	return REAL(posix_spawn)(pid, path, actions, attr, argv, envp);
}

int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *actions,
		 const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	if (resolves_to_i386(file))
		return ENOEXEC;
	return REAL(posix_spawnp)(pid, file, actions, attr, argv, envp);
}
