#!/bin/sh
# Boot an image N times in parallel and judge the spread of its bases with the uniformity
# checker, over the slots the checker recounts from the image header and the memory map each
# boot's kernel prints (not the stub's own slots=, which must agree). For an image with a
# virtual window (x86-64) the virtual bases are judged too, and the independence of the two.
# With -E, the kernel's entry area (the idt= of its status line) is judged over its ESLOTS page
# slots from ELO, and for independence of the bases.
# usage: uniformity.sh CHECKER IMAGE N [-E ELO ESLOTS] [qemu-boot.sh options...]
set -u
checker=$1 image=$2 n=$3
shift 3
entry=""
if [ "${1:-}" = -E ]; then
	entry="--entry-lo $2 --entry-slots $3"
	shift 3
fi
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-bases.XXXXXX")
trap 'rm -rf "$work"' EXIT
if ! seq 1 "$n" | xargs -P "$(nproc 2>/dev/null || echo 2)" -I{} "$here/qemu-boot.sh" "$@" \
	-l "$work/boot.{}" "$image" >/dev/null 2>"$work/errors"; then
	echo "uniformity: $(grep -c '^qemu-boot: FAIL' "$work/errors") of $n boots failed; the first:"
	head -n 20 "$work/errors"
	exit 1
fi
# Each boot's kslide line, with the entry area the kernel reported appended, and its map.
for i in $(seq 1 "$n"); do
	line=$(grep -a '^kslide: base=' "$work/boot.$i")
	idt=$(sed -n 's/^kernel: umip=.* idt=\(0x[0-9a-f]*\)$/\1/p' "$work/boot.$i")
	echo "$line${idt:+ idt=$idt}"
	grep -a '^kernel: usable=' "$work/boot.$i"
done >"$work/lines"
# shellcheck disable=SC2086
"$checker" --image "$image" $entry <"$work/lines"
