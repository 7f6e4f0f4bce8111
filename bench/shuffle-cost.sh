#!/bin/sh
# Function-granular shuffling (kslide-pack --shuffle), its size and its cost, on the two kernels
# built for it: examples/shuffle-i386 and examples/shuffle-x86_64 (booted by the i386 stub on
# qemu-system-i386 and qemu-system-x86_64, as tests/boot/shuffle.sh does). For each:
#   - the shuffle table (docs/format.md, "Shuffle table"): its bytes, units, relocations by
#     kind, bytes per relocation, and the image's size with and without --shuffle, stored
#     uncompressed (--compress none), by default (the multiboot container's auto: none for a
#     payload under 1 MiB) and with zstd;
#   - the stub's instructions from stub_entry to the kernel (bench/boot-cost.sh), the image
#     packed with --compress none with and without --shuffle, randomized and with nokaslr
#     (where the shuffle keeps the link order), the median of BOOTS boots each; the shuffle's
#     part as the difference of the medians and as the instructions in its own functions
#     (lib/shuffle.c's shuffle_*, boot/stub_shuffle.c's and uniform_below);
#   - the entropy: log2(N!) layouts of N units beside the base's log2(slots) at -m MEM.
# usage: shuffle-cost.sh [-n BOOTS] [-m MEM] BUILD_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
boots=3 mem=256M
while getopts n:m: opt; do
	case $opt in
	n) boots=$OPTARG ;;
	m) mem=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { echo "usage: $0 [-n BOOTS] [-m MEM] BUILD_DIR" >&2; exit 2; }
