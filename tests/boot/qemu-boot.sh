#!/bin/sh
# Boot one image under QEMU (TCG) and judge the run. A pass needs the stub's "kslide: base="
# line on the serial port and the kernel ending QEMU through isa-debug-exit with 0 (QEMU's
# exit status 1). Prints the kslide line on success; prints the log on failure.
#
# usage: qemu-boot.sh [-a i386|x86_64] [-c CPU] [-m MEM] [-A APPEND] [-e REGEX]... [-t SECS]
#                     [-l LOG] [-D [-U] | -E] IMAGE
#   -e REGEX   the serial log must also match this extended regex (repeatable)
#   -N REGEX   ... and must not match this one (repeatable)
#   -S CPUS    give the machine this many CPUs (QEMU's -smp; default 1)
#   -M MACHINE QEMU's machine type (default pc; q35 has the ICH9 chipset)
#   -g PROP    a device property, as QEMU's -global takes it (repeatable)
#   -d DEVICE  a device, as QEMU's -device takes it (repeatable): virtio-rng-pci, say
#   -i ICOUNT  QEMU's -icount: with shift=0,sleep=off the guest's TSC counts instructions, 1 GHz
#              exactly, which Linux can be told (tsc_early_khz=1000000) where, as under
#              microvm, it has no PIT, HPET or PM timer it can calibrate against reliably
#   -W WAKES   the guest suspends to RAM: wake it each time QEMU reports it suspended (QMP
#              system_wakeup, tests/boot/qmp-wake.py); the run must see at least WAKES
#              wake-ups and exactly one kslide line (a wake that rebooted would print another)
#   -R COUNT   ring 3's SIDT, SGDT, SLDT and STR ("leak: sidt ..." lines, printed where UMIP
#              is off) must each be printed COUNT times, always the same, and SIDT's base
#              must be the IDT alias the kernel announced ("kernel: ... idt=")
#   -I MODULES Multiboot modules, as QEMU's -initrd takes them ("file args,file args")
#   -F         expect the kernel to report failure (QEMU exit status 3) instead of a pass
#   -H         expect the stub to refuse: a "kslide: error:" message, no kslide line, and the
#              machine reset by the stub a few seconds later (boot/x86/refuse.h; QEMU then
#              exits with status 0 under -no-reboot) well before the timeout; the log must
#              match the -e expressions
#   -D         IMAGE is a bootable ISO (scripts/mkiso.sh): boot it from CD-ROM through the
#              firmware and its boot loader instead of QEMU's -kernel (-A and -I do not apply)
#   -U         with -D: UEFI firmware (OVMF, x86-64 only; default CPU max) instead of SeaBIOS
#   -E         IMAGE is an EFI application (kslide-pack --format efi): OVMF starts it as
#              \EFI\BOOT\BOOTX64.EFI from an ESP, a FAT directory (QEMU's fat: driver); with
#              -A or -I, as \kslide.efi from the shell's startup.nsh with -A as its load
#              options, -I copied to \initrd.img and named by an initrd= word; the shell
#              prints "kslide-test: returned STATUS" if the image returns, and powers off
#   -B         with -E: systemd-boot (Debian's systemd-boot-efi) is \EFI\BOOT\BOOTX64.EFI and
#              starts IMAGE as \kslide.efi by a Type #1 entry, loader/entries/kslide.conf, with
#              -A as its options and -I as \initrd.cpio on its initrd line (handed over through
#              Linux's initrd device path, LoadFile2, not an initrd= word)
#   -K         with -E: Secure Boot on (Debian's snakeoil OVMF, its db holding the
#              PkKek-1-snakeoil certificate; q35 with SMM and the variables' flash secure).
#              IMAGE must be signed with that key; with -B, systemd-boot is signed with it
#              here (OVMF's own shell is refused under Secure Boot, so -K wants -B for -A/-I)
#   -T         give the machine a TPM 2.0: a fresh swtpm (its state in a directory of its own)
#              behind QEMU's tpm-tis device, which OVMF measures into and Linux reads
#   -V         give the machine a VGA card (for kernels that ask for a framebuffer)
#   -L         a Linux kernel with the tests' initramfs (tests/linux/init.c): the pass is init's
#              "kslide-linux:" line, whose _text must be the stub's base and whose "Kernel
#              code" must start at its phys, and QEMU ending by Linux's power off (status 0)
set -u

