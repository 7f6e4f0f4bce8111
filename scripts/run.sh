#!/bin/sh
# `make run`: boot the packed reference kernel a few times and show where it landed.
# usage: run.sh IMAGE [BOOTS] [MEM]
set -u
image=$1 boots=${2:-5} mem=${3:-1G}
here=$(cd "$(dirname "$0")/.." && pwd)
echo "Booting $image $boots times under QEMU (-m $mem, -cpu max); each line is one boot:"
for i in $(seq 1 "$boots"); do
	"$here/tests/boot/qemu-boot.sh" -c max -m "$mem" "$image" || exit 1
done
echo "Again with nokaslr:"
"$here/tests/boot/qemu-boot.sh" -c max -m "$mem" -A nokaslr "$image"