B=$1
pack=$B/bin/kslide-pack stub=$B/i386/stub.elf tbcount=$B/bench/tbcount
for f in "$pack" "$stub" "$tbcount" "$B/examples/shuffle-i386/kernel.elf" \
	"$B/examples/shuffle-x86_64/kernel.elf"; do
	[ -f "$f" ] || { echo "shuffle-cost: $f is missing" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-shuffle-cost.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
failed=0

# table IMAGE: the shuffle table at the end of IMAGE (magic "KSSH", its size fixed by its
# counts), one line: units= relocs= abs32= pc32= abs64= bytes= bytes/reloc=
table() {
	python3 - "$1" <<'EOF'
import struct, sys
data = open(sys.argv[1], "rb").read()
at = data.rfind(b"KSSH")
while at >= 0:
    units, relocs = struct.unpack_from("<II", data, at + 4)
    if at + 20 + 12 * (units + relocs) == len(data):
        break
    at = data.rfind(b"KSSH", 0, at)
if at < 0:
    sys.exit("shuffle-cost: %s: no shuffle table at its end" % sys.argv[1])
kinds = {1: 0, 2: 0, 3: 0}
for i in range(relocs):
    site, kind, _ = struct.unpack_from("<III", data, at + 20 + 12 * (units + i))
    kinds[kind] = kinds.get(kind, 0) + 1
size = len(data) - at
print("units=%d relocs=%d abs32=%d pc32=%d abs64=%d bytes=%d bytes/reloc=%.1f" % (
    units, relocs, kinds[1], kinds[2], kinds[3], size, size / max(relocs, 1)))
EOF
}

# median FILE: the median of FILE's lines, numbers
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# cost ARCH CPU IMAGE APPEND TAG: BOOTS boots of IMAGE, the medians as one line
cost() {
	arch=$1 cpu=$2 image=$3 append=$4 tag=$5
	: >"$work/$tag.total"
	: >"$work/$tag.own"
	for i in $(seq 1 "$boots"); do
		if ! "$here/boot-cost.sh" -F 0 -a "$arch" -c "$cpu" -m "$mem" -A "$append" \
			"$tbcount" "$stub" "$image" >"$work/$tag.$i" 2>"$work/$tag.err"; then
			echo "shuffle-cost: FAILED: boot-cost.sh -a $arch -A '$append' $image" >&2
			cat "$work/$tag.err" >&2
			failed=1
			return
		fi
		sed -n '1s/.* instructions=\([0-9]*\) .*/\1/p' "$work/$tag.$i" >>"$work/$tag.total"
		awk '$2 ~ /^(shuffle_|uniform_below$)/ { sub("instructions=", "", $3); n += $3 }
			END { print n + 0 }' "$work/$tag.$i" >>"$work/$tag.own"
		sed -n '1s/.* slots=\([0-9]*\).*/\1/p' "$work/$tag.$i" >"$work/$tag.slots"
		sed -n '1s/.* shuffled=\([0-9]*\).*/\1/p' "$work/$tag.$i" >"$work/$tag.shuffled"
	done
	echo "$(median "$work/$tag.total") $(median "$work/$tag.own")" \
		"$(cat "$work/$tag.slots") $(cat "$work/$tag.shuffled")"
}

for e in shuffle-i386 shuffle-x86_64; do
	arch=i386 cpu=qemu32
	[ "$e" = shuffle-x86_64 ] && arch=x86_64 cpu=qemu64
	elf=$B/examples/$e/kernel.elf
	echo "== $e ($(basename "$elf"), booted by the i386 stub on qemu-system-$arch -cpu $cpu -m $mem)"
	mem_bytes=$("$pack" -v --compress none -o "$work/$e.img" "$elf" 2>&1 |
		sed -n 's/^kernel: .*, \([0-9]*\) bytes in memory.*/\1/p')
	for c in none default zstd; do
		compress="--compress $c"
		[ $c = default ] && compress=""
		# shellcheck disable=SC2086 # two words or none
		if ! "$pack" $compress -o "$work/$e-plain-$c.img" "$elf" 2>/dev/null ||
			! "$pack" --shuffle $compress -o "$work/$e-shuffle-$c.img" "$elf" 2>/dev/null; then
			echo "shuffle-cost: kslide-pack $compress failed on $elf" >&2
			exit 1
		fi
		plain=$(wc -c <"$work/$e-plain-$c.img") shuffled=$(wc -c <"$work/$e-shuffle-$c.img")
		label="--compress $c"
		[ $c = default ] && label="by default (auto)"
		echo "$e: image $label: $plain bytes, with --shuffle $shuffled" \
			"(+$((shuffled - plain)))"
	done
	echo "$e: kernel in memory: $mem_bytes bytes"
	t=$(table "$work/$e-shuffle-none.img") || { failed=1; continue; }
	echo "$e: table: $t"
	for append in "" nokaslr; do
		mode=${append:-kaslr}
		# shellcheck disable=SC2046 # cost's words
		set -- $(cost "$arch" "$cpu" "$work/$e-plain-none.img" "$append" "$e-plain-$mode")
		[ $# -ge 3 ] || { failed=1; continue; }
		plain=$1 slots=$3
		# shellcheck disable=SC2046
		set -- $(cost "$arch" "$cpu" "$work/$e-shuffle-none.img" "$append" "$e-shuffle-$mode")
		[ $# -ge 4 ] || { failed=1; continue; }
		shuffled=$1 own=$2 moved=$4
		python3 -c 'import sys
e, mode, p, s, own, mem, moved = sys.argv[1:3] + [int(x) for x in sys.argv[3:]]
print("%s: %s: instructions %d, with --shuffle %d (+%d, x%.3f; %d in the shuffle'"'"'s "
      "functions, shuffled=%d); per kernel byte %.2f and %.2f" % (e, mode, p, s, s - p, s / p,
      own, moved, p / mem, s / mem))' "$e" "$mode" "$plain" "$shuffled" "$own" "$mem_bytes" \
			"$moved"
		[ "$mode" = kaslr ] && base_slots=$slots
	done
	units=$(echo "$t" | sed -n 's/^units=\([0-9]*\) .*/\1/p')
	python3 -c 'import math, sys
e, n, slots, mem = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
print("%s: entropy: log2(%d!) = %.2f bits of layout, log2(%d slots) = %.2f bits of base at -m %s"
      % (e, n, math.lgamma(n + 1) / math.log(2), slots, math.log2(slots), mem))' \
		"$e" "$units" "${base_slots:-1}" "$mem"
done
[ "$failed" -eq 0 ]
