/*
 * The Linux tests' /init: reports where the running kernel really is and powers off. It prints
 *   kslide-linux: _text=0x<virtual> kernel_code=0x<first>-0x<last>
 * from /proc/kallsyms (_text: the virtual base) and /proc/iomem ("Kernel code": the physical
 * range), or "kslide-linux: error: ..." when it cannot. Then, for the slot recounts of
 * kslide-stat and the uniformity checker, what the loader gave the kernel:
 *   kslide-linux: usable=0x<start>-0x<end>,...   the boot memory map's RAM, [start, end)
 *   kslide-linux: initrd=0x<start>-0x<end>       where the initrd was, [start, end)
 *   kslide-linux: efi=yes|no                     whether the kernel runs with EFI
 *   kslide-linux: secure_boot=0x<0-3>            with EFI: boot_params.secure_boot (unset,
 *                                                unknown, disabled, enabled)
 *   kslide-linux: acpi_rsdp_addr=0x<a> efi_acpi20=0x<b>
 *                                                with EFI: where the loader said the RSDP
 *                                                is (boot_params.acpi_rsdp_addr) and where
 *                                                the firmware's configuration table says it
 *                                                is (/sys/firmware/efi/systab's ACPI20, or
 *                                                "none")
 *   kslide-linux: efivars=0x<count>              with EFI: the variables efivarfs lists (its
 *                                                module /efivarfs.ko loaded first when the
 *                                                initramfs has it), or "efivars=error: ..."
 *   kslide-linux: cmdline=<text>                 /proc/cmdline, the command line Linux got
 *   kslide-linux: lockdown=<text>                with securityfs's lockdown file: its line,
 *                                                the mode in use in brackets (Debian's
 *                                                kernels lock down under Secure Boot)
 *   kslide-linux: secureboot: <text>             the kernel log's "secureboot:" line, which
 *                                                says what Linux decided of Secure Boot
 *   kslide-linux: efi: memNN: <text>             with efi=debug on the command line: the
 *                                                kernel log's EFI memory map, the one its
 *                                                EFI stub exited boot services with, every
 *                                                descriptor (kslide-stat --uefi --linux
 *                                                models Linux's EFI-stub KASLR over it)
 *   kslide-linux: tpm-log=<hex>...               with a TPM: the event log Linux serves
 *                                                (binary_bios_measurements), 64 bytes a
 *                                                line, then "tpm-log-end=0x<bytes>"
 *   kslide-linux: pcr-sha256-N=<HEX>             with a TPM: its SHA-256 PCRs 0 to 23, read
 *                                                through Linux's sysfs
 *   kslide-linux: tsc=0x<count>                  the TSC as init began (bench/whole-boot-cost.sh:
 *                                                under -icount shift=0, the instructions run
 *                                                since reset, plus the time skipped while halted)
 * from /sys/firmware/memmap (the e820 table as the kernel received it), the zero page
 * (/sys/kernel/boot_params/data) and /sys/firmware/efi, which exists only when the kernel
 * was handed an EFI system table. Freestanding, raw system calls, built for i386 and x86-64
 * (mk/linux.mk); no libc, so it runs on any kernel of either arch.
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
#define SYS_GETDENTS64 217
#define SYS_FINIT_MODULE 313
#define SYS_SYSLOG 103
#else
#define SYS_READ 3
#define SYS_WRITE 4
#define SYS_OPEN 5
#define SYS_CLOSE 6
#define SYS_MKDIR 39
#define SYS_MOUNT 21
#define SYS_REBOOT 88
#define SYS_GETDENTS64 220
#define SYS_FINIT_MODULE 350
#define SYS_SYSLOG 103
#endif

#define O_RDONLY 0
#define O_DIRECTORY 0200000 /* include/uapi/asm-generic/fcntl.h, as x86 uses it */
#define MS_RDONLY 1
#define DIRENT64_RECLEN 16 /* struct linux_dirent64: u64 ino, s64 off, then u16 reclen */
#define DIRENT64_NAME 19   /* ... u8 type, then the name */
#define STDOUT 1
#define PROC_MODE 0555
#define SYS_MODE  0555
/* Offsets in struct boot_params: Linux's Documentation/arch/x86/zero-page.rst and boot.rst. */
#define ZP_ACPI_RSDP_ADDR    0x070
#define ZP_EXT_RAMDISK_IMAGE 0x0c0
#define ZP_EXT_RAMDISK_SIZE  0x0c4
#define ZP_SECURE_BOOT	     0x1ec
#define ZP_RAMDISK_IMAGE     0x218
#define ZP_RAMDISK_SIZE	     0x21c
#define ZERO_PAGE_BYTES	     4096
#define MEMMAP_ENTRIES_MAX   128 /* E820_MAX_ENTRIES_ZEROPAGE is 128 */
#define REPORT_BYTES	     4096
/* include/uapi/linux/reboot.h */
#define LINUX_REBOOT_MAGIC1 0xfee1deadu
#define LINUX_REBOOT_MAGIC2 672274793u
#define LINUX_REBOOT_CMD_POWER_OFF 0x4321fedcu