arch=i386 cpu="" mem=128M append="" timeout=30 log="" expects="" refuses="" want=1 initrd=""
disc=false esp=false sdboot=false uefi=false secure=false tpm=false vga="" linux=false refusal=false cpus=1 machine=pc globals="" wakes="" views=""
OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.fd OVMF_VARS=/usr/share/OVMF/OVMF_VARS_4M.fd
while getopts a:c:m:A:e:N:t:l:I:S:M:g:d:i:W:R:FHDEBKTUVL opt; do
	case $opt in
	a) arch=$OPTARG ;;
	c) cpu=$OPTARG ;;
	m) mem=$OPTARG ;;
	A) append=$OPTARG ;;
	e) expects="$expects
$OPTARG" ;;
	N) refuses="$refuses
$OPTARG" ;;
	t) timeout=$OPTARG ;;
	l) log=$OPTARG ;;
	I) initrd=$OPTARG ;;
	S) cpus=$OPTARG ;;
	M) machine=$OPTARG ;;
	g) globals="$globals -global $OPTARG" ;;
	d) globals="$globals -device $OPTARG" ;;
	i) globals="$globals -icount $OPTARG" ;;
	W) wakes=$OPTARG ;;
	R) views=$OPTARG ;;
	F) want=3 ;;
	H) want=0 refusal=true ;;
	D) disc=true ;;
	U) uefi=true arch=x86_64 ;;
	E) esp=true uefi=true arch=x86_64 ;;
	B) sdboot=true ;;
	K) secure=true ;;
	T) tpm=true ;;
	V) vga="-vga std" ;;
	L) linux=true want=0 ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
