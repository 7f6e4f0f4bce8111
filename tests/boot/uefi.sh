#!/bin/sh
# UEFI firmware (Debian's OVMF, -M q35) starts kslide images packed --format efi as
# \EFI\BOOT\BOOTX64.EFI from an ESP (a FAT directory, QEMU's fat: driver). The firmware is the
# judge that the PE loads and is called; the kernel's self-check that it runs where the stub
# says.
#   - The x86-64 reference kernels (kernel model and PIE), twice each (the kernel model's
#     second boot is the signed one under Secure Boot, below): the stub reads the EFI memory
#     map it exits boot services with, and the kernel passes its self-check at the stub's
#     base, in its half of the address space (qemu-boot.sh -E).
#   - The same PE is a Multiboot image too (its headers stretched over the image, as in a
#     flat one): QEMU's -kernel starts the kernel model's PE as Multiboot, and it passes.
#   - GRUB's chainloader (a standalone x86_64-efi GRUB as BOOTX64.EFI, grub-mkstandalone)
#     starts the kernel model's PE with load options: kslide.entropy=rdtsc,pit reaches the
#     stub (its kslide line names only those sources) and the kernel passes.
#   - With a virtio-rng device, OVMF's EFI_RNG_PROTOCOL answers: the stub reads it before
#     ExitBootServices and credits it as the source efirng (credit-rule.py judges the credit).
#   - A byte of the relocation table flipped, which the image's CRC-32 covers: the stub
#     refuses on COM1 before ExitBootServices and returns EFI_LOAD_ERROR to the firmware,
#     which must report the start as failed with that status ("Load Error") and go on to its
#     next boot option; never a hang.
#   - A byte of the payload flipped, which its word sums see only as it is copied, after
#     ExitBootServices: nothing to return to; the stub refuses and resets the machine.
#   - Secure Boot (secure-boot.sh, one boot): the kernel model signed by kslide-pack --sign
#     starts; unsigned, signed with another key, or altered in one byte, it is refused.
# usage: uefi.sh BUILD_DIR
set -u
B=$1
here=$(dirname "$0")
OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.fd OVMF_VARS=/usr/share/OVMF/OVMF_VARS_4M.fd
TIMEOUT=120
BOOTS=2
D=$(mktemp -d "${TMPDIR:-/tmp}/kslide-uefi.XXXXXX") || exit 1
qemu=
trap '[ -n "$qemu" ] && kill "$qemu" 2>/dev/null; rm -rf "$D"' EXIT
status=0

# The reference kernel's boot info carries the firmware's system table (its bootinfo self-check
# prints it and checks the width against it).
pass="-e ^kernel:.self-check.passed -e ^kslide:.loader=.UEFI..map=EFI.memory.map
	-e ^#.efi:.64-bit.firmware,.system.table.at.0x[0-9a-f]+"