#define LINE_MAX_BYTES 256
#define SYSLOG_ACTION_READ_ALL 3 /* include/linux/syslog.h */
#define KERNEL_LOG_MAX (256 * 1024)
#define TPM_LOG_MAX (256 * 1024) /* a firmware's log is some tens of KiB */
#define TPM_LOG_LINE 64
#define TPM_PCRS 24
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

/* Reads up to cap bytes of path; the count, or -1. */
static long read_file(const char *path, void *buf, long cap)
{
	long fd = syscall5(SYS_OPEN, (long)path, O_RDONLY, 0, 0, 0);
	if (fd < 0)
		return -1;
	long total = 0, n;
	while (total < cap &&
	       (n = syscall5(SYS_READ, fd, (long)((char *)buf + total), cap - total, 0, 0)) > 0)
		total += n;
	syscall5(SYS_CLOSE, fd, 0, 0, 0, 0);
	return total;
}

/* "0x3ffdffff\n" (sysfs's firmware memmap): the value; -1 when there are no digits. */
static int parse_hex(const char *s, uint64_t *out)
{
	if (s[0] == '0' && s[1] == 'x')
		s += 2;
	if (!is_hex(*s))
		return -1;
	uint64_t v = 0;
	for (; is_hex(*s); s++)
		v = v << 4 | (uint64_t)(*s <= '9' ? *s - '0' : *s - 'a' + 10);
	*out = v;
	return 0;
}

static char *append_hex(char *at, uint64_t v)
{
	char digits[16];
	int n = 0;
	do {
		digits[n++] = "0123456789abcdef"[v & 0xf];
		v >>= 4;
	} while (v);
	at = append(at, "0x");
	while (n)
		*at++ = digits[--n];
	*at = '\0';
	return at;
}

