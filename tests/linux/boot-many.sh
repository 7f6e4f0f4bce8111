#!/bin/sh
# Boot a kslide-packed Linux image N times in parallel (tests/boot/qemu-boot.sh -L: each boot
# must reach init with _text and "Kernel code" at the stub's bases) and keep what the boots
# said: OUT gets every passing boot's "kslide:" base line and the memory map and initrd its
# init reported (tests/linux/init.c), for kslide-stat --from or the uniformity checker; a
# failed boot's log is kept as OUT.failN.log. Prints one summary line.
# usage: boot-many.sh N OUT [qemu-boot.sh options...] IMAGE
set -u
[ "${1:-}" = --one ] && { # internal: --one DIR NUMBER qemu-boot.sh arguments...
	dir=$2 n=$3
	shift 3
	if "$(dirname "$0")/../boot/qemu-boot.sh" -L -l "$dir/$n.log" "$@" >"$dir/$n.line" \
		2>"$dir/$n.err"; then
		grep -aE '^kslide-linux: (usable|initrd)=' "$dir/$n.log" >>"$dir/$n.line"
	else
		rm -f "$dir/$n.line"
	fi
	exit 0
}
[ $# -ge 3 ] || { echo "usage: $0 N OUT [qemu-boot.sh options...] IMAGE" >&2; exit 2; }
n=$1 out=$2
shift 2
dir=$(mktemp -d "${TMPDIR:-/tmp}/kslide-linux-boots.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
start=$(date +%s)
seq 1 "$n" | xargs -P "${JOBS:-$(nproc 2>/dev/null || echo 2)}" -I{} "$0" --one "$dir" {} "$@"
failed=0
: >"$out.tmp"
for i in $(seq 1 "$n"); do
	if [ -s "$dir/$i.line" ]; then
		cat "$dir/$i.line" >>"$out.tmp"
	else
		failed=$((failed + 1))
		cat "$dir/$i.err" >"$out.fail$i.log"
	fi
done
mv "$out.tmp" "$out"
echo "boot-many: $n boots, $failed failed, $(($(date +%s) - start))s: $*"
[ "$failed" -eq 0 ]
