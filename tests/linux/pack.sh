#!/bin/sh
# kslide-pack on Debian's stock kernels (make linux-kernels), judged by readings it did not
# make: tests/linux/bzimage.py's own parse of the payload (Python's codecs, the lz4 and zstd
# programs) for the relocation lists, readelf for the vmlinux's span, od for the header.
#   - the relocation lists have the arch's structure (i386: one 32-bit list; x86-64: 32-bit,
#     inverse 32-bit and 64-bit) and kslide-pack counts what the independent parse counts;
#   - the fixups are the lists' entries, kind by kind;
#   - the memory that must be free at entry is max(vmlinux span, init_size); the windows from the
#     header (min_alignment, pref_address) and the ELF (the kernel map's start);
#   - the 686 payload recompressed with every codec Linux offers packs to the same image.
# One TAP-style line per check, then "linux-pack: N passed, M failed".
# usage: pack.sh BUILD_DIR
set -u
B=$1
PACK=${KSLIDE_PACK:-$B/bin/kslide-pack}
HERE=$(cd "$(dirname "$0")" && pwd)
BZ=$HERE/bzimage.py
for f in "$PACK" "$B/linux/686/vmlinuz" "$B/linux/cloud-amd64/vmlinuz"; do
	[ -e "$f" ] || { echo "linux-pack: $f is missing: run make linux-kernels first" >&2; exit 1; }
done
T=$(mktemp -d "${TMPDIR:-/tmp}/kslide-linux-pack.XXXXXX")
trap 'rm -rf "$T"' EXIT
n=0 passed=0 failed=0
check() { # check NAME CONDITION-COMMAND...
	name=$1
	shift
	n=$((n + 1))
	if "$@"; then
		passed=$((passed + 1)) && echo "ok $n - $name"
	else
		failed=$((failed + 1)) && echo "not ok $n - $name"
	fi
}
u32() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }
u64hex() { printf '0x%x' "$(od -An -tu8 -j "$2" -N8 "$1" | tr -d ' ')"; }
hex() { printf '0x%x' "$1"; }

