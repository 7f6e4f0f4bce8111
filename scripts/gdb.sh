#!/bin/sh
# `make gdb`: a packed kernel under QEMU's gdbstub, with the kernel's symbols where the stub put
# it (xv6's `make qemu-gdb`, for a kernel at a random base). QEMU starts halted; gdb runs the
# stub to the end of stub_main (boot/<arch>/entry.S: it returns the registers to enter the
# kernel with, after the "kslide: base=" line is on the serial port), reads that line, loads
# the kernel's ELF with `add-symbol-file -o` at base minus its link address, and stops at a
# kernel function (-b, default kernel_main) through a hardware breakpoint (the kernel's pages
# may not be mapped yet when it is set). The stub's own symbols are loaded too: QEMU's -kernel
# (Multiboot 1, which cannot move an image) runs it where it was linked (boot/stub.ld.S).
#
# -c (batch, for the gdb-symbols check stage): no prompt; passes when gdb stopped at the
# function, with $pc at base + (its link address - the link base) and gdb naming it there.
#
# usage: gdb.sh [-c] [-a i386|x86_64] [-b FUNCTION] [-A APPEND] [-m MEM] [-k KERNEL_ELF] IMAGE
#   -a  QEMU's arch (default: x86_64 when IMAGE lies in an x86_64/ directory, else i386)
#   -k  the kernel's ELF (default: IMAGE's name, .img -> .elf, without -zstd or -lz4)
#   GDBPORT  the gdbstub's TCP port on 127.0.0.1 (default: a free one)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)

if [ "${1:-}" = --symbols ]; then # internal: --symbols LOG KERNEL_ELF BITS: gdb commands
	log=$2 elf=$3 bits=$4
	line=$(grep -a -m 1 '^kslide: base=' "$log") ||
		{ printf '%s\n' 'echo gdb.sh: no "kslide: base=" line on the serial port\n' quit; exit 0; }
	base=$(echo "$line" | sed 's/^kslide: base=\(0x[0-9a-f]*\) .*/\1/')
	# The link base: the first loadable segment's virtual address (mk/kernel.mk's links).
	link=$(readelf -lW "$elf" | awk '$1 == "LOAD" { print $3; exit }')
	offset=$(python3 -c "print(hex(($base - $link) % (1 << $bits)))")
	printf '%s\n' "add-symbol-file $elf -o $offset" \
		"echo gdb.sh: $elf at base=$base (link base $link, offset $offset)\\n"
	exit 0
fi

batch=false arch="" func=kernel_main append="" mem=256M elf=""
while getopts ca:b:A:m:k: opt; do
	case $opt in
	c) batch=true ;;
	a) arch=$OPTARG ;;
	b) func=$OPTARG ;;
	A) append=$OPTARG ;;
	m) mem=$OPTARG ;;
	k) elf=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: $0 [-c] [-a ARCH] [-b FUNCTION] [-A APPEND] [-m MEM] [-k ELF] IMAGE" >&2; exit 2; }
image=$1
[ -f "$image" ] || { echo "gdb.sh: $image: no such image (make first)" >&2; exit 2; }
dir=$(dirname "$image")
if [ -z "$arch" ]; then
	case $dir in */x86_64 | x86_64) arch=x86_64 ;; *) arch=i386 ;; esac
fi
[ -n "$elf" ] || elf=$dir/$(basename "$image" .img | sed -E 's/-(zstd|lz4)$//').elf
stub=$dir/stub.elf
for f in "$elf" "$stub"; do
	[ -f "$f" ] || { echo "gdb.sh: $f: no such ELF (-k names the kernel's)" >&2; exit 2; }
done
if [ "$arch" = x86_64 ]; then
	bits=64 cpu=qemu64 ret='*(unsigned long *)$rsp'
else
	bits=32 cpu=qemu32 ret='*(unsigned int *)$esp'
fi
port=${GDBPORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}

work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-gdb.XXXXXX") || exit 1
qemu=""
trap '[ -n "$qemu" ] && kill "$qemu" 2>/dev/null; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
log=$work/serial.log
qemu-system-"$arch" -nodefaults -accel tcg -M pc -cpu "$cpu" -m "$mem" -kernel "$image" \
	-append "$append" -display none -monitor none -no-reboot -serial "file:$log" \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 -gdb "tcp:127.0.0.1:$port" -S \
	</dev/null 2>"$work/qemu.err" &
qemu=$!

# gdb's commands: to the end of stub_main (a hardware breakpoint at its first instruction,
# then one at its return address), the kernel's symbols, then the kernel function.
cat >"$work/boot.gdb" <<EOF
set pagination off
set confirm off
file $stub
target remote 127.0.0.1:$port
hbreak *stub_main
continue
delete
thbreak *$ret
continue
shell "$here/scripts/gdb.sh" --symbols "$log" "$elf" $bits >"$work/symbols.gdb"
source $work/symbols.gdb
hbreak $func
continue
delete
EOF
if ! $batch; then
	echo "gdb.sh: $image under QEMU (serial console: $log), gdb stops at $func" >&2
	gdb -q -x "$work/boot.gdb"
	exit 0
fi

cat >>"$work/boot.gdb" <<EOF
printf "pc=0x%lx\n", (unsigned long)\$pc
info symbol \$pc
kill
EOF
out=$(timeout 120 gdb -q -batch -x "$work/boot.gdb" 2>&1)
# What gdb should have found: base + (the function's link address - the link base).
base=$(sed -n 's/^kslide: base=\(0x[0-9a-f]*\) .*/\1/p' "$log" | head -n 1)
link=$(readelf -lW "$elf" | awk '$1 == "LOAD" { print $3; exit }')
at=$(nm "$elf" | awk -v f="$func" '$3 == f { print "0x" $1; exit }')
if [ -z "$base" ] || [ -z "$at" ]; then
	echo "gdb.sh: FAIL: no base line on the serial port or no symbol $func in $elf" >&2
	printf '%s\n' "$out" | sed 's/^/  | /' >&2
	exit 1
fi
want=$(python3 -c "print(hex(($base + $at - $link) % (1 << $bits)))")
pc=$(printf '%s\n' "$out" | sed -n 's/^pc=\(0x[0-9a-f]*\)$/\1/p')
if [ "$pc" = "$want" ] && printf '%s\n' "$out" | grep -q "^$func in section "; then
	echo "gdb: $func at $pc = base $base + ($at - $link), named by gdb: $(basename "$image")"
	exit 0
fi
echo "gdb.sh: FAIL: $image: gdb stopped at ${pc:-nothing}, want $func at $want (base $base)" >&2
printf '%s\n' "$out" | cat - "$work/qemu.err" | sed 's/^/  | /' >&2
exit 1
