#!/bin/sh
# The boot-linux stage: Debian's stock 686 and cloud-amd64 kernels, packed by kslide-pack
# (make linux-images), boot to the tests' init at the bases the stub chose: init's _text must
# be the stub's virtual base and "Kernel code" its physical one (tests/boot/qemu-boot.sh -L).
# Through QEMU's -kernel (the initramfs as -initrd, a Multiboot module) and through GRUB's
# multiboot2 + module2 under SeaBIOS and OVMF; -cpu qemu32/qemu64 and max; -m 512M to 6G on
# x86-64; cloud-amd64 also as a PVH ELF under QEMU's PVH loader (-M pc and -M microvm); nokaslr
# keeps both kernels at their link base (cloud-amd64's compressed image ends below it; its
# uncompressed one covers it, and is refused by name). cloud-amd64 as an EFI application
# (kslide-pack --format efi) started by OVMF's shell with load options and initrd=: Linux gets
# EFI, its runtime services list the EFI variables (efivarfs), and nokaslr keeps it at its link
# base; an initrd= file that is not there is refused before ExitBootServices, with an error
# status back to the shell (qemu-boot.sh -E); the same kernel packed --compress lz4 started by
# systemd-boot from a Type #1 entry, its initrd handed over through Linux's initrd device path
# (LoadFile2: the options carry no initrd= word) (qemu-boot.sh -E -B). The 686 packed with --debug-placement
# boots at chosen bases, where tests/linux/entry-proof.sh stops it at its entry and judges its
# memory. Two boots at a time.
# One TAP-style line per boot, then "boot-linux: N passed, M failed".
# usage: boot.sh BUILD_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)

