#!/bin/sh
# Instructions the stub executes from its entry to the jump into the kernel, counted by QEMU
# (TCG) without touching the stub: QEMU logs every translation block it translates and runs
# (-d in_asm,exec,nochain), and bench/tbcount adds up the blocks run from the entry symbol
# until the first block outside the stub's loaded segments, which must be the kernel's entry.
# Prints one line: boot-cost(ARCH): image=... mode=... instructions=N ...
#
# With -L the same count is taken of Linux's own decompressor: a bzImage booted by QEMU's
# Linux loader, from its 32-bit entry (the setup header's code32_start, where the real-mode
# setup code jumps) to the jump into the decompressed vmlinux. The decompressor moves itself
# to the end of its buffer [output, output + init_size) and calls a trampoline below 1 MiB,
# so it runs in [0, code32_start + its protected-mode part) and (output, output + init_size);
# the first block outside both must be where init (tests/linux/init.c, in the -I initramfs)
# then finds "Kernel code". QEMU logs only physical memory (-dfilter), so that Linux runs on
# to init at the usual pace once the count is done.
#
# usage: boot-cost.sh [-a ARCH] [-c CPU] [-m MEM] [-A APPEND] [-I INITRD] [-E SYMBOL] [-s]
#                     [-F N] [-t SECS] TBCOUNT STUB_ELF IMAGE
#        boot-cost.sh -L -I INITRAMFS [-a ARCH] [-c CPU] [-m MEM] [-A APPEND] [-t SECS]
#                     TBCOUNT BZIMAGE
#   -a ARCH    QEMU system: i386 or x86_64 (then use its stub and, say, -c qemu64)
#   -I INITRD  QEMU's -initrd: a Multiboot module, or with -L Linux's initramfs
#   -E SYMBOL  where counting starts (default stub_entry)
#   -s         one instruction per block (-singlestep): slower, a cross-check of the count
#   -F N       the N heaviest functions (default 8; 0: every one that ran)
set -u