/* /sys/firmware/memmap/N/NAME into buf (NUL-terminated); -1 if it cannot be read. */
static int memmap_field(unsigned n, const char *name, char *buf, long cap)
{
	char path[64];
	char *at = append(path, "/sys/firmware/memmap/");
	char number[12];
	int len = 0;
	do {
		number[len++] = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	while (len)
		*at++ = number[--len];
	*at++ = '/';
	append(at, name);
	long got = read_file(path, buf, cap - 1);
	if (got < 0)
		return -1;
	buf[got] = '\0';
	return 0;
}

/* "kslide-linux: usable=..." from the firmware memmap's "System RAM" entries, in its order. */
static void report_usable(void)
{
	static char report[REPORT_BYTES];
	char field[32];
	char *at = append(report, "kslide-linux: usable=");
	int any = 0;
	for (unsigned n = 0; n < MEMMAP_ENTRIES_MAX; n++) {
		uint64_t start, end;
		if (memmap_field(n, "type", field, sizeof(field)))
			break;
		if (!ends_with(field, "System RAM\n"))
			continue;
		if (memmap_field(n, "start", field, sizeof(field)) || parse_hex(field, &start) ||
		    memmap_field(n, "end", field, sizeof(field)) || parse_hex(field, &end)) {
			say("kslide-linux: error: unreadable /sys/firmware/memmap entry\n");
			return;
		}
		if (any)
			at = append(at, ",");
		at = append_hex(at, start);
		at = append(at, "-");
		at = append_hex(at, end + 1); /* sysfs gives the last byte */
		any = 1;
	}
	if (!any) {
		say("kslide-linux: error: no System RAM in /sys/firmware/memmap\n");
		return;
	}
	append(at, "\n");
	say(report);
}

static uint64_t zero_page_u32(const uint8_t *zp, unsigned offset)
{
	return (uint64_t)zp[offset] | (uint64_t)zp[offset + 1] << 8 |
	       (uint64_t)zp[offset + 2] << 16 | (uint64_t)zp[offset + 3] << 24;
}

/* "kslide-linux: initrd=..." from the zero page the kernel was started with. */
static void report_initrd(void)
{
	static uint8_t zp[ZERO_PAGE_BYTES];
	static char report[96];
	if (read_file("/sys/kernel/boot_params/data", zp, sizeof(zp)) < ZP_RAMDISK_SIZE + 4) {
		say("kslide-linux: error: cannot read /sys/kernel/boot_params/data\n");
		return;
	}
	uint64_t start =
		zero_page_u32(zp, ZP_EXT_RAMDISK_IMAGE) << 32 | zero_page_u32(zp, ZP_RAMDISK_IMAGE);
	uint64_t size =
		zero_page_u32(zp, ZP_EXT_RAMDISK_SIZE) << 32 | zero_page_u32(zp, ZP_RAMDISK_SIZE);
	if (size == 0)
		return;
	char *at = append(report, "kslide-linux: initrd=");
	at = append_hex(at, start);
	at = append(at, "-");
	at = append_hex(at, start + size);
	append(at, "\n");
	say(report);
}

/* What the loader said of Secure Boot. */
static void report_secure_boot(void)
{
	static uint8_t zp[ZERO_PAGE_BYTES];
	static char report[48];
	if (read_file("/sys/kernel/boot_params/data", zp, sizeof(zp)) <= ZP_SECURE_BOOT)
		return; /* report_initrd has said so */
	char *at = append(report, "kslide-linux: secure_boot=");
	at = append_hex(at, zp[ZP_SECURE_BOOT]);
	append(at, "\n");
	say(report);
}

/* "ACPI20=0x7fb7e014" */
static int is_acpi20(const char *line)
{
	return line[0] == 'A' && line[1] == 'C' && line[2] == 'P' && line[3] == 'I' &&
	       line[4] == '2' && line[5] == '0' && line[6] == '=';
}

/* The RSDP's address as the loader gave it, beside the firmware's own. */
static void report_acpi_rsdp(void)
{
	static uint8_t zp[ZERO_PAGE_BYTES];
	static char report[96], systab[LINE_MAX_BYTES];
	if (read_file("/sys/kernel/boot_params/data", zp, sizeof(zp)) < ZP_ACPI_RSDP_ADDR + 8)
		return; /* report_initrd has said so */
	uint64_t given = zero_page_u32(zp, ZP_ACPI_RSDP_ADDR + 4) << 32 |
			 zero_page_u32(zp, ZP_ACPI_RSDP_ADDR);
	char *at = append(report, "kslide-linux: acpi_rsdp_addr=");
	at = append_hex(at, given);
	at = append(at, " efi_acpi20=");
	if (find_line("/sys/firmware/efi/systab", is_acpi20, systab) == 0)
		at = append(at, systab + 7);
	else
		at = append(at, "none");
	append(at, "\n");
	say(report);
}

/* The EFI variables Linux can read through its runtime services, counted in efivarfs. */
static void report_efivars(void)
{
	static char dents[READ_CHUNK], report[64];
	long fd = syscall5(SYS_OPEN, (long)"/efivarfs.ko", O_RDONLY, 0, 0, 0);
	if (fd >= 0) {
		/* An error (already loaded, or built in) shows in the mount below. */
		syscall5(SYS_FINIT_MODULE, fd, (long)"", 0, 0, 0);
		syscall5(SYS_CLOSE, fd, 0, 0, 0, 0);
	}
	if (syscall5(SYS_MOUNT, (long)"efivarfs", (long)"/sys/firmware/efi/efivars",
		     (long)"efivarfs", MS_RDONLY, 0) < 0) {
		say("kslide-linux: efivars=error: cannot mount efivarfs\n");
		return;
	}
	long dir = syscall5(SYS_OPEN, (long)"/sys/firmware/efi/efivars", O_RDONLY | O_DIRECTORY,
			    0, 0, 0);
	if (dir < 0) {
		say("kslide-linux: efivars=error: cannot open efivarfs\n");
		return;
	}
	uint64_t count = 0;
	long n;
	while ((n = syscall5(SYS_GETDENTS64, dir, (long)dents, sizeof(dents), 0, 0)) > 0) {
		for (long at = 0; at < n;) {
			const char *name = dents + at + DIRENT64_NAME;
			if (!(name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))))
				count++;
			at += (uint16_t)((uint8_t)dents[at + DIRENT64_RECLEN] |
					 (uint8_t)dents[at + DIRENT64_RECLEN + 1] << 8);
		}
	}
	syscall5(SYS_CLOSE, dir, 0, 0, 0, 0);
	char *at = append(report, "kslide-linux: efivars=");
	at = append_hex(at, count);
	append(at, "\n");
	say(report);
}

/* The TPM's event log as Linux read it, and its SHA-256 PCRs: tests/linux/tpm-replay.py
 * replays the one and compares it with the other. */