# Packed as LZ4: what is checked here does not depend on the codec kslide stores the payload
# with, and the default, zstd at level 22, costs 15 to 25 s of CPU a kernel (the boot stages
# boot the images make packs with the default).
for flavour in 686 cloud-amd64; do
	k=$B/linux/$flavour/vmlinuz
	"$PACK" -v --compress lz4 -o "$T/$flavour.img" "$k" 2>"$T/$flavour.v"
	rc=$?
	check "$flavour: packs ($(sed -n 's/^linux: bzImage, //p' "$T/$flavour.v"))" [ $rc -eq 0 ]
	"$BZ" payload "$k" "$T/$flavour.raw" || exit 1
	set -- $("$BZ" lists "$T/$flavour.raw" | tr '=' ' ')
	l32=$2 linv=$4 l64=$6
	if [ $flavour = 686 ]; then
		check "$flavour: one 32-bit list ($l32 entries)" [ "$l32" -gt 0 -a "$linv" -eq 0 -a "$l64" -eq 0 ]
	else
		check "$flavour: 32-bit, inverse 32-bit and 64-bit lists ($l32, $linv, $l64)" \
			[ "$l32" -gt 0 -a "$linv" -gt 0 -a "$l64" -gt 0 ]
	fi
	check "$flavour: kslide-pack reads the lists the independent parse reads" \
		grep -qx "linux: relocation lists: $l32 32-bit, $linv inverse 32-bit, $l64 64-bit" "$T/$flavour.v"
	set -- $(sed -n 's/^fixups: \([0-9]*\) 32-bit, \([0-9]*\) 32-bit signed, \([0-9]*\) 64-bit, \([0-9]*\) inverse 32-bit$/\1 \2 \3 \4/p' "$T/$flavour.v")
	check "$flavour: fixups are the entries, by kind ($*)" \
		[ "$(($1 + $2))" -eq "$l32" -a "$3" -eq "$l64" -a "$4" -eq "$linv" ]

	# The ELF's physical span, by readelf, against init_size from the header.
	# __START_KERNEL_map (PAGE_OFFSET): virtual minus physical, off the per-CPU segment.
	set -- $(readelf -lW "$T/$flavour.raw" | python3 -c '
import sys
# LOAD  Offset VirtAddr PhysAddr FileSiz MemSiz ...
loads = [[int(f, 16) for f in l.split()[2:6]] for l in sys.stdin if l.split()[:1] == ["LOAD"]]
lo = min(paddr for vaddr, paddr, filesz, memsz in loads)
hi = max(paddr + memsz for vaddr, paddr, filesz, memsz in loads)
print(hi - lo, next(vaddr - paddr for vaddr, paddr, filesz, memsz in loads if vaddr))')
	span=$1 kernel_map=$2
	init=$(u32 "$k" $((0x260)))
	want=$((span > init ? span : init))
	check "$flavour: memory free at entry is max(span $span, init_size $init)" \
		grep -q "^linux: $want bytes from the base must be free at entry" "$T/$flavour.v"
	align=$(hex $((1 << $(od -An -tu1 -j $((0x235)) -N1 "$k" | tr -d ' '))))
	pref=$(u64hex "$k" $((0x258)))
	if [ $flavour = 686 ]; then
		window="base in [$pref, 0x20000000) aligned to $align"
	else
		vlo=$(python3 -c "print(hex($kernel_map + $pref))")
		window="virtual base in [$vlo, 0xffffffffbfffffff] (last byte) aligned to $align"
	fi
	check "$flavour: Linux's window from the header: $window" grep -qF "$window" "$T/$flavour.v"
done

# Two images alike but for where their bzImages kept the payload: the setup header's
# payload_offset and payload_length (file offsets 0x248-0x24f) in the handoff data, and the
# image checksum over them. The header's layout is tests/boot/patch-image.py's.
same_but_payload_fields() {
	python3 - "$HERE/../boot/patch-image.py" "$1" "$2" <<'EOF_PY'
import importlib.util, struct, sys
spec = importlib.util.spec_from_file_location("patch_image", sys.argv[1])
layout = importlib.util.module_from_spec(spec)
spec.loader.exec_module(layout)
a, b = (open(p, "rb").read() for p in sys.argv[2:4])
h = a.find(layout.MAGIC)
_, data_field, fmt = layout.field("handoff_data_offset")
data = struct.unpack_from(fmt, a, h + data_field)[0] - 0x1f1  # file offset 0x1f1 comes first
skips = sorted([(h + layout.CHECKSUM, h + layout.CHECKSUM + 4), (data + 0x248, data + 0x250)])
at, same = 0, len(a) == len(b)
for lo, hi in skips:
    same = same and a[at:lo] == b[at:lo]
    at = hi
sys.exit(0 if same and a[at:] == b[at:] else 1)
EOF_PY
}

# Every codec: the same vmlinux and lists, so the same image, byte for byte. The images store
# their payload as LZ4: how the bzImage held it must not matter whichever codec kslide writes,
# and zstd at level 22 would spend 15 s of CPU on each of these packs. Each codec's compress and
# pack runs beside the others; the checks read the results in the codecs' order.
"$PACK" --compress lz4 -o "$T/686-lz4-ref.img" "$B/linux/686/vmlinuz" 2>"$T/stderr" || exit 1
for codec in gzip bzip2 lzma xz lz4 zstd; do
	{
		"$BZ" compress $codec "$T/686.raw" "$T/686.$codec" &&
			"$BZ" put "$B/linux/686/vmlinuz" "$T/686.$codec" "$T/686-$codec.bz" &&
			"$PACK" --compress lz4 -o "$T/686-$codec.img" "$T/686-$codec.bz" 2>"$T/$codec.stderr"
		echo $? >"$T/$codec.rc"
	} &
done
wait
packs_the_same() { # packs_the_same CODEC
	[ "$(cat "$T/$1.rc")" = 0 ] && same_but_payload_fields "$T/686-$1.img" "$T/686-lz4-ref.img"
}
for codec in gzip bzip2 lzma xz lz4 zstd; do
	check "the 686 payload as $codec packs to the same image" packs_the_same $codec
done

# cloud-amd64 is linked at 16 MiB, where its own uncompressed image lies: the warning says what
# its user can do (compress, or boot without nokaslr), never to relink a kernel they did not build.
"$PACK" --compress none -o "$T/cloud-none.img" "$B/linux/cloud-amd64/vmlinuz" 2>"$T/stderr"
rc=$?
check "cloud-amd64 uncompressed: warned, told to compress or boot without nokaslr, not to relink" \
	sh -c '[ $1 -eq 0 ] && grep -q "warning: .*linked at 0x1000000, inside the packed image.s own load range" "$2" &&
		grep -qF "boot it without nokaslr, or pack it compressed (--compress zstd)" "$2" &&
		! grep -q "link it at" "$2"' - "$rc" "$T/stderr"

echo "linux-pack: $passed passed, $failed failed"
[ $failed -eq 0 ]
