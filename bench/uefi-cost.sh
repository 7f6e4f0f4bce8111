#!/bin/sh
# Instructions from a PE's entry point to the jump into the kernel, under UEFI firmware (OVMF,
# -M q35, QEMU TCG), counted by the TCG plugin bench/insncount.c: the firmware decides where
# the PE lies, so the plugin finds the entry by its first bytes and page offset (read from the
# file here) and counts every instruction run from it, firmware calls and interrupts
# included, to each block run at a 2 MiB boundary afterwards; the one at the kernel's
# physical entry is the count. The boots are kslide-stat's --uefi route (each from its own
# ESP, started by systemd-boot with the command line and initrd), one QEMU at a time, so the
# plugin's lines and kslide-stat's line up boot by boot.
#   kslide: IMAGE is a kslide PE (kslide-pack --format efi); the kernel's entry is the phys=
#           of the stub's line.
#   -L:     IMAGE is a Linux bzImage, through its own EFI stub; the entry is where init
#           (tests/linux/init.c, in the -I initramfs) finds "Kernel code".
# Prints one line per boot and a summary:
#   uefi-cost: image=... mode=kslide|linux boots=N instructions=MEDIAN min=... max=...
#
# usage: uefi-cost.sh [-L] [-n BOOTS] [-c CPU] [-m MEM] [-A APPEND] [-Q QEMU_ARG]... -I INITRD
#                     BUILD_DIR IMAGE
#   -n BOOTS   boots (at least 2, kslide-stat's minimum; default 3); the median is reported
#   -Q ARG     one more QEMU argument, e.g. -Q -device -Q virtio-rng-pci
set -u

linux=false boots=3 cpu=max mem=1G append="" initrd="" qemu_args=""
while getopts Ln:c:m:A:I:Q: opt; do
	case $opt in
	L) linux=true ;;
	n) boots=$OPTARG ;;
	c) cpu=$OPTARG ;;
	m) mem=$OPTARG ;;
	A) append=$OPTARG ;;
	I) initrd=$OPTARG ;;
	Q) qemu_args="$qemu_args --qemu-arg=$OPTARG" ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if ! { [ $# -eq 2 ] && [ -n "$initrd" ] && [ "$boots" -ge 2 ] 2>/dev/null; }; then
	echo "usage: $0 [-L] [-n BOOTS>=2] [-c CPU] [-m MEM] [-A APPEND] [-Q ARG]... -I INITRD" \
		"BUILD_DIR IMAGE" >&2
	exit 2
fi
B=$1 image=$2
stat=$B/bin/kslide-stat plugin=$B/bench/insncount.so
for f in "$stat" "$plugin" "$image" "$initrd"; do
	[ -f "$f" ] || { echo "uefi-cost: $f is missing (make $B/bench/insncount.so all)" >&2; exit 2; }
done

# The entry point's RVA and its first 32 bytes, through the PE's section table.
entry=$(python3 -c 'import struct, sys
d = open(sys.argv[1], "rb").read()
pe = struct.unpack_from("<I", d, 0x3c)[0] if len(d) >= 0x40 else 0
if d[pe:pe + 4] != b"PE\0\0":
    sys.exit("not a PE image")
sections, opt_size = struct.unpack_from("<H", d, pe + 6)[0], struct.unpack_from("<H", d, pe + 20)[0]
opt = pe + 24
rva = struct.unpack_from("<I", d, opt + 16)[0]
for i in range(sections):
    vsize, va, raw_size, raw_at = struct.unpack_from("<IIII", d, opt + opt_size + 40 * i + 8)
    if va <= rva < va + min(vsize, raw_size):
        at = raw_at + rva - va
        print(rva, d[at:at + 32].hex())
        sys.exit(0)
sys.exit("the entry point lies in no section with file bytes")' "$image") ||
	{ echo "uefi-cost: $image: cannot read its entry point" >&2; exit 1; }
rva=${entry% *} bytes=${entry#* }

work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-uefi-cost.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM

route="--uefi" mode=kslide
$linux && route="--uefi --linux" mode=linux
set -- --initrd "$initrd"
[ -n "$append" ] && set -- "$@" --append "$append"
# shellcheck disable=SC2086 # $route and $qemu_args are lists of words
"$stat" $route -n "$boots" -j 1 --cpu "$cpu" -m "$mem" --timeout 600 "$@" $qemu_args \
	--qemu-arg=-plugin \
	"--qemu-arg=$plugin,start=$bytes,page=$((rva % 4096)),align=0x200000,out=$work/counts" \
	--bases-out "$work/lines" "$image" >"$work/stat" 2>&1 || {
	echo "uefi-cost: kslide-stat failed:" >&2
	tail -n 20 "$work/stat" >&2
	exit 1
}

# Boot i's kernel entry: kslide's phys=, or the start of Linux's "Kernel code".
if $linux; then
	sed -n 's/^kslide-linux: _text=.* kernel_code=\(0x[0-9a-f]*\)-.*/\1/p' "$work/lines"
else
	sed -n 's/^kslide: base=.* phys=\(0x[0-9a-f]*\).*/\1/p' "$work/lines"
fi >"$work/entries"
python3 - "$work/counts" "$work/entries" "$(basename "$image")" "$mode" "$(wc -c <"$image")" <<'EOF'
import sys
counts, entries, name, mode, size = sys.argv[1:]
boots = []
for line in open(counts):
    words = dict(w.split("=", 1) for w in line.split()[1:])
    if "start" in words:
        boots.append((int(words["start"], 16), []))
    elif boots:
        boots[-1][1].append((int(words["end"], 16), int(words["instructions"])))
entry_of = [int(e, 16) for e in open(entries).read().split()]
if len(boots) != len(entry_of):
    sys.exit("uefi-cost: %d boots started at the entry point, %d reached the kernel"
             % (len(boots), len(entry_of)))
found = []
for i, ((start, ends), entry) in enumerate(zip(boots, entry_of)):
    n = [c for a, c in ends if a == entry]
    if not n:
        sys.exit("uefi-cost: boot %d: no block ran at the kernel's entry 0x%x after the PE's "
                 "entry 0x%x (candidates: %s)" % (i + 1, entry, start,
                 ", ".join("0x%x" % a for a, _ in ends) or "none"))
    found.append(n[0])
    print("uefi-cost: boot %d: entry=0x%x kernel=0x%x instructions=%d" % (i + 1, start, entry, n[0]))
s = sorted(found)
median = s[len(s) // 2] if len(s) % 2 else (s[len(s) // 2 - 1] + s[len(s) // 2]) // 2
print("uefi-cost: image=%s bytes=%s mode=%s boots=%d instructions=%d min=%d max=%d"
      % (name, size, mode, len(s), median, s[0], s[-1]))
EOF
