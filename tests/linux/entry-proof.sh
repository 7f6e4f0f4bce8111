#!/bin/sh
# What Linux finds in memory at its entry when kslide places it at PHYS: the image, packed
# with --debug-placement, boots at kslide.phys=PHYS under QEMU's gdbstub, stops at the
# kernel's entry (tests/linux/gdbstub.py: a hardware breakpoint, paging off), and the kernel's
# range, the registers, the zero page, the initrd and the command line are judged against the
# bzImage and Linux's boot protocol by tests/linux/entry_proof.py, which uses no kslide code.
# i386 (Debian's 686). PHYS may be "top": the highest 8 KiB base whose kernel ends at 512 MiB.
# usage: entry-proof.sh IMAGE BZIMAGE INITRD PHYS [APPEND]     prints entry_proof.py's line
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 4 ] || { echo "usage: $0 IMAGE BZIMAGE INITRD PHYS [APPEND]" >&2; exit 2; }
image=$1 bz=$2 initrd=$3 phys=$4 append=${5:-console=ttyS0}
set -- $(python3 "$here/entry_proof.py" --layout "$bz") || exit 1
span=$1 memory=$2
# The 686 kernel's window ends at 512 MiB (kslide-pack's default for an i386 bzImage).
[ "$phys" = top ] && phys=$(printf 0x%x $(((0x20000000 - memory) / 0x2000 * 0x2000)))
dir=$(mktemp -d "${TMPDIR:-/tmp}/kslide-entry.XXXXXX") || exit 1
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
trap 'kill "$qemu" 2>/dev/null; rm -rf "$dir"' EXIT
append="$append kslide.phys=$phys"
qemu-system-i386 -nodefaults -accel tcg -M pc -cpu max -m 1G -kernel "$image" -initrd "$initrd" \
	-append "$append" -display none -monitor none -no-reboot -serial "file:$dir/serial.log" \
	-gdb "tcp:127.0.0.1:$port" -S </dev/null 2>"$dir/qemu.err" &
qemu=$!
if ! timeout 180 python3 "$here/gdbstub.py" "$port" "$phys" "$dir" "kernel=$phys:$span" \
	zeropage=@esi:4096 initrd=zeropage+0x218:zeropage+0x21c cmdline=zeropage+0x228:4096; then
	echo "entry-proof: the kernel was not entered at $phys:" >&2
	sed 's/^/  | /' "$dir/serial.log" >&2
	exit 1
fi
grep -q "^kslide: debug placement: phys=$phys," "$dir/serial.log" ||
	{ sed 's/^/  | /' "$dir/serial.log" >&2; echo "entry-proof: no debug placement line" >&2; exit 1; }
python3 "$here/entry_proof.py" "$bz" "$initrd" "$dir" "$append"
