#!/bin/sh
# `make bench`: the four figures of docs/results.md ("Benchmarks"), each printed by its tool:
# relocation speed against memcpy, slot search growth, the stub's instructions at boot, and
# what packing adds to a kernel. Fails if any measurement fails.
# usage: run.sh BUILD_DIR
set -u
B=$1
here=$(cd "$(dirname "$0")" && pwd)
failed=0
run() {
	"$@" || { echo "bench: FAILED: $*" >&2; failed=1; }
}

echo "== 1. relocation: 1 Mi relocations over a 32 MiB image, against one memcpy of it"
run "$B/bench/reloc-bench" -a i386
run "$B/bench/reloc-bench" -a x86_64

echo "== 2. slot search: n usable and n avoided ranges"
run "$B/bench/slots-bench" 10 100 1000 10000

echo "== 3. boot cost: instructions from the stub's entry to the kernel's (QEMU TCG count)"
for mib in 1 8 32; do
	for append in "" nokaslr; do
		run "$here/boot-cost.sh" -A "$append" "$B/bench/tbcount" "$B/i386/stub.elf" \
			"$B/bench/kernel-${mib}m.img"
	done
done

echo "== 4. image size: the packed image against the kernel's loadable bytes"
run "$here/image-size.sh" "$B/bin/kslide-pack" "$B/i386/kernel.elf" \
	"$B/bench/kernel-8m.elf" "$B/bench/kernel-32m.elf"

[ "$failed" -eq 0 ] && echo "bench: done" && exit 0
echo "bench: some measurements failed" >&2
exit 1
