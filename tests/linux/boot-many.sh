#!/bin/sh
# Boot a kslide-packed Linux image N times in parallel (tests/boot/parallel.sh; qemu-boot.sh
# -L: each boot must reach init with _text and "Kernel code" at the stub's bases) and keep what
# the boots said: OUT gets every passing boot's "kslide:" base line and the memory map and
# initrd its init reported (tests/linux/init.c), for kslide-stat --from or the uniformity
# checker; a failed boot's log is kept as OUT.failN.log. Prints one summary line. JOBS: the
# most boots at once (parallel.sh).
# usage: boot-many.sh N OUT [qemu-boot.sh options...] IMAGE
set -u
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 3 ] || { echo "usage: $0 N OUT [qemu-boot.sh options...] IMAGE" >&2; exit 2; }
n=$1 out=$2
shift 2
dir=$(mktemp -d "${TMPDIR:-/tmp}/kslide-linux-boots.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
start=$(date +%s)
# The arguments as shell words, each quoted, for the cases file.
args=""
for a in "$@"; do
	args="$args '$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'"
done
for i in $(seq 1 "$n"); do
	printf 'boot %s\t-L -l %s%s\n' "$i" "$dir/$i.log" "$args"
done >"$dir/cases"
"$here/../boot/parallel.sh" -q "$dir"
failed=0
: >"$out.tmp"
for i in $(seq 1 "$n"); do
	if [ "$(cat "$dir/status.$i")" = 0 ]; then
		cat "$dir/out.$i" >>"$out.tmp"
		grep -aE '^kslide-linux: (usable|initrd)=' "$dir/$i.log" >>"$out.tmp"
	else
		failed=$((failed + 1))
		cat "$dir/err.$i" >"$out.fail$i.log"
	fi
done
mv "$out.tmp" "$out"
echo "boot-many: $n boots, $failed failed, $(($(date +%s) - start))s: $*"
[ "$failed" -eq 0 ]
