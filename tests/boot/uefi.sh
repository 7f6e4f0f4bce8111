#!/bin/sh
# The x86-64 reference kernel packed --format efi, started by UEFI firmware (Debian's OVMF) as
# \EFI\BOOT\BOOTX64.EFI from an ESP (a FAT directory, QEMU's fat: driver) under -M q35. The EFI
# entry does not start a kernel yet (boot/x86_64/efi_entry.S): it must say so on COM1 and
# return an error to the firmware, which must report the start as failed with that status
# ("Unsupported") and go on to its next boot option; never a hang. The firmware is the judge:
# it found, loaded and called the PE, and got our status back.
# usage: uefi.sh BUILD_DIR
set -u
B=$1
OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.fd OVMF_VARS=/usr/share/OVMF/OVMF_VARS_4M.fd
TIMEOUT=120
D=$(mktemp -d "${TMPDIR:-/tmp}/kslide-uefi.XXXXXX") || exit 1
qemu=
trap '[ -n "$qemu" ] && kill "$qemu" 2>/dev/null; rm -rf "$D"' EXIT
mkdir -p "$D/esp/EFI/BOOT" || exit 1
"$B/bin/kslide-pack" --format efi -o "$D/esp/EFI/BOOT/BOOTX64.EFI" "$B/x86_64/kernel.elf" ||
	exit 1
cp "$OVMF_VARS" "$D/vars.fd" || exit 1
qemu-system-x86_64 -nodefaults -accel tcg -M q35 -m 256M -cpu max \
	-drive "if=pflash,format=raw,readonly=on,file=$OVMF_CODE" \
	-drive "if=pflash,format=raw,file=$D/vars.fd" \
	-drive "file=fat:rw:$D/esp,format=raw" \
	-display none -monitor none -no-reboot -serial "file:$D/serial.log" </dev/null \
	2>"$D/qemu.err" &
qemu=$!
# OVMF's boot manager names the option it started and, when the image returns an error, that
# error ("BdsDxe: failed to start Boot0002 ... : Unsupported").
refused='BdsDxe: failed to start .*: Unsupported'
waited=0
while [ $waited -lt $TIMEOUT ] && kill -0 "$qemu" 2>/dev/null &&
	! grep -aq "$refused" "$D/serial.log" 2>/dev/null; do
	sleep 1
	waited=$((waited + 1))
done
kill "$qemu" 2>/dev/null
wait "$qemu" 2>/dev/null
qemu=
line=$(grep -a '^kslide: ' "$D/serial.log" | tr -d '\r')
if grep -aq "$refused" "$D/serial.log" &&
	grep -aq '^kslide: started by UEFI, whose entry is not written yet' "$D/serial.log" &&
	! grep -a -B2 "$refused" "$D/serial.log" | grep -aq 'BdsDxe: failed to load'; then
	echo "ok - UEFI: OVMF starts BOOTX64.EFI (--format efi), which says \"$line\" and returns EFI_UNSUPPORTED to the firmware"
else
	echo "not ok - UEFI: BOOTX64.EFI not started, or no kslide line, or no error returned to the firmware within ${TIMEOUT}s; serial:"
	tr -d '\r' <"$D/serial.log" | sed 's/\x1b\[[0-9;=]*[a-zA-Z]//g; s/^/#  /'
	exit 1
fi
