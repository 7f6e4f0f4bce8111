/* The firmware and the EFI system partition of a UEFI boot (see esp.h). */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/stat/esp.h"

/* The PE header: e_lfanew in the MZ header, then "PE\0\0" and the COFF machine. */
#define MZ_LFANEW_AT   0x3c
#define PE_MACHINE_X64 0x8664
#define COPY_CHUNK     (1 << 16)
#define NFTW_FDS       16

__attribute__((format(printf, 3, 4))) static int say(char *err, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, cap, fmt, ap);
	va_end(ap);
	return -1;
}

int esp_plan(struct uefi_plan *u, const char *ovmf_dir, bool boot_manager, char *err,
	     size_t err_cap)
{
	const char *dir = ovmf_dir ? ovmf_dir : ESP_OVMF_DIR;
	snprintf(u->code, sizeof(u->code), "%s/%s", dir, ESP_OVMF_CODE);
	snprintf(u->vars, sizeof(u->vars), "%s/%s", dir, ESP_OVMF_VARS);
	u->boot_manager = ESP_SYSTEMD_BOOT;
	const char *need[] = {u->code, u->vars};
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (access(need[i], R_OK))
			return -say(err, err_cap,
				    "%s: %s (Debian's ovmf package; --ovmf DIR names "
				    "another directory)",
				    need[i], strerror(errno));
	if (boot_manager && access(u->boot_manager, R_OK))
		return -say(err, err_cap,
			    "%s: %s (Debian's systemd-boot-efi package: it starts "
			    "the image with load options or an initrd)",
			    u->boot_manager, strerror(errno));
	return 0;
}

bool esp_is_x86_64_pe(const char *path)
{
	uint8_t mz[MZ_LFANEW_AT + 4], pe[6];
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	bool ok = fread(mz, 1, sizeof(mz), f) == sizeof(mz) && mz[0] == 'M' && mz[1] == 'Z';
	if (ok) {
		uint32_t at = (uint32_t)mz[MZ_LFANEW_AT] | (uint32_t)mz[MZ_LFANEW_AT + 1] << 8 |
			      (uint32_t)mz[MZ_LFANEW_AT + 2] << 16 |
			      (uint32_t)mz[MZ_LFANEW_AT + 3] << 24;
		ok = fseek(f, (long)at, SEEK_SET) == 0 &&
		     fread(pe, 1, sizeof(pe), f) == sizeof(pe) && !memcmp(pe, "PE\0\0", 4) &&
		     (pe[4] | pe[5] << 8) == PE_MACHINE_X64;
	}
	fclose(f);
	return ok;
}

bool esp_uses_boot_manager(const char *initrd, const char *append)
{
	return initrd || (append && *append);
}

static int copy_file(const char *from, const char *to, char *err, size_t cap)
{
	static char buf[COPY_CHUNK];
	int in = open(from, O_RDONLY), out = -1;
	if (in < 0)
		return say(err, cap, "%s: %s", from, strerror(errno));
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0) {
		close(in);
		return say(err, cap, "%s: %s", to, strerror(errno));
	}
	ssize_t n;
	int rc = 0;
	while (rc == 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			rc = say(err, cap, "%s: %s", to, strerror(errno));
	if (rc == 0 && n < 0)
		rc = say(err, cap, "%s: %s", from, strerror(errno));
	close(in);
	if (close(out) && rc == 0)
		rc = say(err, cap, "%s: %s", to, strerror(errno));
	return rc;
}

static int write_text(const char *path, const char *text, char *err, size_t cap)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return say(err, cap, "%s: %s", path, strerror(errno));
	int rc = fputs(text, f) < 0;
	if (fclose(f) || rc)
		return say(err, cap, "%s: cannot write", path);
	return 0;
}

/* The directories under the ESP, in the order they are made. */
static const char *const esp_dirs[] = {"EFI", "EFI/BOOT", "loader", "loader/entries"};

static int make(const struct uefi_plan *u, const char *dir, const char *vars, const char *image,
		const char *initrd, const char *append, char *err, size_t cap)
{
	char path[4096], entry[8192];
	if (copy_file(u->vars, vars, err, cap))
		return -1;
	if (mkdir(dir, 0755))
		return say(err, cap, "%s: %s", dir, strerror(errno));
	for (size_t i = 0; i < sizeof(esp_dirs) / sizeof(esp_dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, esp_dirs[i]);
		if (mkdir(path, 0755))
			return say(err, cap, "%s: %s", path, strerror(errno));
	}
	snprintf(path, sizeof(path), "%s/EFI/BOOT/BOOTX64.EFI", dir);
	if (!esp_uses_boot_manager(initrd, append))
		return copy_file(image, path, err, cap);
	if (copy_file(u->boot_manager, path, err, cap))
		return -1;
	snprintf(path, sizeof(path), "%s/kernel.efi", dir);
	if (copy_file(image, path, err, cap))
		return -1;
	if (initrd) {
		snprintf(path, sizeof(path), "%s/initrd.img", dir);
		if (copy_file(initrd, path, err, cap))
			return -1;
	}
	/* No menu: the default entry starts at once. */
	snprintf(path, sizeof(path), "%s/loader/loader.conf", dir);
	if (write_text(path, "timeout 0\ndefault kslide.conf\n", err, cap))
		return -1;
	snprintf(entry, sizeof(entry), "title kslide-stat\nlinux /kernel.efi\n%soptions %s\n",
		 initrd ? "initrd /initrd.img\n" : "", append ? append : "");
	snprintf(path, sizeof(path), "%s/loader/entries/kslide.conf", dir);
	return write_text(path, entry, err, cap);
}

int esp_make(const struct uefi_plan *u, const char *dir, const char *vars, const char *image,
	     const char *initrd, const char *append, char *err, size_t err_cap)
{
	int rc = make(u, dir, vars, image, initrd, append, err, err_cap);
	if (rc)
		esp_remove(dir, vars);
	return rc;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	remove(path);
	return 0;
}

void esp_remove(const char *dir, const char *vars)
{
	nftw(dir, remove_one, NFTW_FDS, FTW_DEPTH | FTW_PHYS);
	unlink(vars);
}
