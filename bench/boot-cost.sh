#!/bin/sh
# Instructions the stub executes from its entry to the jump into the kernel, counted by QEMU
# (TCG) without touching the stub: QEMU logs every translation block it translates and runs
# (-d in_asm,exec,nochain), and bench/tbcount adds up the blocks run from the entry symbol
# until the first block outside the stub's loaded segments, which must be the kernel's entry.
# Prints one line: boot-cost(ARCH): image=... mode=... instructions=N ...
#
# usage: boot-cost.sh [-a ARCH] [-c CPU] [-m MEM] [-A APPEND] [-E SYMBOL] [-s] [-t SECS]
#                     TBCOUNT STUB_ELF IMAGE
#   -a ARCH    QEMU system: i386 or x86_64 (then use its stub and, say, -c qemu64)
#   -E SYMBOL  where counting starts (default stub_entry)
#   -s         one instruction per block (-singlestep): slower, a cross-check of the count
set -u

arch=i386 cpu=qemu32 mem=256M append="" symbol=stub_entry single="" timeout=300
while getopts a:c:m:A:E:st: opt; do
	case $opt in
	a) arch=$OPTARG ;;
	c) cpu=$OPTARG ;;
	m) mem=$OPTARG ;;
	A) append=$OPTARG ;;
	E) symbol=$OPTARG ;;
	s) single=-singlestep ;;
	t) timeout=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || { echo "usage: $0 [options] TBCOUNT STUB_ELF IMAGE" >&2; exit 2; }
tbcount=$1 stub=$2 image=$3
for f in "$tbcount" "$stub" "$image"; do
	[ -f "$f" ] || { echo "boot-cost: $f: no such file" >&2; exit 2; }
done

entry=$(nm "$stub" | awk -v s="$symbol" '$3 == s { print $1 }')
[ -n "$entry" ] || { echo "boot-cost: $stub: no symbol $symbol" >&2; exit 1; }
# The stub's code runs inside its loaded segments; the kernel's never does.
lo="" hi=0
for seg in $(readelf -lW "$stub" | awk '$1 == "LOAD" { print $3 ":" $6 }'); do
	start=$((${seg%:*})) end=$((${seg%:*} + ${seg#*:}))
	[ -z "$lo" ] || [ "$start" -lt "$lo" ] && lo=$start
	[ "$end" -gt "$hi" ] && hi=$end
done
range=""
[ -n "$lo" ] && range=$(printf '%x %x' "$lo" "$hi")
[ -n "$range" ] || { echo "boot-cost: $stub: no loadable segment" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-cost.XXXXXX") || exit 1
qemu_pid="" watch_pid=""
cleanup() {
	[ -n "$watch_pid" ] && kill "$watch_pid" 2>/dev/null
	[ -n "$qemu_pid" ] && kill "$qemu_pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
mkfifo "$work/log"

timeout "$timeout" "qemu-system-$arch" $single -nodefaults -accel tcg -M pc -cpu "$cpu" \
	-m "$mem" -kernel "$image" -append "$append" -display none -monitor none -no-reboot \
	-serial "file:$work/serial" -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-d in_asm,exec,nochain -D "$work/log" </dev/null 2>"$work/qemu.err" &
qemu_pid=$!
# A stub that refuses the kernel halts and QEMU runs on: stop it, so the count ends.
(while kill -0 "$qemu_pid" 2>/dev/null; do
	grep -aq '^kslide: error' "$work/serial" 2>/dev/null && kill "$qemu_pid" && break
	sleep 1
done) &
watch_pid=$!
# shellcheck disable=SC2086 # two words on purpose
nm -n "$stub" >"$work/syms"
result=$("$tbcount" "$entry" $range "$work/log" "$work/syms") || {
	refused=$(grep -a '^kslide: error' "$work/serial" | tr -d '\r')
	echo "boot-cost: counting failed${refused:+: $refused}" >&2
	[ -n "$refused" ] || cat "$work/qemu.err" >&2
	exit 1
}
# The stub prints its line before it jumps; the jump must land in the kernel, at its physical
# base (i386) or its virtual one (x86-64). 64-bit addresses overflow the shell's arithmetic.
line=$(grep -a '^kslide: base=' "$work/serial" | tr -d '\r')
[ -n "$line" ] || { echo "boot-cost: no kslide line; serial log:" >&2; cat "$work/serial" >&2; exit 1; }
base=$(echo "$line" | sed -n 's/^kslide: base=\(0x[0-9a-f]*\).*/\1/p')
phys=$(echo "$line" | sed -n 's/.* phys=\(0x[0-9a-f]*\).*/\1/p')
total=$(echo "$result" | head -n 1)
exit_pc=$(echo "$total" | sed -n 's/.* exit=\(0x[0-9a-f]*\).*/\1/p')
size=$(wc -c <"$image")
python3 -c 'import sys; e, b, p, n = (int(x, 0) for x in sys.argv[1:])
sys.exit(not (b <= e < b + n or p <= e < p + n))' "$exit_pc" "$base" "$phys" "$size" || {
	echo "boot-cost: left the stub at $exit_pc, not inside the kernel at $base/$phys" >&2
	exit 1
}
mode=kaslr
case " $append " in *" nokaslr "*) mode=nokaslr ;; esac
echo "boot-cost($arch): image=$(basename "$image") bytes=$size mode=$mode cpu=$cpu" \
	"${total#tbcount: } base=$base phys=$phys${single:+ singlestep}"
# Where they went, heaviest functions first.
echo "$result" | sed -n "s/^tbcount: function /boot-cost($arch):   /p"
