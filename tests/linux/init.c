/*
 * The Linux tests' /init: reports where the running kernel really is and powers off. It prints
 *   kslide-linux: _text=0x<virtual> kernel_code=0x<first>-0x<last>
 * from /proc/kallsyms (_text: the virtual base) and /proc/iomem ("Kernel code": the physical
 * range), or "kslide-linux: error: ..." when it cannot. Freestanding, raw system calls, built
 * for i386 and x86-64 (mk/linux.mk); no libc, so it runs on any kernel of either arch.
 */
#include <stddef.h>
#include <stdint.h>

/* System call numbers: arch/x86/entry/syscalls/syscall_32.tbl and syscall_64.tbl. */
#ifdef __x86_64__
#define SYS_READ 0
#define SYS_WRITE 1
#define SYS_OPEN 2
#define SYS_CLOSE 3
#define SYS_MKDIR 83
#define SYS_MOUNT 165
#define SYS_REBOOT 169
#else
#define SYS_READ 3
#define SYS_WRITE 4
#define SYS_OPEN 5
#define SYS_CLOSE 6
#define SYS_MKDIR 39
#define SYS_MOUNT 21
#define SYS_REBOOT 88
#endif

#define O_RDONLY 0
#define STDOUT 1
#define PROC_MODE 0555
/* include/uapi/linux/reboot.h */
#define LINUX_REBOOT_MAGIC1 0xfee1deadu
#define LINUX_REBOOT_MAGIC2 672274793u
#define LINUX_REBOOT_CMD_POWER_OFF 0x4321fedcu

#define LINE_MAX_BYTES 256
#define READ_CHUNK 4096

static long syscall5(long nr, long a, long b, long c, long d, long e)
{
	long ret;
#ifdef __x86_64__
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
			 : "rcx", "r11", "memory");
#else
	/* Built without PIC (mk/linux.mk), so EBX is free for the first argument. */
	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e)
			 : "memory");
#endif
	return ret;
}

static size_t length(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

static void say(const char *s)
{
	syscall5(SYS_WRITE, STDOUT, (long)s, (long)length(s), 0, 0);
}

static void power_off(void)
{
	syscall5(SYS_REBOOT, (long)LINUX_REBOOT_MAGIC1, (long)LINUX_REBOOT_MAGIC2,
		 (long)LINUX_REBOOT_CMD_POWER_OFF, 0, 0);
	say("kslide-linux: error: power off failed\n");
	for (;;)
		;
}

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* Reads the line of 'path' for which 'match' returns nonzero into out; 0, or -1 if none. */
static int find_line(const char *path, int (*match)(const char *line), char *out)
{
	static char chunk[READ_CHUNK];
	long fd = syscall5(SYS_OPEN, (long)path, O_RDONLY, 0, 0, 0);
	if (fd < 0)
		return -1;
	size_t used = 0;
	int found = -1;
	long n;
	while (found && (n = syscall5(SYS_READ, fd, (long)chunk, sizeof(chunk), 0, 0)) > 0) {
		for (long i = 0; i < n && found; i++) {
			if (chunk[i] != '\n') {
				if (used < LINE_MAX_BYTES - 1)
					out[used++] = chunk[i];
				continue;
			}
			out[used] = '\0';
			used = 0;
			if (match(out))
				found = 0;
		}
	}
	syscall5(SYS_CLOSE, fd, 0, 0, 0, 0);
	return found;
}

static int ends_with(const char *s, const char *tail)
{
	size_t a = length(s), b = length(tail);
	if (a < b)
		return 0;
	for (size_t i = 0; i < b; i++)
		if (s[a - b + i] != tail[i])
			return 0;
	return 1;
}

/* "ffffffff81000000 T _text" */
static int is_text_symbol(const char *line)
{
	return is_hex(line[0]) && ends_with(line, " T _text");
}

/* "  01000000-01c44fff : Kernel code" */
static int is_kernel_code(const char *line)
{
	return ends_with(line, " : Kernel code");
}

/* Copies the leading hex digits of s after "0x" into out; returns the end of them. */
static const char *copy_hex(const char *s, char *out)
{
	*out++ = '0';
	*out++ = 'x';
	while (is_hex(*s))
		*out++ = *s++;
	*out = '\0';
	return s;
}

static char *append(char *at, const char *s)
{
	while (*s)
		*at++ = *s++;
	*at = '\0';
	return at;
}

void init_main(void)
{
	static char symbol[LINE_MAX_BYTES], iomem[LINE_MAX_BYTES];
	static char text[32], first[32], last[32], report[160];
	syscall5(SYS_MKDIR, (long)"/proc", PROC_MODE, 0, 0, 0);
	if (syscall5(SYS_MOUNT, (long)"proc", (long)"/proc", (long)"proc", 0, 0) < 0) {
		say("kslide-linux: error: cannot mount /proc\n");
		power_off();
	}
	if (find_line("/proc/kallsyms", is_text_symbol, symbol)) {
		say("kslide-linux: error: no _text in /proc/kallsyms\n");
		power_off();
	}
	if (find_line("/proc/iomem", is_kernel_code, iomem)) {
		say("kslide-linux: error: no Kernel code in /proc/iomem\n");
		power_off();
	}
	copy_hex(symbol, text);
	const char *range = iomem;
	while (*range == ' ')
		range++;
	range = copy_hex(range, first);
	copy_hex(range + (*range == '-'), last);
	char *at = append(report, "kslide-linux: _text=");
	at = append(at, text);
	at = append(at, " kernel_code=");
	at = append(at, first);
	at = append(at, "-");
	at = append(at, last);
	append(at, "\n");
	say(report);
	power_off();
}

/* The kernel starts init with the stack holding argc, argv and envp, which it does not need. */
#ifdef __x86_64__
__asm__(".globl _start\n_start:\n\txor %ebp, %ebp\n\tand $-16, %rsp\n\tcall init_main\n\thlt\n");
#else
__asm__(".globl _start\n_start:\n\txor %ebp, %ebp\n\tand $-16, %esp\n\tcall init_main\n\thlt\n");
#endif
