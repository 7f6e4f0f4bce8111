#!/bin/sh
# Boot an image N times in parallel (tests/boot/parallel.sh) and judge the spread of its bases with the uniformity
# checker, over the slots the checker recounts from the image header and the memory map each
# boot's kernel prints (not the stub's own slots=, which must agree). For an image with a
# virtual window (x86-64) the virtual bases are judged too, and the independence of the two.
# With -E, the kernel's entry area (the idt= of its status line) is judged over its ESLOTS page
# slots from ELO, and for independence of the bases; with -D, the x86-64 direct map's base
# (the "direct map" of the kernel's entry-area line) over its DSLOTS 1 GiB slots from DLO.
# usage: uniformity.sh CHECKER IMAGE N [-E ELO ESLOTS] [-D DLO DSLOTS] [qemu-boot.sh options...]
set -u
checker=$1 image=$2 n=$3
shift 3
entry=""
if [ "${1:-}" = -E ]; then
	entry="--entry-lo $2 --entry-slots $3"
	shift 3
fi
if [ "${1:-}" = -D ]; then
	entry="$entry --dmap-lo $2 --dmap-slots $3"
	shift 3
fi
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-bases.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The boots through tests/boot/parallel.sh: the options as shell words, each quoted.
args=""
for a in "$@"; do
	args="$args '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"
done
for i in $(seq 1 "$n"); do
	printf 'boot %s\t-l %s%s %s\n' "$i" "$work/boot.$i" "$args" "$image"
done >"$work/cases"
if ! "$here/parallel.sh" -q "$work"; then
	failures=$(grep -Lx 0 "$work"/status.* | wc -l)
	first=$(grep -Lx 0 "$work"/status.* | sed -n '1s/.*status\.//p')
	echo "uniformity: $failures of $n boots failed; the first (boot $first):"
	head -n 20 "$work/err.$first"
	exit 1
fi
# Each boot's kslide line, with the entry area and the direct map the kernel reported
# appended, and its map; the loader line's image= too (where UEFI firmware put the image,
# which the stub avoids).
for i in $(seq 1 "$n"); do
	grep -a '^kslide: loader=' "$work/boot.$i"
	line=$(grep -a '^kslide: base=' "$work/boot.$i")
	idt=$(sed -n 's/^kernel: umip=.* idt=\(0x[0-9a-f]*\)$/\1/p' "$work/boot.$i")
	dmap=$(sed -n 's/^kernel: entry area .*, direct map \(0x[0-9a-f]*\)$/\1/p' "$work/boot.$i")
	echo "$line${idt:+ idt=$idt}${dmap:+ dmap=$dmap}"
	grep -a '^kernel: usable=' "$work/boot.$i"
done >"$work/lines"
# shellcheck disable=SC2086
"$checker" --image "$image" $entry <"$work/lines"
