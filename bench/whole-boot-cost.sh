#!/bin/sh
# The whole boot to init, in instructions, for Linux's vmlinux booted directly by QEMU's PVH
# loader and for kslide's PVH image of the same kernel, one after the other in the same
# settings (machine, -cpu, -m, command line, the tests' initramfs). The vmlinux is the bzImage's
# own payload (tests/linux/bzimage.py); the kslide image is that bzImage packed --format pvh.
# Prints one line per boot and the ratio kslide / direct.
#
# The counter: QEMU TCG with -icount shift=0,sleep=off, where the guest's TSC is the virtual
# clock, which advances 1 ns per instruction executed and, while the CPU is halted, jumps to
# the next timer instead of waiting. The tests' init (tests/linux/init.c) reads the TSC as its
# first instruction and prints it ("kslide-linux: tsc="): the instructions run from reset to
# init (the firmware, the same for both, included), plus the halted time, which is the same
# timers in both boots. bench/tbcount's log (-d exec) would count exactly, but at about 10 MB/s
# of log here a whole boot (billions of blocks) takes hours.
#
# usage: whole-boot-cost.sh [-M MACHINE] [-c CPU] [-m MEM] [-t SECS] BZIMAGE PVH_IMAGE INITRAMFS
set -u

machine=pc cpu=max mem=2G timeout=600
here=$(cd "$(dirname "$0")" && pwd)
while getopts M:c:m:t: opt; do
	case $opt in
	M) machine=$OPTARG ;;
	c) cpu=$OPTARG ;;
	m) mem=$OPTARG ;;
	t) timeout=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || {
	echo "usage: $0 [-M MACHINE] [-c CPU] [-m MEM] [-t SECS] BZIMAGE PVH_IMAGE INITRAMFS" >&2
	exit 2
}
bzimage=$1 packed=$2 initrd=$3
for f in "$bzimage" "$packed" "$initrd"; do
	[ -f "$f" ] || { echo "whole-boot-cost: $f: no such file" >&2; exit 2; }
done
append=$(cat "$here/../tests/linux/cmdline")

work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-whole.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM

# The bzImage's vmlinux: its decompressed payload up to the end of the ELF file.
bz=$here/../tests/linux/bzimage.py
python3 "$bz" payload "$bzimage" "$work/payload" || exit 1
head -c "$(python3 "$bz" extent "$work/payload")" "$work/payload" >"$work/vmlinux"
rm -f "$work/payload"

# count NAME KERNEL: one boot; prints the TSC init read, in decimal.
count() {
	name=$1 kernel=$2
	timeout "$timeout" qemu-system-x86_64 -nodefaults -accel tcg -icount shift=0,sleep=off \
		-M "$machine" -cpu "$cpu" -m "$mem" -kernel "$kernel" -initrd "$initrd" \
		-append "$append" -display none -monitor none -no-reboot \
		-serial "file:$work/$name.serial" </dev/null 2>"$work/qemu.err"
	tsc=$(grep -a '^kslide-linux: tsc=' "$work/$name.serial" | tr -d '\r' | sed 's/.*tsc=//')
	[ -n "$tsc" ] || {
		echo "whole-boot-cost: $name: no 'kslide-linux: tsc=' line from init" \
			"(did Linux reach it?); serial log:" >&2
		cat "$work/$name.serial" "$work/qemu.err" >&2
		exit 1
	}
	echo "whole-boot-cost: $name: $(grep -a '^kslide-linux: _text=' "$work/$name.serial" |
		tr -d '\r' | sed 's/^kslide-linux: //') tsc=$tsc" >&2
	printf '%d\n' "$tsc"
}
direct=$(count direct "$work/vmlinux") || exit 1
kslide=$(count kslide "$packed") || exit 1
grep -a '^kslide: base=' "$work/kslide.serial" | tr -d '\r' | sed 's/^/whole-boot-cost: /' >&2
python3 -c 'import sys; d, k = int(sys.argv[1]), int(sys.argv[2])
print("whole-boot-cost: machine=%s mem=%s direct=%d kslide=%d added=%d ratio=%.4f"
      % (sys.argv[3], sys.argv[4], d, k, k - d, k / d))' "$direct" "$kslide" "$machine" "$mem"
