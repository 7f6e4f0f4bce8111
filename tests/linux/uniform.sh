#!/bin/sh
# The uniform-linux-* stages: a Debian kernel packed by kslide-pack (make linux-images) booted
# N times to the tests' init (tests/linux/boot-many.sh: every boot's _text and "Kernel code"
# must be the stub's bases), then the spread of those bases judged by kslide-stat --from, the
# statistics the uniform-* stages use (tools/stat/stats.c), whose exit status follows its
# verdict. Linux prints no map of its own for the checker's recount, so the slots are the
# stub's.
# usage: uniform.sh BUILD_DIR 686|cloud-amd64 N [qemu-boot.sh options...]
set -u
[ $# -ge 3 ] || { echo "usage: $0 BUILD_DIR 686|cloud-amd64 N [qemu-boot.sh options...]" >&2; exit 2; }
B=$1 flavour=$2 n=$3
shift 3
case $flavour in
686) arch=i386 ;;
cloud-amd64) arch=x86_64 ;;
*) echo "uniform: no kernel flavour '$flavour'" >&2; exit 2 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
image=$B/linux/$flavour.img initrd=$B/linux/$arch/initramfs.cpio
for f in "$image" "$initrd" "$B/bin/kslide-stat"; do
	[ -f "$f" ] || { echo "uniform: $f is missing: run make linux-images" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-uniform-linux.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
# The tests' Linux command line (tests/linux/cmdline).
JOBS=2 nice "$here/boot-many.sh" "$n" "$work/lines" -a "$arch" -t 180 \
	-A "$(cat "$here/cmdline")" -I "$initrd" "$@" "$image" || exit 1
"$B/bin/kslide-stat" --from "$work/lines" "$image"
