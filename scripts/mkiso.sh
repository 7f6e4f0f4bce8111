#!/bin/sh
# Build a bootable GRUB ISO around a packed kslide image: GRUB loads it with `multiboot2` and
# each MODULE with `module2 ... crc32=0x<crc>`, so the reference kernel can check that the
# module survived the kernel's move. By default the ISO boots under BIOS (i386-pc) and UEFI
# (x86_64-efi) alike, with GRUB's console on COM1 too.
#
# usage: mkiso.sh [-p PLATFORM] [-A CMDLINE] [-G] -o OUT.iso IMAGE [MODULE...]
#   -p PLATFORM  one GRUB platform (i386-pc, x86_64-efi), or all (the default): every platform
#                installed, which must include i386-pc and x86_64-efi
#   -A CMDLINE   kernel command line (default: none)
#   -G           load GRUB's video drivers, for a kernel that asks for a framebuffer
#                (IMAGE may be any kernel GRUB's multiboot2 loads, packed or not)
set -u
prog=mkiso
platform=all cmdline="" out="" video=""
usage() { echo "usage: $0 [-p PLATFORM] [-A CMDLINE] [-G] -o OUT.iso IMAGE [MODULE...]" >&2; exit 2; }
case ${1:-} in
--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
--version) echo "$prog (kslide)"; exit 0 ;;
esac
while getopts p:A:o:G opt; do
	case $opt in
	p) platform=$OPTARG ;;
	A) cmdline=$OPTARG ;;
	G) video="insmod all_video" ;;
	o) out=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ -n "$out" ] && [ $# -ge 1 ] || usage
image=$1
shift
for f in "$image" "$@"; do
	[ -f "$f" ] || { echo "$prog: $f: no such file" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-iso.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/iso/boot/grub"
cp "$image" "$work/iso/boot/kernel.img"

# gzip's trailer holds the CRC-32 of its input: the same polynomial as lib/crc32.c.
crc32() { gzip -c "$1" | tail -c 8 | od -An -tx4 -N4 | tr -d ' '; }

cfg=$work/iso/boot/grub/grub.cfg
cat >"$cfg" <<CFG
set timeout=0
set default=0
serial --unit=0 --speed=115200
terminal_input serial console
terminal_output serial console
$video
menuentry "kslide" {
	multiboot2 /boot/kernel.img $cmdline
CFG
n=0
for m in "$@"; do
	cp "$m" "$work/iso/boot/module$n.bin"
	printf '\tmodule2 /boot/module%s.bin crc32=0x%s\n' "$n" "$(crc32 "$m")" >>"$cfg"
	n=$((n + 1))
done
printf '\tboot\n}\n' >>"$cfg"

missing_platform() {
	echo "$prog: GRUB platform $1 is not installed (see scripts/bootstrap.sh)" >&2
	exit 1
}
# grub-mkrescue honours one --directory only; without it, it builds for every platform installed.
set --
if [ "$platform" = all ]; then
	for p in i386-pc x86_64-efi; do
		[ -d "/usr/lib/grub/$p" ] || missing_platform "$p"
	done
else
	[ -d "/usr/lib/grub/$platform" ] || missing_platform "$platform"
	set -- --directory="/usr/lib/grub/$platform"
fi
# Fonts, locales and themes are of no use on a serial console.
tmp=$(dirname "$out")/.$(basename "$out").tmp
if ! grub-mkrescue "$@" --fonts= --locales= --themes= -o "$tmp" "$work/iso" \
	>"$work/log" 2>&1; then
	sed "s/^/$prog: /" "$work/log" >&2
	rm -f "$tmp"
	exit 1
fi
mv "$tmp" "$out"