for k in kernel:0xffffffff:1 kernel-pie:0xffff[89a-f]:$BOOTS; do
	name=${k%%:*} half=${k#*:} boots=${k##*:}
	half=${half%:*}
	"$B/bin/kslide-pack" --format efi -o "$D/$name.efi" "$B/x86_64/$name.elf" || exit 1
	n=0
	while [ $n -lt "$boots" ]; do
		n=$((n + 1))
		# shellcheck disable=SC2086 # $pass is a list of options
		if line=$("$here/qemu-boot.sh" -E -M q35 -m 256M -t $TIMEOUT $pass -e "base=$half" \
			"$D/$name.efi"); then
			echo "ok - UEFI: $name.elf as BOOTX64.EFI, boot $n: $line"
		else
			echo "not ok - UEFI: $name.elf as BOOTX64.EFI, boot $n: no pass at a base in its half"
			status=1
		fi
	done
done

# QEMU's Multiboot loader reads the headers inside the PE and loads the image behind its
# PE headers, at the Multiboot header's load address.
if line=$("$here/qemu-boot.sh" -a x86_64 -c max -m 256M -t $TIMEOUT \
	-e '^kslide: loader=.qemu' -e '^kernel:.self-check.passed' "$D/kernel.efi"); then
	echo "ok - the PE as a Multiboot image, QEMU's -kernel: $line"
else
	echo "not ok - the PE under QEMU's -kernel: not started as a Multiboot image"
	status=1
fi

# shellcheck disable=SC2086 # $pass is a list of options
if line=$("$here/qemu-boot.sh" -E -M q35 -m 256M -t $TIMEOUT -d virtio-rng-pci $pass \
	-e 'entropy=[a-z,]*efirng credited=' "$D/kernel-pie.efi"); then
	echo "ok - UEFI: with virtio-rng, EFI_RNG_PROTOCOL credited as efirng: $line"
else
	echo "not ok - UEFI: with virtio-rng, no efirng on the kslide line"
	status=1
fi

# GRUB on UEFI, as docs/uefi.md shows it: chainloader with the options after the path.
mkdir -p "$D/grub/EFI/BOOT" && cp "$D/kernel.efi" "$D/grub/kslide.efi" || exit 1
cat >"$D/grub.cfg" <<'CFG'
set timeout=0
serial --unit=0 --speed=115200
terminal_input serial console
terminal_output serial console
search --no-floppy --file --set=root /kslide.efi
chainloader /kslide.efi kslide.entropy=rdtsc,pit
boot
CFG
grub-mkstandalone -O x86_64-efi -o "$D/grub/EFI/BOOT/BOOTX64.EFI" \
	--modules="part_gpt part_msdos fat search chain serial" "boot/grub/grub.cfg=$D/grub.cfg" ||
	exit 1
cp "$OVMF_VARS" "$D/grub-vars.fd" || exit 1
timeout $TIMEOUT qemu-system-x86_64 -nodefaults -accel tcg -M q35 -m 256M -cpu max \
	-drive "if=pflash,format=raw,readonly=on,file=$OVMF_CODE" \
	-drive "if=pflash,format=raw,file=$D/grub-vars.fd" -drive "file=fat:rw:$D/grub,format=raw" \
	-display none -monitor none -no-reboot -serial "file:$D/grub.log" \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 </dev/null 2>"$D/qemu.err"
chained=$?
line=$(tr -d '\r' <"$D/grub.log" | grep -a '^kslide: base=')
# isa-debug-exit's status 1: the kernel's pass.
if [ "$chained" = 1 ] && echo "$line" | grep -q ' entropy=rdtsc,pit credited=' &&
	tr -d '\r' <"$D/grub.log" | grep -aq '^kslide: loader=.UEFI. ' &&
	tr -d '\r' <"$D/grub.log" | grep -aq '^kernel: self-check passed'; then
	echo "ok - UEFI: GRUB's chainloader with load options: $line"
else
	echo "not ok - UEFI: GRUB's chainloader: no pass with kslide.entropy=rdtsc,pit (QEMU status $chained); serial:"
	tr -d '\r' <"$D/grub.log" | sed 's/\x1b\[[0-9;=]*[a-zA-Z]//g' | tail -n 20 | sed 's/^/#  /'
	status=1
fi

python3 "$here/patch-image.py" "$D/kernel.efi" "$D/payload.efi" --flip payload:4096 || exit 1
if line=$("$here/qemu-boot.sh" -E -M q35 -m 256M -t $TIMEOUT -H \
	-e '^kslide: error: image rejected: checksum mismatch' "$D/payload.efi"); then
	echo "ok - UEFI: a payload byte flipped, seen after ExitBootServices: \"$line\", and a reset"
else
	echo "not ok - UEFI: a payload byte flipped: no refusal and reset"
	status=1
fi

python3 "$here/patch-image.py" "$D/kernel.efi" "$D/flipped.efi" --flip relocs:16 || exit 1
mkdir -p "$D/esp/EFI/BOOT" && cp "$D/flipped.efi" "$D/esp/EFI/BOOT/BOOTX64.EFI" || exit 1
cp "$OVMF_VARS" "$D/vars.fd" || exit 1
qemu-system-x86_64 -nodefaults -accel tcg -M q35 -m 256M -cpu max \
	-drive "if=pflash,format=raw,readonly=on,file=$OVMF_CODE" \
	-drive "if=pflash,format=raw,file=$D/vars.fd" \
	-drive "file=fat:rw:$D/esp,format=raw" \
	-display none -monitor none -no-reboot -serial "file:$D/serial.log" </dev/null \
	2>"$D/qemu.err" &
qemu=$!
# OVMF's boot manager names the option it started and, when the image returns an error, that
# error ("BdsDxe: failed to start Boot0001 ... : Load Error").
refused='BdsDxe: failed to start .*: Load Error'
waited=0
while [ $waited -lt $TIMEOUT ] && kill -0 "$qemu" 2>/dev/null &&
	! grep -aq "$refused" "$D/serial.log" 2>/dev/null; do
	sleep 1
	waited=$((waited + 1))
done
kill "$qemu" 2>/dev/null
wait "$qemu" 2>/dev/null
qemu=
line=$(grep -a '^kslide: error' "$D/serial.log" | tr -d '\r')
if grep -aq "$refused" "$D/serial.log" &&
	grep -aq '^kslide: error: image rejected: checksum mismatch' "$D/serial.log" &&
	! grep -aq '^kslide: base=' "$D/serial.log" &&
	! grep -a -B2 "$refused" "$D/serial.log" | grep -aq 'BdsDxe: failed to load'; then
	echo "ok - UEFI: a relocation byte flipped: \"$line\", and EFI_LOAD_ERROR back to the firmware"
else
	echo "not ok - UEFI: flipped relocation table not refused on COM1, or no error returned to the firmware within ${TIMEOUT}s; serial:"
	tr -d '\r' <"$D/serial.log" | sed 's/\x1b\[[0-9;=]*[a-zA-Z]//g; s/^/#  /'
	status=1
fi

"$here/secure-boot.sh" "$B" || status=1
exit $status