static void report_tpm(void)
{
	static uint8_t log[TPM_LOG_MAX];
	static char line[64 + 2 * TPM_LOG_LINE + 2], path[64], pcr[2 * 64 + 2];
	long size = read_file("/sys/kernel/security/tpm0/binary_bios_measurements", log,
			      sizeof(log));
	if (size < 0 || size == (long)sizeof(log)) {
		say(size < 0 ? "kslide-linux: tpm-log=error: no binary_bios_measurements\n"
			     : "kslide-linux: tpm-log=error: longer than init reads\n");
		return;
	}
	for (long at = 0; at < size; at += TPM_LOG_LINE) {
		char *p = append(line, "kslide-linux: tpm-log=");
		for (long i = at; i < size && i < at + TPM_LOG_LINE; i++) {
			*p++ = "0123456789abcdef"[log[i] >> 4];
			*p++ = "0123456789abcdef"[log[i] & 0xf];
		}
		append(p, "\n");
		say(line);
	}
	char *p = append(line, "kslide-linux: tpm-log-end=");
	append(append_hex(p, (uint64_t)size), "\n");
	say(line);
	for (unsigned n = 0; n < TPM_PCRS; n++) {
		char number[3] = {(char)('0' + n / 10), (char)('0' + n % 10), 0};
		append(append(path, "/sys/class/tpm/tpm0/pcr-sha256/"), number + (n < 10));
		long got = read_file(path, pcr, sizeof(pcr) - 1);
		if (got <= 0)
			continue;
		pcr[got] = '\0';
		if (pcr[got - 1] == '\n')
			pcr[got - 1] = '\0';
		p = append(append(line, "kslide-linux: pcr-sha256-"), number + (n < 10));
		append(append(append(p, "="), pcr), "\n");
		say(line);
	}
}

/* "kslide-linux: NAME=" and the first line of path, if it can be read. */
static void report_first_line(const char *name, const char *path)
{
	static char text[LINE_MAX_BYTES], line[LINE_MAX_BYTES + 32];
	long got = read_file(path, text, sizeof(text) - 1);
	if (got <= 0)
		return;
	text[got] = '\0';
	for (long i = 0; i < got; i++)
		if (text[i] == '\n')
			text[i] = '\0';
	append(append(append(append(line, "kslide-linux: "), name), "="), text);
	append(line + length(line), "\n");
	say(line);
}

/* The kernel log's first line that holds 'what' (every one with 'all'), after its
 * "<level>[time] " prefix: "kslide-linux: " and the rest of the line. Nothing when no line
 * has it. */
static void report_kernel_lines(const char *what, int all)
{
	static char log[KERNEL_LOG_MAX], line[LINE_MAX_BYTES + 32];
	long size = syscall5(SYS_SYSLOG, SYSLOG_ACTION_READ_ALL, (long)log, sizeof(log) - 1, 0, 0);
	if (size <= 0)
		return;
	log[size] = '\0';
	size_t n = length(what);
	for (long at = 0; at < size; at++) {
		size_t i = 0;
		while (i < n && log[at + i] == what[i])
			i++;
		if (i < n)
			continue;
		char *p = append(line, "kslide-linux: ");
		for (long k = at; k < size && log[k] != '\n' && p < line + sizeof(line) - 2; k++)
			*p++ = log[k];
		append(p, "\n");
		say(line);
		if (!all)
			return;
	}
}

void init_main(void)
{
	static char symbol[LINE_MAX_BYTES], iomem[LINE_MAX_BYTES];
	static char text[32], first[32], last[32], report[160];
	uint32_t tsc_low, tsc_high; /* first, so that init's own work is not counted */
	__asm__ volatile("rdtsc" : "=a"(tsc_low), "=d"(tsc_high));
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
	syscall5(SYS_MKDIR, (long)"/sys", SYS_MODE, 0, 0, 0);
	if (syscall5(SYS_MOUNT, (long)"sysfs", (long)"/sys", (long)"sysfs", 0, 0) < 0) {
		say("kslide-linux: error: cannot mount /sys\n");
		power_off();
	}
	report_usable();
	report_initrd();
	long efi = syscall5(SYS_OPEN, (long)"/sys/firmware/efi", O_RDONLY, 0, 0, 0);
	say(efi >= 0 ? "kslide-linux: efi=yes\n" : "kslide-linux: efi=no\n");
	if (efi >= 0) {
		syscall5(SYS_CLOSE, efi, 0, 0, 0, 0);
		report_secure_boot();
		report_acpi_rsdp();
		report_efivars();
	}
	report_first_line("cmdline", "/proc/cmdline");
	/* An error (no securityfs in this kernel) shows as the lines below missing. */
	syscall5(SYS_MOUNT, (long)"securityfs", (long)"/sys/kernel/security", (long)"securityfs",
		 0, 0);
	report_first_line("lockdown", "/sys/kernel/security/lockdown");
	report_kernel_lines("secureboot: ", 0);
	report_kernel_lines("efi: mem", 1);
	long tpm = syscall5(SYS_OPEN, (long)"/sys/class/tpm/tpm0", O_RDONLY, 0, 0, 0);
	if (tpm >= 0) {
		syscall5(SYS_CLOSE, tpm, 0, 0, 0, 0);
		report_tpm();
	}
	at = append(report, "kslide-linux: tsc=");
	at = append_hex(at, (uint64_t)tsc_high << 32 | tsc_low);
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
