#!/bin/sh
# Boot an image N times in parallel and judge the spread of bases with the uniformity checker.
# With -V (x86-64), the virtual bases are judged too, over their own slots, and the physical
# and virtual draws of the same boots are tested for independence. With -E, the entry area
# (the kernel's "idt=" on its status line) is judged over its own page slots, and tested for
# independence of the physical base (and of the virtual one, with -V).
# usage: uniformity.sh CHECKER IMAGE N LO ALIGN [-V VLO VALIGN] [-E ELO ESLOTS]
#                      [qemu-boot.sh options...]
set -u
checker=$1 image=$2 n=$3 lo=$4 align=$5
shift 5
vlo="" elo=""
while [ "${1:-}" = -V ] || [ "${1:-}" = -E ]; do
	case $1 in
	-V) vlo=$2 valign=$3 ;;
	-E) elo=$2 eslots=$3 ;;
	esac
	shift 3
done
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-bases.XXXXXX")
trap 'rm -rf "$work"' EXIT
out=$work/lines
seq 1 "$n" | xargs -P "$(nproc 2>/dev/null || echo 2)" -I{} "$here/qemu-boot.sh" \
	-l "$work/{}.log" "$@" "$image" >"$out" 2>/dev/null
got=$(grep -c '^kslide: base=' "$out")
if [ "$got" -ne "$n" ]; then
	echo "uniformity: only $got of $n boots passed"
	exit 1
fi
"$checker" --field phys --lo "$lo" --align "$align" <"$out" || exit 1
if [ -n "$vlo" ]; then
	"$checker" --field base --slots vslots --lo "$vlo" --align "$valign" <"$out" &&
		"$checker" --independence --lo "$lo" --align "$align" --vlo "$vlo" \
			--valign "$valign" <"$out" || exit 1
fi
[ -z "$elo" ] && exit 0
# Each boot's kslide line with the kernel's idt= and the window's slot count added.
for i in $(seq 1 "$n"); do
	line=$(grep -a '^kslide: base=' "$work/$i.log" | head -n 1)
	idt=$(sed -n 's/^kernel: umip=.* idt=\(0x[0-9a-f]*\)$/\1/p' "$work/$i.log")
	echo "$line idt=$idt idtslots=$eslots"
done >"$work/entry"
page=0x1000
"$checker" --field idt --slots idtslots --lo "$elo" --align "$page" <"$work/entry" &&
	"$checker" --independence --lo "$lo" --align "$align" --vfield idt --vslots idtslots \
		--vlo "$elo" --valign "$page" <"$work/entry" || exit 1
[ -z "$vlo" ] && exit 0
"$checker" --independence --field base --slots vslots --lo "$vlo" --align "$valign" \
	--vfield idt --vslots idtslots --vlo "$elo" --valign "$page" <"$work/entry"
