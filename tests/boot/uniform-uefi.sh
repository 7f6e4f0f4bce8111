#!/bin/sh
# The UEFI way in's draw, judged for uniformity at a fraction of the boots' cost: one OVMF
# boot (-M q35) whose shell starts the x86-64 reference kernel's PE, packed with
# --debug-placement, N times from its startup.nsh with kslide.trial (boot/efi_trial.c). Each
# start is a real draw of the UEFI entry (EFI_RNG_PROTOCOL and the CPU's sources, the EFI
# memory map read from the firmware, the slots counted, both bases drawn) that prints its
# kslide line and the usable map it counted over, then returns EFI_SUCCESS to the shell
# instead of leaving the firmware. The checker (tests/boot/uniformity.c) recounts the slots
# from that map and the image header, the image avoided where the loader line says the
# firmware put it, and judges the spread. A full OVMF boot of the same kernel costs about
# 5 s of CPU under TCG: N of them would cost minutes; the real boots are uefi.sh's.
# usage: uniform-uefi.sh BUILD_DIR N
set -u
B=$1 n=$2
OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.fd OVMF_VARS=/usr/share/OVMF/OVMF_VARS_4M.fd
# The shell's 5 s countdown, OVMF's start and N draws, with room for a busy host.
TIMEOUT=$((120 + n))
D=$(mktemp -d "${TMPDIR:-/tmp}/kslide-uniform-uefi.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT

mkdir -p "$D/esp" || exit 1
"$B/bin/kslide-pack" --format efi --debug-placement -o "$D/esp/kslide.efi" \
	"$B/x86_64/kernel.elf" 2>/dev/null || exit 1
printf 'for %%a run (1 %s)\r\n  fs0:\\kslide.efi kslide.trial\r\nendfor\r\nreset -s\r\n' "$n" \
	>"$D/esp/startup.nsh"
cp "$OVMF_VARS" "$D/vars.fd" || exit 1
timeout "$TIMEOUT" qemu-system-x86_64 -nodefaults -accel tcg -M q35 -m 256M -cpu max \
	-drive "if=pflash,format=raw,readonly=on,file=$OVMF_CODE" \
	-drive "if=pflash,format=raw,file=$D/vars.fd" \
	-drive "file=fat:rw:$D/esp,format=raw" -device virtio-rng-pci \
	-display none -monitor none -no-reboot -serial "file:$D/serial.log" </dev/null
status=$?
tr -d '\r' <"$D/serial.log" | grep -a '^kslide: ' >"$D/lines"
draws=$(grep -c '^kslide: base=' "$D/lines")
if [ "$status" != 0 ] || [ "$draws" -ne "$n" ] ||
	[ "$(grep -c '^kslide: usable=' "$D/lines")" -ne "$n" ]; then
	echo "uniform-uefi: $draws of $n trial draws reported (QEMU status $status); serial:"
	tr -d '\r' <"$D/serial.log" | sed 's/\x1b\[[0-9;=]*[a-zA-Z]//g' | tail -n 30 | sed 's/^/#  /'
	exit 1
fi
# Every draw credited EFI_RNG_PROTOCOL (virtio-rng): the firmware was asked each time.
if [ "$(grep -c '^kslide: base=.* entropy=[a-z,]*efirng' "$D/lines")" -ne "$n" ]; then
	echo "uniform-uefi: not every trial draw read EFI_RNG_PROTOCOL (efirng)"
	exit 1
fi
echo "uniform-uefi: $n trial draws in one firmware session; the first: $(grep -m 1 "^kslide: base=" "$D/lines")"
"$B/host/tests/uniformity" --image "$D/esp/kslide.efi" <"$D/lines"
