#!/bin/sh
# Image size: what packing adds to a kernel. For each kernel ELF, packs it uncompressed and
# prints the relocation count, the table's bytes per relocation, and the packed image against
# the ELF's loadable bytes (the sum of its PT_LOAD file sizes, what a plain loader would copy).
# Compressed sizes: docs/results.md, section 4b.
# usage: image-size.sh KSLIDE_PACK KERNEL_ELF...
set -u
pack=$1
shift
work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-size.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
for elf in "$@"; do
	stats=$("$pack" --stats --compress none -o "$work/image" "$elf") || exit 1
	relocs=$(echo "$stats" | sed -n 's/^relocations: \([0-9]*\)$/\1/p')
	table=$(echo "$stats" | sed -n 's/^table bytes: \([0-9]*\) .*/\1/p')
	loadable=0
	for size in $(readelf -lW "$elf" | awk '$1 == "LOAD" { print $5 }'); do
		loadable=$((loadable + size))
	done
	image=$(wc -c <"$work/image")
	[ -n "$relocs" ] && [ -n "$table" ] && [ "$loadable" -gt 0 ] || {
		echo "image-size: $elf: could not read the packer's statistics" >&2
		exit 1
	}
	awk -v n="$(basename "$elf")" -v r="$relocs" -v t="$table" -v l="$loadable" -v i="$image" \
		'BEGIN { printf "size: %s relocations=%d table=%d bytes (%.2f bytes/relocation, " \
			"%.2f%% of the loadable bytes) loadable=%d image=%d overhead=%d bytes " \
			"(%.2f%%; stub and padding %d)\n", n, r, t, r ? t / r : 0, 100 * t / l, l, i,
			i - l, 100 * (i - l) / l, i - l - t }'
done
