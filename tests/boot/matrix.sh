#!/bin/sh
# Run files of boot cases (see i386-cases.sh; arguments are shell words, quoted as needed)
# through tests/boot/parallel.sh: one TAP-style line per case, then "boot: N passed, M
# failed". With -z every case that boots a reference image (BUILD_DIR/ARCH/kernel[-pie]
# [-4k|-high].img) runs twice more, named "zstd: ..." and "lz4: ...", on the image's
# compressed copies (mk/compress.mk): the same expectations hold. The cases of files after
# --plain run only as written, never on the compressed copies: long runs of the kernel's own
# code (selftest=hotplug) that test nothing of what the stub did before it, which the other
# cases on those copies already show to be the kernel.
# usage: matrix.sh [-z] BUILD_DIR CASES_FILE... [--plain CASES_FILE...]
set -u
here=$(cd "$(dirname "$0")" && pwd)

compressed=""
[ "${1:-}" = -z ] && { compressed="zstd lz4"; shift; }
B=$1
shift
files="" plain_files=""
while [ $# -gt 0 ] && [ "$1" != --plain ]; do
	files="$files $1" && shift
done
[ $# -gt 0 ] && shift && plain_files="$*"
work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-matrix.XXXXXX")
trap 'rm -rf "$work"' EXIT

# Packed images with the bits of one byte inverted, of the payload (4 KiB into the kernel)
# or of the relocation table, the checksum left as it was: the stub must refuse them.
corrupt() { # corrupt IMAGE PART:OFFSET COPY
	[ ! -f "$1" ] || python3 "$here/patch-image.py" "$1" "$3" --flip "$2" || exit 1
}
PAYLOAD_FLIPPED=$work/payload-flipped.img TABLE_FLIPPED=$work/table-flipped.img
PAYLOAD_FLIPPED64=$work/payload-flipped64.img TABLE_FLIPPED64=$work/table-flipped64.img
corrupt "$B/i386/kernel.img" payload:4096 "$PAYLOAD_FLIPPED"
corrupt "$B/i386/kernel.img" relocs:16 "$TABLE_FLIPPED"
corrupt "$B/x86_64/kernel.img" payload:4096 "$PAYLOAD_FLIPPED64"
corrupt "$B/x86_64/kernel.img" relocs:16 "$TABLE_FLIPPED64"
# The same in a PVH image, and a byte of its stub: the PVH entry's path checks itself too.
PVH_PAYLOAD_FLIPPED=$work/pvh-payload-flipped.img PVH_STUB_FLIPPED=$work/pvh-stub-flipped.img
corrupt "$B/x86_64/kernel-pvh.img" payload:4096 "$PVH_PAYLOAD_FLIPPED"
corrupt "$B/x86_64/kernel-pvh.img" stub:64 "$PVH_STUB_FLIPPED"

# Multiboot modules with their CRC-32 (gzip's trailer holds it): the kernel checks they
# survived. The large one covers most of low RAM at -m 64M, leaving few slots above it.
crc32() { gzip -c "$1" | tail -c 8 | od -An -tx4 -N4 | tr -d ' '; }
head -c 1M /dev/urandom >"$work/module.bin"
head -c 40M /dev/urandom >"$work/big-module.bin"
MODULE="$work/module.bin crc32=0x$(crc32 "$work/module.bin")"
MODULE_FILE=$work/module.bin # as Linux's -initrd takes it (PVH), one file without arguments
BIG_MODULE="$work/big-module.bin crc32=0x$(crc32 "$work/big-module.bin")"

cases_of() { # cases_of CASES_FILE...: their lines
	for f in "$@"; do
		B=$B PAYLOAD_FLIPPED=$PAYLOAD_FLIPPED TABLE_FLIPPED=$TABLE_FLIPPED \
			PAYLOAD_FLIPPED64=$PAYLOAD_FLIPPED64 TABLE_FLIPPED64=$TABLE_FLIPPED64 \
			PVH_PAYLOAD_FLIPPED=$PVH_PAYLOAD_FLIPPED PVH_STUB_FLIPPED=$PVH_STUB_FLIPPED \
			MODULE=$MODULE MODULE_FILE=$MODULE_FILE BIG_MODULE=$BIG_MODULE sh "$f"
	done
}
# shellcheck disable=SC2086 # the file lists, split on purpose
cases_of $files >"$work/cases.plain"
# The cases again on the compressed copies: the reference image a case boots (its first, if
# it names several), renamed. The --plain files' cases come first, since they are the long
# ones: parallel.sh starts the cases in order.
ref='^([^	]*)	(.*/(i386|x86_64)/kernel(-pie)?(-4k|-high)?)\.img([ '"'"'"]|$)'
for codec in $compressed; do
	sed -E -n "s#$ref#$codec: \1	\2-$codec.img\6#p" "$work/cases.plain"
done >"$work/cases.compressed"
# shellcheck disable=SC2086
cases_of $plain_files | cat - "$work/cases.plain" "$work/cases.compressed" >"$work/cases"

"$here/parallel.sh" -s boot "$work"
