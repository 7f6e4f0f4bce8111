#!/bin/sh
# Boot an image N times in parallel and judge the spread of bases with the uniformity checker.
# With -V (x86-64), the virtual bases are judged too, over their own slots, and the physical
# and virtual draws of the same boots are tested for independence.
# usage: uniformity.sh CHECKER IMAGE N LO ALIGN [-V VLO VALIGN] [qemu-boot.sh options...]
set -u
checker=$1 image=$2 n=$3 lo=$4 align=$5
shift 5
vlo=""
if [ "${1:-}" = -V ]; then
	vlo=$2 valign=$3
	shift 3
fi
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp "${TMPDIR:-/tmp}/kslide-bases.XXXXXX")
trap 'rm -f "$out"' EXIT
seq 1 "$n" | xargs -P "$(nproc 2>/dev/null || echo 2)" -I{} "$here/qemu-boot.sh" "$@" "$image" \
	>"$out" 2>/dev/null
got=$(grep -c '^kslide: base=' "$out")
if [ "$got" -ne "$n" ]; then
	echo "uniformity: only $got of $n boots passed"
	exit 1
fi
"$checker" --field phys --lo "$lo" --align "$align" <"$out" || exit 1
[ -z "$vlo" ] && exit 0
"$checker" --field base --slots vslots --lo "$vlo" --align "$valign" <"$out" &&
	"$checker" --independence --lo "$lo" --align "$align" --vlo "$vlo" --valign "$valign" <"$out"
