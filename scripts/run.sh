#!/bin/sh
# `make run`: boot a packed reference kernel a few times and show where it landed.
# usage: run.sh [-a i386|x86_64] IMAGE [BOOTS] [MEM]
set -u
arch=i386
if [ "${1:-}" = -a ]; then
	arch=$2
	shift 2
fi
image=$1 boots=${2:-5} mem=${3:-1G}
here=$(cd "$(dirname "$0")/.." && pwd)
echo "Booting $image $boots times under QEMU (-m $mem, -cpu max); each line is one boot:"
for i in $(seq 1 "$boots"); do
	"$here/tests/boot/qemu-boot.sh" -a "$arch" -c max -m "$mem" "$image" || exit 1
done
echo "Again with nokaslr:"
"$here/tests/boot/qemu-boot.sh" -a "$arch" -c max -m "$mem" -A nokaslr "$image"
echo
