#!/bin/sh
# The measured-boot stage: Debian's cloud-amd64 kernel as a kslide PE (make linux-images),
# signed with Debian's snakeoil test key, started by systemd-boot (Debian's systemd-boot-efi,
# signed with the same key) from a Type #1 entry, on Debian's snakeoil OVMF with Secure Boot
# on and a TPM 2.0 (swtpm): twice, at the stub's random bases. Each boot must reach the tests'
# init at the stub's base with Secure Boot on as Linux sees it (boot_params.secure_boot 3, its
# own "Secure boot enabled" and the lockdown Debian applies then), the initrd handed over by
# systemd-boot, and the stub's three events measured. Then tests/linux/tpm-replay.py judges
# the event log Linux serves against the TPM's PCRs and the files given, and the two boots'
# PCRs against each other.
# One TAP-style line per check, then "measured-boot: N passed, M failed".
# usage: measured-boot.sh BUILD_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
L=$1/linux
IMAGE=$L/cloud-amd64.efi INITRD=$L/x86_64/initramfs.cpio
SDBOOT=/usr/lib/systemd/boot/efi/systemd-bootx64.efi
KEY=/usr/share/ovmf/PkKek-1-snakeoil.key CERT=/usr/share/ovmf/PkKek-1-snakeoil.pem
for f in "$IMAGE" "$INITRD" "$SDBOOT" "$KEY" "$CERT"; do
	[ -f "$f" ] || { echo "measured-boot: $f is missing (make linux-images; Debian's ovmf, systemd-boot-efi)" >&2; exit 1; }
done
D=$(mktemp -d "${TMPDIR:-/tmp}/kslide-measured-boot.XXXXXX") || exit 1
trap 'rm -rf "$D"' EXIT
passed=0 failed=0
check() { # check OK WHAT
	if [ "$1" = 0 ]; then
		echo "ok - $2"
		passed=$((passed + 1))
	else
		echo "not ok - $2"
		failed=$((failed + 1))
	fi
}

# The image signed as a distribution would sign it; qemu-boot.sh -K signs systemd-boot.
# The key's passphrase is the one Debian's ovmf gives it (README.Debian).
openssl pkey -in "$KEY" -passin pass:snakeoil -out "$D/key.pem" &&
	sbsign --key "$D/key.pem" --cert "$CERT" --output "$D/kslide.efi" "$IMAGE" 2>/dev/null ||
	exit 1
sbverify --cert "$CERT" "$D/kslide.efi" >/dev/null 2>&1
check $? "sbsign signs the kslide PE of cloud-amd64 and sbverify verifies it"

# Two boots side by side, each with its own TPM.
for n in 1 2; do
	"$here/../boot/qemu-boot.sh" -L -E -B -K -T -M q35 -t 300 -m 1G -l "$D/boot$n.log" \
		-A "$(cat "$here/cmdline")" -I "$INITRD" \
		-e '^kslide: loader=.UEFI. map=EFI.memory.map ' \
		-e '^kslide: measured pcr=9 events=3$' -e '^kslide-linux: efi=yes$' \
		-e '^kslide-linux: secure_boot=0x3$' -e '^kslide-linux: secureboot: Secure boot enabled$' \
		-e '^kslide-linux: lockdown=.*\[integrity\]' "$D/kslide.efi" >"$D/boot$n.out" 2>&1 &
	eval "pid$n=\$!"
done
# shellcheck disable=SC2154 # pid1 and pid2 are set by the eval above
wait "$pid1"
rc1=$?
# shellcheck disable=SC2154
wait "$pid2"
rc2=$?
for n in 1 2; do
	eval "rc=\$rc$n"
	# shellcheck disable=SC2154 # rc is set by the eval above
	check "$rc" "boot $n: systemd-boot under Secure Boot starts the signed image, Linux reaches init at the stub's base with Secure boot enabled and lockdown: $(head -n 1 "$D/boot$n.out")"
	[ "$rc" = 0 ] || sed 's/^/#  /' "$D/boot$n.out" | tail -n 60
done
if [ "$rc1" = 0 ] && [ "$rc2" = 0 ]; then
	# The same PCRs mean something only from different bases (the chance of a repeat is one
	# in slots x vslots, some 200,000 here).
	base1=$(head -n 1 "$D/boot1.out" | sed 's/ slots=.*//') base2=$(head -n 1 "$D/boot2.out" | sed 's/ slots=.*//')
	[ "$base1" != "$base2" ]
	check $? "the two boots drew different bases ($base1; $base2)"
	out=$(python3 "$here/tpm-replay.py" "$D/kslide.efi" "$INITRD" "$D/boot1.log" "$D/boot2.log")
	rc=$?
	echo "$out" | sed "s#$D/##g"
	# Each of its lines is a check of its own.
	passed=$((passed + $(echo "$out" | grep -c '^ok ')))
	failed=$((failed + $(echo "$out" | grep -c '^not ok ')))
	[ $rc = 0 ] || echo "$out" | grep -q '^not ok ' || check 1 "tpm-replay.py could not judge the logs"
fi
echo "measured-boot: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