arch=i386 cpu=qemu32 mem=256M append="" symbol=stub_entry single="" timeout=300 initrd=""
linux=false functions=8
while getopts a:c:m:A:I:E:sF:t:L opt; do
	case $opt in
	a) arch=$OPTARG ;;
	c) cpu=$OPTARG ;;
	m) mem=$OPTARG ;;
	A) append=$OPTARG ;;
	I) initrd=$OPTARG ;;
	E) symbol=$OPTARG ;;
	s) single=-singlestep ;;
	F) functions=$OPTARG ;;
	t) timeout=$OPTARG ;;
	L) linux=true ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if $linux; then
	[ $# -eq 2 ] && [ -n "$initrd" ] ||
		{ echo "usage: $0 -L -I INITRAMFS [options] TBCOUNT BZIMAGE" >&2; exit 2; }
	tbcount=$1 stub="" image=$2
else
	[ $# -eq 3 ] || { echo "usage: $0 [options] TBCOUNT STUB_ELF IMAGE" >&2; exit 2; }
	tbcount=$1 stub=$2 image=$3
fi
for f in "$tbcount" $stub "$image" $initrd; do
	[ -f "$f" ] || { echo "boot-cost: $f: no such file" >&2; exit 2; }
done
size=$(wc -c <"$image")

u32() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }
if $linux; then
	# Setup header fields (Linux's Documentation/arch/x86/boot.rst).
	sects=$(od -An -tu1 -j $((0x1f1)) -N1 "$image" | tr -d ' ')
	[ "$sects" -eq 0 ] && sects=4
	code32=$(u32 "$image" $((0x214))) align=$(u32 "$image" $((0x230)))
	pref=$(u32 "$image" $((0x258))) init_size=$(u32 "$image" $((0x260)))
	# head_32.S/head_64.S: the load address rounded up to kernel_alignment, at least
	# LOAD_PHYSICAL_ADDR (pref_address)
	output=$(((code32 + align - 1) / align * align))
	[ "$output" -lt "$pref" ] && output=$pref
	entry=$(printf '%x' "$code32")
	range=$(printf '0 %x' $((code32 + size - (sects + 1) * 512)))
	moved=$(printf '%x:%x' $((output + 1)) $((output + init_size)))
	# -dfilter: every physical address below the top of RAM (-m), no kernel virtual one
	top=$(python3 -c 'import sys; m = sys.argv[1]; u = m[-1].upper()
print(hex(int(m[:-1]) << {"K": 10, "M": 20, "G": 30}[u] if u in "KMG" else int(m) << 20))' "$mem")
	set -- -kernel "$image" -initrd "$initrd" -dfilter "0..$((top - 1))"
else
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
	set -- -kernel "$image"
	[ -n "$initrd" ] && set -- "$@" -initrd "$initrd"
fi

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
	-m "$mem" "$@" -append "$append" -display none -monitor none -no-reboot \
	-serial "file:$work/serial" -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-d in_asm,exec,nochain -D "$work/log" </dev/null 2>"$work/qemu.err" &
qemu_pid=$!
# A stub that refuses the kernel halts and QEMU runs on: stop it, so the count ends.
(while kill -0 "$qemu_pid" 2>/dev/null; do
	grep -aq '^kslide: error' "$work/serial" 2>/dev/null && kill "$qemu_pid" && break
	sleep 1
done) &
watch_pid=$!
if $linux; then
	# shellcheck disable=SC2086 # two words on purpose
	result=$("$tbcount" -k -r "$moved" "$entry" $range "$work/log") || {
		echo "boot-cost: counting failed" >&2
		cat "$work/qemu.err" >&2
		exit 1
	}
	wait "$qemu_pid"
	qemu_pid=""
	total=$(echo "$result" | head -n 1)
	exit_pc=$(echo "$total" | sed -n 's/.* exit=\(0x[0-9a-f]*\).*/\1/p')
	report=$(grep -a '^kslide-linux: _text=' "$work/serial" | tr -d '\r')
	code=$(echo "$report" | sed -n 's/.* kernel_code=\(0x[0-9a-f]*\)-.*/\1/p')
	[ -n "$code" ] || { echo "boot-cost: Linux did not reach init; serial log:" >&2
		cat "$work/serial" >&2; exit 1; }
	[ $((exit_pc)) -eq $((code)) ] || {
		echo "boot-cost: left the decompressor at $exit_pc, not at Linux's Kernel code $code" >&2
		exit 1
	}
	echo "boot-cost($arch): image=$(basename "$image") bytes=$size mode=linux cpu=$cpu" \
		"${total#tbcount: } ${report#kslide-linux: }"
	exit 0
fi
# shellcheck disable=SC2086 # two words on purpose
nm -n "$stub" >"$work/syms"
result=$("$tbcount" -f "$functions" "$entry" $range "$work/log" "$work/syms") || {
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
# The slots drawn among, and with --shuffle the units the stub moved (its line's own words).
extra=$(echo "$line" | tr ' ' '\n' | grep -E '^(slots|shuffled)=' | tr '\n' ' ' | sed 's/ $//')
total=$(echo "$result" | head -n 1)
exit_pc=$(echo "$total" | sed -n 's/.* exit=\(0x[0-9a-f]*\).*/\1/p')
python3 -c 'import sys; e, b, p, n = (int(x, 0) for x in sys.argv[1:])
sys.exit(not (b <= e < b + n or p <= e < p + n))' "$exit_pc" "$base" "$phys" "$size" || {
	echo "boot-cost: left the stub at $exit_pc, not inside the kernel at $base/$phys" >&2
	exit 1
}
mode=kaslr
case " $append " in *" nokaslr "*) mode=nokaslr ;; esac
echo "boot-cost($arch): image=$(basename "$image") bytes=$size mode=$mode cpu=$cpu" \
	"${total#tbcount: } base=$base phys=$phys${extra:+ $extra}${single:+ singlestep}"
# Where they went, heaviest functions first.
echo "$result" | sed -n "s/^tbcount: function /boot-cost($arch):   /p"
