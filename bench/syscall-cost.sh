#!/bin/sh
# The system-call round trip in instructions, counted by QEMU (TCG) as bench/boot-cost.sh
# counts the stub: the reference kernel's syscall_bench suite runs a process making N getpid
# calls in round_trips() (kernel/user/leak.c), and bench/tbcount adds up the blocks run from
# round_trips' entry until ring 3 first runs below .text again (user_main returning to _start,
# which alone lives in .text.start below it). Everything in between counts: the user loop, the
# entry stubs, the kernel. Two boots, with N1 and N2 calls, give the cost of one round trip as
# (count(N2) - count(N1)) / (N2 - N1), loop included; the fixed part cancels.
# Prints one line: syscall-cost(ARCH): image=... pti=on|off instructions_per_call=...
#
# usage: syscall-cost.sh [-a ARCH] [-c CPU] [-A APPEND] [-t SECS] TBCOUNT USER_ELF IMAGE
#   -A APPEND  more kernel command-line words (nopti turns page-table isolation off)
set -u

arch=i386 cpu="" append="" timeout=300 n1=100 n2=1100
while getopts a:c:A:t: opt; do
	case $opt in
	a) arch=$OPTARG ;;
	c) cpu=$OPTARG ;;
	A) append=$OPTARG ;;
	t) timeout=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || { echo "usage: $0 [options] TBCOUNT USER_ELF IMAGE" >&2; exit 2; }
tbcount=$1 user=$2 image=$3
for f in "$tbcount" "$user" "$image"; do
	[ -f "$f" ] || { echo "syscall-cost: $f: no such file" >&2; exit 2; }
done
[ -n "$cpu" ] || cpu=$([ "$arch" = x86_64 ] && echo qemu64 || echo qemu32)

nm -n "$user" >/dev/null || exit 2
start=$(nm -n "$user" | awk '$3 == "round_trips" { print $1 }')
# The first function after _start: where .text proper begins (crt0.o links first).
lo=$(nm -n "$user" | awk 'seen && ($2 == "T" || $2 == "t") { print $1; exit } $3 == "_start" { seen = 1 }')
[ -n "$start" ] && [ -n "$lo" ] || { echo "syscall-cost: $user: no round_trips or _start" >&2; exit 1; }
hi=$([ "$arch" = x86_64 ] && echo ffffffffffffffff || echo ffffffff)

work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-syscall.XXXXXX") || exit 1
qemu_pid=""
cleanup() {
	[ -n "$qemu_pid" ] && kill "$qemu_pid" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

count() { # count CALLS: instructions from round_trips' entry to ring 3 leaving .text
	rm -f "$work/log"
	mkfifo "$work/log"
	timeout "$timeout" "qemu-system-$arch" -nodefaults -accel tcg -M pc -cpu "$cpu" -m 256M \
		-kernel "$image" -append "selftest=syscall_bench syscall_bench.calls=$1 $append" \
		-display none -monitor none -no-reboot -serial "file:$work/serial" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 -d in_asm,exec,nochain -D "$work/log" \
		</dev/null 2>"$work/qemu.err" &
	qemu_pid=$!
	result=$("$tbcount" "$start" "$lo" "$hi" "$work/log") || {
		echo "syscall-cost: counting failed" >&2
		cat "$work/qemu.err" "$work/serial" >&2
		return 1
	}
	wait "$qemu_pid"
	qemu_pid=""
	grep -aq "^# syscall_bench: $1 getpid round trips, exit status 0x0" "$work/serial" || {
		echo "syscall-cost: the bench process did not run as asked" >&2
		cat "$work/serial" >&2
		return 1
	}
	echo "$result" | sed -n 's/^tbcount: instructions=\([0-9]*\) .*/\1/p'
}

c1=$(count "$n1") && c2=$(count "$n2") || exit 1
pti=on
case " $append " in *" nopti "*) pti=off ;; esac
echo "syscall-cost($arch): image=$(basename "$image") cpu=$cpu pti=$pti" \
	"calls=$n1:$n2 instructions=$c1:$c2" \
	"instructions_per_call=$(awk -v a="$c1" -v b="$c2" -v n="$((n2 - n1))" 'BEGIN { printf "%.1f", (b - a) / n }')"
