#!/bin/sh
# UEFI Secure Boot judges kslide-pack --sign: Debian's snakeoil OVMF (Secure Boot on, its db
# holding the PkKek-1-snakeoil certificate; q35 with SMM, the variables' flash secure) must
# start the x86-64 reference kernel signed with that key (and it must pass at a base in the
# top 2 GiB, with its entropy credit by the stub's rules: uefi.sh counts this boot as the
# kernel model's second from UEFI), and refuse, before running a byte
# of it, the same image unsigned, signed with another key, and signed then altered in one
# byte of the PE headers, the stub, the payload and the relocation table.
# All in one boot, so that it costs one firmware start: each image is BOOTX64.EFI on its own
# disk (a virtio-blk device at a PCI slot of its own), the boot order (bootindex) puts the
# refused ones first and the good one last. OVMF's boot manager names each option it tries
# by its device path and says why it failed ("failed to load ... Pci(0x11,0x0): Access
# Denied"); the good one ends the run through isa-debug-exit, so no case can hang, and the
# timeout bounds the rest.
# usage: secure-boot.sh BUILD_DIR
set -u
B=$1
here=$(dirname "$0")
OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.snakeoil.fd OVMF_VARS=/usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd
KEY=/usr/share/ovmf/PkKek-1-snakeoil.key CERT=/usr/share/ovmf/PkKek-1-snakeoil.pem
# A bound on a hang only (the run ends on its own either way): 20 times what the boot takes on
# an idle machine, since beside other work and the check's other stage it shares the cores.
TIMEOUT=300
D=$(mktemp -d "${TMPDIR:-/tmp}/kslide-secure-boot.XXXXXX") || exit 1
qemu=
trap '[ -n "$qemu" ] && kill "$qemu" 2>/dev/null; rm -rf "$D"' EXIT
for f in "$OVMF_CODE" "$OVMF_VARS" "$KEY" "$CERT"; do
	[ -f "$f" ] || { echo "not ok - Secure Boot: $f is missing (Debian's ovmf)"; exit 1; }
done

# The passphrase Debian's ovmf gives its test key (README.Debian).
echo snakeoil >"$D/pass"
PACK=$B/bin/kslide-pack K=$B/x86_64/kernel.elf
"$PACK" --format efi --sign "$KEY" --cert "$CERT" --key-pass "$D/pass" -o "$D/good.efi" "$K" &&
	"$PACK" --format efi -o "$D/unsigned.efi" "$K" &&
	openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=kslide-other -days 1 \
		-keyout "$D/other.key" -out "$D/other.crt" 2>/dev/null &&
	"$PACK" --format efi --sign "$D/other.key" --cert "$D/other.crt" -o "$D/other-key.efi" "$K" &&
	for part in stub:64 payload:4096 relocs:16; do
		python3 "$here/patch-image.py" "$D/good.efi" "$D/altered-${part%%:*}.efi" \
			--flip "$part" || exit 1
	done &&
	# A byte of the PE headers' page past the section header: hashed, read by no one else.
	python3 -c 'import sys; d = bytearray(open(sys.argv[1], "rb").read()); d[0x200] ^= 0xff
open(sys.argv[2], "wb").write(d)' "$D/good.efi" "$D/altered-headers.efi" || exit 1

# Refused first, in this order; then the good one. Disk i sits at PCI slot 0x10 + i.
cases="unsigned other-key altered-headers altered-stub altered-payload altered-relocs good"
set --
i=0
for c in $cases; do
	mkdir -p "$D/esp-$c/EFI/BOOT" && cp "$D/$c.efi" "$D/esp-$c/EFI/BOOT/BOOTX64.EFI" || exit 1
	set -- "$@" -drive "file=fat:$D/esp-$c,format=raw,if=none,id=disk$i,readonly=on" \
		-device "virtio-blk-pci,drive=disk$i,addr=$(printf 0x%x $((0x10 + i))),bootindex=$i"
	i=$((i + 1))
done
cp "$OVMF_VARS" "$D/vars.fd" || exit 1
qemu-system-x86_64 -nodefaults -accel tcg -M q35,smm=on -cpu max -m 256M \
	-global driver=cfi.pflash01,property=secure,value=on \
	-drive "if=pflash,format=raw,unit=0,readonly=on,file=$OVMF_CODE" \
	-drive "if=pflash,format=raw,unit=1,file=$D/vars.fd" "$@" \
	-display none -monitor none -no-reboot -serial "file:$D/serial.log" \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 </dev/null 2>"$D/qemu.err" &
qemu=$!
# The good image ends QEMU itself; if it too is refused, OVMF has no option left, says so and
# waits for a key: that line ends the run at once, the timeout only a hang.
none_left='BdsDxe: No bootable option or device was found'
waited=0
while [ $waited -lt $TIMEOUT ] && kill -0 "$qemu" 2>/dev/null &&
	! grep -aq "$none_left" "$D/serial.log" 2>/dev/null; do
	sleep 1
	waited=$((waited + 1))
done
kill "$qemu" 2>/dev/null
wait "$qemu"
rc=$?
qemu=
tr -d '\r' <"$D/serial.log" | sed 's/\x1b\[[0-9;=]*[a-zA-Z]//g' >"$D/log"

status=0
i=0
for c in $cases; do
	slot=$(printf 'Pci(0x%x,0x0)' $((0x10 + i)))
	i=$((i + 1))
	[ "$c" = good ] && continue
	if grep -aqF "$slot: Access Denied" "$D/log"; then
		echo "ok - Secure Boot: $c refused by the firmware ($slot: Access Denied)"
	else
		echo "not ok - Secure Boot: $c not refused by the firmware"
		status=1
	fi
done
line=$(grep -a '^kslide: base=' "$D/log")
if [ $rc -eq 1 ] && grep -aq "starting Boot.*$slot" "$D/log" &&
	[ "$(echo "$line" | grep -c .)" -eq 1 ] && echo "$line" | grep -q '^kslide: base=0xffffffff' &&
	python3 "$here/credit-rule.py" "$D/log" >/dev/null &&
	grep -aq '^kernel: self-check passed' "$D/log" &&
	grep -aq '^kslide: loader="UEFI" map=EFI memory map' "$D/log" &&
	[ "$(grep -ac 'failed to load' "$D/log")" -eq $((i - 1)) ]; then
	echo "ok - Secure Boot: signed with the db's key (kslide-pack --sign), started and passed: $line"
else
	echo "not ok - Secure Boot: the signed image did not start and pass (QEMU status $rc), or something else ran; serial:"
	sed 's/^/#  /' "$D/log"
	status=1
fi
exit $status