# OVMF needs long mode and the stub's credited sources want RDRAND: -cpu max by default.
[ -z "$cpu" ] && $uefi && cpu=max
[ $# -eq 1 ] || { echo "usage: $0 [options] IMAGE" >&2; exit 2; }
image=$1
[ -f "$image" ] || { echo "qemu-boot: $image: no such image" >&2; exit 2; }
[ -n "$cpu" ] || cpu=$([ "$arch" = x86_64 ] && echo qemu64 || echo qemu32)

own_log=""
if [ -z "$log" ]; then
	log=$(mktemp "${TMPDIR:-/tmp}/kslide-boot.XXXXXX")
	own_log=$log
fi
vars="" qmp_dir="" esp_dir="" tpm_dir="" swtpm=""
trap '[ -n "$own_log" ] && rm -f "$own_log"; [ -n "$vars" ] && rm -f "$vars"
	[ -n "$qmp_dir" ] && rm -rf "$qmp_dir"; [ -n "$esp_dir" ] && rm -rf "$esp_dir"
	[ -n "$swtpm" ] && kill "$swtpm" 2>/dev/null; [ -n "$tpm_dir" ] && rm -rf "$tpm_dir"' EXIT

SDBOOT=/usr/lib/systemd/boot/efi/systemd-bootx64.efi SNAKEOIL=/usr/share/ovmf/PkKek-1-snakeoil
if $esp && $sdboot; then
	# No menu (timeout 0): the default entry starts at once.
	esp_dir=$(mktemp -d "${TMPDIR:-/tmp}/kslide-esp.XXXXXX") || exit 2
	mkdir -p "$esp_dir/EFI/BOOT" "$esp_dir/loader/entries" || exit 2
	if $secure; then
		# Debian's test key, with the passphrase its ovmf gives it (README.Debian).
		openssl pkey -in "$SNAKEOIL.key" -passin pass:snakeoil -out "$esp_dir/key.pem" &&
			sbsign --key "$esp_dir/key.pem" --cert "$SNAKEOIL.pem" \
				--output "$esp_dir/EFI/BOOT/BOOTX64.EFI" "$SDBOOT" 2>/dev/null &&
			rm -f "$esp_dir/key.pem" || exit 2
	else
		cp "$SDBOOT" "$esp_dir/EFI/BOOT/BOOTX64.EFI" || exit 2
	fi
	cp "$image" "$esp_dir/kslide.efi" || exit 2
	printf 'timeout 0\ndefault kslide.conf\n' >"$esp_dir/loader/loader.conf"
	{
		printf 'title kslide\nlinux /kslide.efi\n'
		if [ -n "$initrd" ]; then
			cp "$initrd" "$esp_dir/initrd.cpio" || exit 2
			printf 'initrd /initrd.cpio\n'
		fi
		printf 'options %s\n' "$append"
	} >"$esp_dir/loader/entries/kslide.conf"
	set -- -drive "file=fat:rw:$esp_dir,format=raw"
elif $esp && [ -z "$append$initrd" ]; then
	esp_dir=$(mktemp -d "${TMPDIR:-/tmp}/kslide-esp.XXXXXX") || exit 2
	mkdir -p "$esp_dir/EFI/BOOT" && cp "$image" "$esp_dir/EFI/BOOT/BOOTX64.EFI" || exit 2
	set -- -drive "file=fat:rw:$esp_dir,format=raw"
elif $esp; then
	# Load options: no BOOTX64.EFI, so OVMF falls back to its shell, whose startup.nsh
	# starts the image with the options (after its path, as the shell passes them) and,
	# should the image return, prints the status it returned and powers off.
	esp_dir=$(mktemp -d "${TMPDIR:-/tmp}/kslide-esp.XXXXXX") || exit 2
	cp "$image" "$esp_dir/kslide.efi" || exit 2
	if [ -n "$initrd" ]; then
		cp "$initrd" "$esp_dir/initrd.img" || exit 2
		append="$append initrd=\\initrd.img"
	fi
	printf 'fs0:\\kslide.efi %s\r\necho "kslide-test: returned %%lasterror%%"\r\nreset -s\r\n' \
		"$append" >"$esp_dir/startup.nsh"
	set -- -drive "file=fat:rw:$esp_dir,format=raw"
elif $disc; then
	set -- -cdrom "$image"
else
	set -- -kernel "$image" -append "$append"
	[ -n "$initrd" ] && set -- "$@" -initrd "$initrd"
fi
if $uefi; then
	# The firmware writes its variables: each boot gets its own copy of the template.
	if $secure; then
		OVMF_CODE=/usr/share/OVMF/OVMF_CODE_4M.snakeoil.fd
		OVMF_VARS=/usr/share/OVMF/OVMF_VARS_4M.snakeoil.fd
		machine=$machine,smm=on
		globals="$globals -global driver=cfi.pflash01,property=secure,value=on"
	fi
	vars=$(mktemp "${TMPDIR:-/tmp}/kslide-vars.XXXXXX") || exit 2
	cp "$OVMF_VARS" "$vars" || exit 2
	set -- -drive "if=pflash,format=raw,readonly=on,file=$OVMF_CODE" \
		-drive "if=pflash,format=raw,file=$vars" "$@"
fi
if $tpm; then
	# swtpm serves one connection and ends when QEMU closes it; the firmware starts the TPM.
	tpm_dir=$(mktemp -d "${TMPDIR:-/tmp}/kslide-tpm.XXXXXX") || exit 2
	swtpm socket --tpm2 --tpmstate "dir=$tpm_dir" \
		--ctrl "type=unixio,path=$tpm_dir/ctrl.sock" --terminate 2>"$tpm_dir/err" &
	swtpm=$!
	waited=0
	while [ ! -S "$tpm_dir/ctrl.sock" ] && [ $waited -lt 100 ]; do
		sleep 0.1
		waited=$((waited + 1))
	done
	[ -S "$tpm_dir/ctrl.sock" ] || { echo "qemu-boot: swtpm did not start" >&2; exit 2; }
	set -- "$@" -chardev "socket,id=tpm,path=$tpm_dir/ctrl.sock" \
		-tpmdev emulator,id=tpm0,chardev=tpm -device tpm-tis,tpmdev=tpm0
fi
waker=""
if [ -n "$wakes" ]; then
	# QEMU waits for the waker to connect before it runs the guest: no event goes unseen.
	qmp_dir=$(mktemp -d "${TMPDIR:-/tmp}/kslide-qmp.XXXXXX") || exit 2
	python3 "$(dirname "$0")/qmp-wake.py" "$qmp_dir/qmp.sock" "$qmp_dir/wakes" &
	waker=$!
	set -- "$@" -qmp "unix:$qmp_dir/qmp.sock,server=on,wait=on"
fi
# shellcheck disable=SC2086 # $globals is a list of words (-global, -device and -icount)
timeout "$timeout" "qemu-system-$arch" -nodefaults -accel tcg -M "$machine" -cpu "$cpu" \
	-m "$mem" -smp "$cpus" $globals \
	"$@" $vga -display none -monitor none -no-reboot \
	-serial "file:$log" -device isa-debug-exit,iobase=0xf4,iosize=0x04 </dev/null
status=$?
# The waker ends when QEMU closes the socket (or after 30 s if it never opened it).
[ -n "$waker" ] && wait "$waker"
# Boot loaders end their lines with CR LF and leave a CR before the kernel's first line.
tr -d '\r' <"$log" >"$log.lf" && cat "$log.lf" >"$log" && rm -f "$log.lf"

fail() {
	echo "qemu-boot: FAIL ($*): -cpu $cpu -m $mem -append '$append' $image" >&2
	sed 's/^/  | /' "$log" >&2
	exit 1
}

check_expects() {
	printf "%s\n" "$expects" | while IFS= read -r re; do
		[ -z "$re" ] && continue
		grep -aEq -- "$re" "$log" || { printf "missing: %s\n" "$re" >&2; exit 1; }
	done || fail "log does not match every expectation"
	printf "%s\n" "$refuses" | while IFS= read -r re; do
		[ -z "$re" ] && continue
		! grep -aEq -- "$re" "$log" || { printf "present: %s\n" "$re" >&2; exit 1; }
	done || fail "log matches what it must not"
}

# Hex without leading zeros: kallsyms pads to the word size, /proc/iomem to 8 digits.
bare_hex() { echo "$1" | sed 's/^0x0*\([0-9a-f]\)/0x\1/'; }
check_linux() {
	report=$(grep -a '^kslide-linux: ' "$log" | head -n 1)
	case $report in
	"kslide-linux: _text="*) ;;
	"") fail "Linux did not reach init (no kslide-linux line)" ;;
	*) fail "init could not report: $report" ;;
	esac
	text=$(bare_hex "$(echo "$report" | sed -n 's/.* _text=\(0x[0-9a-f]*\).*/\1/p')")
	code=$(bare_hex "$(echo "$report" | sed -n 's/.* kernel_code=\(0x[0-9a-f]*\)-.*/\1/p')")
	base=$(bare_hex "$(echo "$line" | sed -n 's/^kslide: base=\(0x[0-9a-f]*\).*/\1/p')")
	phys=$(bare_hex "$(echo "$line" | sed -n 's/.* phys=\(0x[0-9a-f]*\).*/\1/p')")
	[ "$text" = "$base" ] || fail "Linux's _text $text is not the stub's base $base"
	[ "$code" = "$phys" ] || fail "Linux's Kernel code starts at $code, not the stub's phys $phys"
}