[ $# -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
L=$1/linux
for f in 686.img 686-debug.img 686.iso cloud-amd64.img cloud-amd64.iso cloud-amd64-none.img \
	cloud-amd64-pvh.img cloud-amd64.efi cloud-amd64-lz4.efi i386/initramfs.cpio x86_64/initramfs.cpio; do
	[ -f "$L/$f" ] || { echo "boot-linux: $L/$f is missing: run make linux-images" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-boot-linux.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# The tests' Linux command line, which the ISOs carry too.
CMDLINE=$(cat "$here/cmdline")
I386="-L -t 180 -I $L/i386/initramfs.cpio $L/686.img"
X86_64="-L -a x86_64 -t 180 -I $L/x86_64/initramfs.cpio $L/cloud-amd64.img"
# Both kernels' link base (the setup header's pref_address, 16 MiB).
LINK_686="-e '^kslide: base=0xc1000000 phys=0x1000000 '"
GRUB="-L -D -t 240 -e 'loader=.GRUB'"
# name<TAB>qemu-boot.sh arguments, one boot per line.
{
	printf '686, -kernel, qemu32, 512M\t-c qemu32 -m 512M -A "%s" %s\n' "$CMDLINE" "$I386"
	printf '686, -kernel, max, 1G\t-c max -m 1G -A "%s" %s\n' "$CMDLINE" "$I386"
	printf '686, -kernel, nokaslr: the link base\t-c qemu32 -m 512M -A "nokaslr %s" %s %s\n' \
		"$CMDLINE" "$LINK_686" "$I386"
	# kslide.phys= takes a base on the image packed with --debug-placement (the 686 crash's
	# phys, docs/reliability.md), and is named and ignored on the ordinary one.
	printf '686, --debug-placement, kslide.phys=: that base\t-c max -m 1G -A "kslide.phys=0xc4be000 %s" %s %s\n' \
		"$CMDLINE" "-e '^kslide: base=0xcc4be000 phys=0xc4be000 '" \
		"-L -t 180 -I $L/i386/initramfs.cpio $L/686-debug.img"
	# What Linux finds at its entry (tests/linux/entry-proof.sh, no kslide code in the judge):
	# the kernel byte for byte as Linux's own list relocates it, the zero page, initrd and
	# command line, at that phys, the lowest slot and the highest.
	for p in 0xc4be000 0x1000000 top; do
		printf '686, entry proof at kslide.phys=%s\t--with linux/entry-proof.sh %s %s %s %s "%s"\n' "$p" \
			"$L/686-debug.img" "$L/686/vmlinuz" "$L/i386/initramfs.cpio" "$p" "$CMDLINE"
	done
	printf '686, ordinary image: kslide.phys= ignored\t-c max -m 1G -A "kslide.phys=0xc4be000 %s" %s %s\n' \
		"$CMDLINE" "-e '^kslide: kslide.phys= ignored: this image was not packed with --debug-placement' -N 'debug placement'" \
		"$I386"
	printf '686, GRUB BIOS, max, 512M\t%s -e map=mmap -c max -m 512M %s\n' "$GRUB" "$L/686.iso"
	printf '686, GRUB UEFI, 512M\t%s -e map=efi -U -m 512M %s\n' "$GRUB" "$L/686.iso"
	printf 'cloud-amd64, -kernel, qemu64, 512M\t-c qemu64 -m 512M -A "%s" %s\n' "$CMDLINE" "$X86_64"
	printf 'cloud-amd64, -kernel, max, 2G\t-c max -m 2G -A "%s" %s\n' "$CMDLINE" "$X86_64"
	printf 'cloud-amd64, -kernel, max, 6G\t-c max -m 6G -A "%s" %s\n' "$CMDLINE" "$X86_64"
	printf 'cloud-amd64, GRUB BIOS, max, 1G\t%s -e map=mmap -a x86_64 -c max -m 1G %s\n' \
		"$GRUB" "$L/cloud-amd64.iso"
	printf 'cloud-amd64, GRUB UEFI, 1G\t%s -e map=efi -U -m 1G %s\n' "$GRUB" "$L/cloud-amd64.iso"
	# As a PVH ELF (kslide-pack --format pvh): QEMU loads it by its PVH note, the initrd is
	# the start info's first module, and the stub enters Linux by its 64-bit boot protocol.
	printf 'cloud-amd64, PVH (-kernel ELF), pc, max, 2G\t-c max -m 2G -A "%s" %s %s\n' \
		"$CMDLINE" "-e '^kslide: loader=.* map=memmap '" \
		"-L -a x86_64 -t 180 -I $L/x86_64/initramfs.cpio $L/cloud-amd64-pvh.img"
	# Under microvm (qboot builds the start info) Linux has no HPET or PM timer, and its PIT
	# calibration fails at times under TCG: with -icount shift=0,sleep=off the TSC counts
	# instructions at exactly 1 GHz, and tsc_early_khz= tells Linux so (docs/microvm.md).
	printf 'cloud-amd64, PVH (-kernel ELF), microvm, max, 2G\t-M %s -i %s %s -A "%s" %s %s\n' \
		"microvm,x-option-roms=off,isa-serial=on,rtc=on" "shift=0,sleep=off" "-c max -m 2G" \
		"tsc_early_khz=1000000 $CMDLINE" "-e '^kslide: loader=.* map=memmap '" \
		"-L -a x86_64 -t 180 -I $L/x86_64/initramfs.cpio $L/cloud-amd64-pvh.img"
	# UEFI: OVMF's shell starts the PE with the tests' command line and initrd= as load
	# options (qemu-boot.sh -E); the stub reads the file from the ESP, exits boot services and
	# gives Linux efi_info, the e820 table and the RSDP as Linux's EFI stub would.
	EFI="-L -E -M q35 -t 240 -I $L/x86_64/initramfs.cpio $L/cloud-amd64.efi"
	EFI_ON="-e '^kslide: loader=.UEFI. map=EFI.memory.map ' -e '^kslide-linux: efi=yes' -e '^kslide-linux: efivars=0x0*[1-9a-f]'"
	# The firmware's own RSDP, where the configuration table says it is (no copy of it).
	EFI_ON="$EFI_ON -e '^kslide-linux: acpi_rsdp_addr=(0x[0-9a-f]+) efi_acpi20=\\1\$'"
	# OVMF's variables without keys: Secure Boot off, "disabled" (2) as Linux's stub says.
	EFI_ON="$EFI_ON -e '^kslide-linux: secure_boot=0x2$'"
	printf 'cloud-amd64 as PE, UEFI shell, initrd=, max, 1G: EFI variables listed\t-m 1G -A "%s" %s %s\n' \
		"$CMDLINE" "$EFI_ON" "$EFI"
	printf 'cloud-amd64 as PE, UEFI, nokaslr: the link base, EFI on\t-m 1G -A "nokaslr %s" %s %s %s\n' \
		"$CMDLINE" "-e '^kslide: base=0xffffffff81000000 phys=0x1000000 '" "$EFI_ON" "$EFI"
	# systemd-boot 252 (Debian's systemd-boot-efi) as BOOTX64.EFI, its entry's linux, initrd
	# and options lines: init runs at all only if the initrd arrived by LoadFile2.
	printf 'cloud-amd64 as PE (lz4), systemd-boot Type #1 entry, initrd by LoadFile2\t%s %s %s\n' \
		"-B -m 1G -A '$CMDLINE'" "$EFI_ON -e '^kslide-linux: initrd=0x'" \
		"-L -E -M q35 -t 240 -I $L/x86_64/initramfs.cpio $L/cloud-amd64-lz4.efi"
	printf 'cloud-amd64 as PE, UEFI, a missing initrd= file: refused, an error to the shell\t%s %s\n' \
		"-H -E -M q35 -m 1G -t 120 -A 'initrd=\\missing.img $CMDLINE'" \
		"-e 'initrd= file not found on the image.s device: .missing.img' -e '^kslide-test: returned 0x0*[1-9a-f]' $L/cloud-amd64.efi"
	# Compressed (kslide-pack's default for it, zstd: 9 MiB at 1 MiB) the image ends below
	# the link base, so nokaslr boots there; uncompressed (48 MiB) the stub refuses by name.
	printf 'cloud-amd64, -kernel, nokaslr: the link base\t-c qemu64 -m 1G -A "nokaslr %s" %s %s\n' \
		"$CMDLINE" "-e '^kslide: base=0xffffffff81000000 phys=0x1000000 '" "$X86_64"
	printf 'cloud-amd64 uncompressed, nokaslr: refused by name, then reset\t%s -A "nokaslr %s" %s %s\n' \
		"-H -a x86_64 -c qemu64 -m 1G -I $L/x86_64/initramfs.cpio" "$CMDLINE" \
		"-e 'link address 0x1000000 is not free usable memory: the packed image itself lies there'" \
		"$L/cloud-amd64-none.img"
} >"$work/cases"

"$here/../boot/parallel.sh" -j 2 -s boot-linux "$work"
