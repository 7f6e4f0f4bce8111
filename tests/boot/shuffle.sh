#!/bin/sh
# Function-granular shuffling, judged by the kernel itself: examples/shuffle-i386 (packed with
# kslide-pack --shuffle) checks every kind of reference the shuffle must follow and prints the
# order its functions ended up in. BOOTS boots under QEMU's Multiboot loader must each pass
# with shuffled= on the stub's line, no two of them in the same order (16 functions: two
# uniform draws agree with probability 1/16!); one boot with nokaslr must pass with shuffled=0
# and the link order (nm's); a zstd-compressed copy must pass too; a copy whose table is
# damaged (its checksum made to match) must be refused with a message. With CHECKER
# (tests/boot/uniformity.c), the position of op0 among the 16 over the BOOTS boots is judged
# uniform over its 16 places.
# usage: shuffle.sh BUILD_DIR BOOTS [CHECKER]
set -u
here=$(cd "$(dirname "$0")" && pwd)
B=$1 boots=$2 checker=${3:-}
E=$B/examples/shuffle-i386
for f in "$E/kernel.img" "$E/kernel.elf" ${checker:+"$checker"}; do
	[ -f "$f" ] || { echo "shuffle: $f is missing: run make check" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-shuffle.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)) failed=$((failed + 1)); echo "not ok $n - $1"; }

PASS="-e 'shuffle-example: pass' -N 'shuffle-example: FAIL'"
for i in $(seq 1 "$boots"); do
	printf 'boot %s\t-l %s %s -e %s %s\n' "$i" "$work/boot.$i" "$PASS" \
		"' shuffled=[1-9][0-9]*\$'" "$E/kernel.img"
done >"$work/cases"
printf 'nokaslr\t-l %s -A nokaslr %s -e %s %s\n' "$work/nokaslr" "$PASS" "' shuffled=0\$'" \
	"$E/kernel.img" >>"$work/cases"
# One boot first: a broken shuffle fails it (or hangs it to the timeout) once, not BOOTS times.
# Then the rest, two at a time: the machine's other work keeps its cores.
mkdir "$work/first"
head -n 1 "$work/cases" >"$work/first/cases"
if ! "$here/parallel.sh" -q "$work/first" >/dev/null; then
	not_ok "the first boot failed"
	head -n 20 "$work/first/err.1" | sed 's/^/#  | /'
	echo "shuffle: $((n - failed)) passed, $failed failed"
	exit 1
fi
if "$here/parallel.sh" -q -j 2 "$work" >/dev/null; then
	ok "$boots shuffled boots and one nokaslr boot pass their self-checks"
else
	not_ok "boots failed: $(grep -Lx 0 "$work"/status.* | wc -l) of $((boots + 1))"
	first=$(grep -Lx 0 "$work"/status.* | sed -n '1s/.*status\.//p')
	head -n 20 "$work/err.$first" | sed 's/^/#  | /'
fi

order() { sed -n 's/^shuffle-example: order //p' "$1" | tr -d '\r'; }
for i in $(seq 1 "$boots"); do order "$work/boot.$i"; done >"$work/orders"
distinct=$(sort -u "$work/orders" | grep -c .)
if [ "$distinct" -eq "$boots" ]; then
	ok "$boots boots, $boots different orders"
else
	not_ok "$boots boots gave only $distinct different orders"
	sort "$work/orders" | uniq -c | sort -rn | head -n 3 | sed 's/^/#  /'
fi

link=$(nm -n "$E/kernel.elf" | sed -n 's/.* op\([0-9]*\)$/\1/p' | tr '\n' ' ' | sed 's/ $//')
if [ "$(order "$work/nokaslr")" = "$link" ]; then
	ok "nokaslr keeps the link order ($link)"
else
	not_ok "nokaslr: order '$(order "$work/nokaslr")', linked '$link'"
fi

# The shuffle after a compressed payload is decoded into place: one boot of a zstd copy.
if "$B/bin/kslide-pack" --shuffle --compress zstd -o "$work/zstd.img" "$E/kernel.elf" \
	2>"$work/zstd.err" && "$here/qemu-boot.sh" -e 'shuffle-example: pass' \
	-e ' shuffled=[1-9]' "$work/zstd.img" >"$work/zstd.out" 2>>"$work/zstd.err"; then
	ok "the zstd-compressed copy passes too"
else
	not_ok "the zstd-compressed copy"
	tail -n 20 "$work/zstd.err" | sed 's/^/#  | /'
fi

# A damaged table whose checksum is made to match: refused with a message, never a hang.
if python3 "$here/patch-image.py" "$E/kernel.img" "$work/bad.img" --flip shuffle:5 --crc &&
	"$here/qemu-boot.sh" -H -e 'kslide: error: .*shuffle table' "$work/bad.img" \
		>/dev/null 2>"$work/bad.err"; then
	ok "a bad shuffle table is refused with a message, the machine reset"
else
	not_ok "a bad shuffle table is not refused as it should be"
	tail -n 20 "$work/bad.err" | sed 's/^/#  | /'
fi

if [ -n "$checker" ]; then
	# op0's position among the ops as a "base" over 16 page slots, for the checker.
	for i in $(seq 1 "$boots"); do
		p=$(sed -n 's/^shuffle-example: op0 position \([0-9]*\).*/\1/p' "$work/boot.$i")
		printf 'kslide: base=0x%x phys=0x%x slots=16 align=0x1000 entropy=rdrand credited=64\n' $((p * 4096)) \
			$((p * 4096))
	done >"$work/positions"
	if verdict=$("$checker" --slots 16 --lo 0 --align 0x1000 <"$work/positions" 2>&1); then
		ok "op0's position uniform over 16 places: $verdict"
	else
		not_ok "op0's position not uniform: $verdict"
	fi
fi
echo "shuffle: $((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