if [ "$status" != "$want" ]; then
	case $status in
	124) $refusal && fail "timed out after ${timeout}s: a refusal must reset the machine"
		fail "timed out after ${timeout}s" ;;
	3) fail "kernel reported failure" ;;
	1) fail "kernel passed where failure was expected" ;;
	0) fail "the machine powered off or reset where isa-debug-exit was expected" ;;
	*) fail "QEMU exit status $status" ;;
	esac
fi
if $refusal; then
	grep -aq '^kslide: base=' "$log" && fail "stub started a kernel it should have refused"
	grep -aq '^kslide: error' "$log" || fail "the machine reset without a kslide: error message"
	check_expects
	grep -a '^kslide: error' "$log"
	exit 0
fi
line=$(grep -a '^kslide: base=' "$log")
[ -n "$line" ] || fail "no kslide line"
check_expects
# Every boot's entropy credit is judged by the stub's rules, never by its value.
why=$(python3 "$(dirname "$0")/credit-rule.py" "$log") || fail "$why"
if [ -n "$views" ]; then
	for insn in sidt sgdt sldt str; do
		[ "$(grep -ac "^leak: $insn " "$log")" -eq "$views" ] ||
			fail "ring 3's $insn not printed $views times"
		[ "$(grep -a "^leak: $insn " "$log" | sort -u | wc -l)" -eq 1 ] ||
			fail "ring 3's $insn changed"
	done
	idt=$(sed -n 's/^kernel: umip=.* idt=\(0x[0-9a-f]*\)$/\1/p' "$log")
	grep -aq "^leak: sidt base=$idt " "$log" || fail "ring 3's SIDT is not the alias $idt"
fi
if [ -n "$wakes" ]; then
	woke=$(cat "$qmp_dir/wakes" 2>/dev/null || echo 0)
	[ "$woke" -ge "$wakes" ] || fail "QEMU woke the guest $woke times, not $wakes"
	[ "$(echo "$line" | wc -l)" -eq 1 ] || fail "the stub ran again: a wake-up rebooted"
fi
$linux && check_linux
echo "$line"
