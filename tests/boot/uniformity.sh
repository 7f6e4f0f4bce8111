#!/bin/sh
# Boot an image N times in parallel and judge the spread of bases with the uniformity checker.
# usage: uniformity.sh CHECKER IMAGE N LO ALIGN [qemu-boot.sh options...]
set -u
checker=$1 image=$2 n=$3 lo=$4 align=$5
shift 5
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
"$checker" --field phys --lo "$lo" --align "$align" <"$out"
