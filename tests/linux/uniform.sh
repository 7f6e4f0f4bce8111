#!/bin/sh
# The uniform-linux-* stages: a Debian kernel packed by kslide-pack --compress lz4 (make
# linux-images; the stub's LZ4 decode costs a fifth of zstd's, and boot-linux boots the zstd
# images) booted N times to the tests' init (tests/linux/boot-many.sh: every boot's _text and
# "Kernel code" must be the stub's bases), then the spread of those bases judged by the
# uniformity checker the uniform-* stages use (tests/boot/uniformity.c): the slots recounted
# from the image header and the memory map Linux reports (its firmware memmap, less the packed
# image and the initrd), which must agree with the stub's; each base's uniformity, and on
# x86-64 the independence of the physical and virtual draws. kslide-stat --from then prints
# the figures (min-entropy, collisions) for the same lines; both must pass.
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
image=$B/linux/$flavour-lz4.img initrd=$B/linux/$arch/initramfs.cpio
for f in "$image" "$initrd" "$B/bin/kslide-stat" "$B/host/tests/uniformity"; do
	[ -f "$f" ] && continue
	echo "uniform: $f is missing: make $f builds it (make check, all a stage needs)" >&2
	exit 1
done
work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-uniform-linux.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
# The tests' Linux command line (tests/linux/cmdline).
if ! "$here/boot-many.sh" "$n" "$work/lines" -a "$arch" -t 180 \
	-A "$(cat "$here/cmdline")" -I "$initrd" "$@" "$image"; then
	# What each failed boot printed: the harness's verdict and kslide's lines (its placement,
	# for kslide.phys= on an image packed with --debug-placement), then the serial log from
	# Linux's first warning or oops on, since the first is usually the cause (else its end).
	for log in "$work"/lines.fail*.log; do
		echo "uniform: ${log#"$work"/lines.}:"
		first=$(grep -anm1 -E 'cut here|WARNING:|BUG:|Oops|Kernel panic' "$log" | cut -d: -f1)
		{
			grep -aE '^[^ ]|(^|\| )kslide:' "$log"
			if [ -n "$first" ]; then
				sed -n "$first,\$p" "$log" | head -n 150
			else
				grep -a '^ ' "$log" | grep -av 'kslide:' | tail -n 40
			fi
		} | sed 's/^/  /'
	done
	exit 1
fi
"$B/host/tests/uniformity" --image "$image" <"$work/lines" || exit 1
"$B/bin/kslide-stat" --from "$work/lines" "$image"
