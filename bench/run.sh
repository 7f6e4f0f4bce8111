#!/bin/sh
# `make bench`: the figures of docs/results.md ("Benchmarks"), each printed by its tool:
# relocation speed against memcpy, slot search growth, the stub's instructions at boot, what
# packing adds to a kernel, the decoders against the libraries, a PVH boot to init against
# the same kernel booted directly, Linux's EFI stub against kslide's PE under OVMF, and what
# kslide-pack --shuffle adds to the example kernels built for it. Fails if any fails.
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
for arch in i386 x86_64; do
	cpu=qemu32
	[ "$arch" = x86_64 ] && cpu=qemu64
	stub=$B/i386/stub.elf
	[ "$arch" = x86_64 ] && stub=$B/x86_64/stub.elf
	for mib in 1 8 32; do
		for append in "" nokaslr; do
			run "$here/boot-cost.sh" -a "$arch" -c "$cpu" -A "$append" "$B/bench/tbcount" \
				"$stub" "$B/bench/$arch/kernel-${mib}m.img"
		done
	done
	for codec in zstd lz4; do # compressed images (docs/format.md): decoded into the slot
		for mib in 8 32; do
			run "$here/boot-cost.sh" -a "$arch" -c "$cpu" "$B/bench/tbcount" "$stub" \
				"$B/bench/$arch/kernel-${mib}m-$codec.img"
		done
	done
done

echo "== 4. image size: the packed image against the kernel's loadable bytes"
run "$here/image-size.sh" "$B/bin/kslide-pack" "$B/i386/kernel.elf" \
	"$B/bench/i386/kernel-8m.elf" "$B/bench/i386/kernel-32m.elf" "$B/x86_64/kernel.elf" \
	"$B/x86_64/kernel-pie.elf" "$B/bench/x86_64/kernel-8m.elf" "$B/bench/x86_64/kernel-32m.elf"

echo "== 5. decoders: lib/ zstd and LZ4 against ZSTD_decompress and LZ4F_decompress (MB/s, best of 10)"
# Large real binaries a kernel's size (qemu-system-x86_64 is a package bootstrap.sh installs).
large=""
for f in /usr/lib/x86_64-linux-gnu/libc.so.6 /usr/bin/qemu-system-x86_64; do
	[ -f "$f" ] && large="$large $f"
done
run "$B/bench/decode-bench" -n 10 "$B/i386/kernel.elf" "$B/x86_64/kernel.elf" $large

echo "== 5b. relocation while decoding: the stub's stream against decode, then reloc_apply"
# The bench kernels, and Debian's when scripts/fetch-linux.sh has put them in the build.
images="$B/bench/i386/kernel-32m-zstd.img $B/bench/i386/kernel-32m-lz4.img"
packed=$(mktemp -d "${TMPDIR:-/tmp}/kslide-bench.XXXXXX") || exit 1
trap 'rm -rf "$packed"' EXIT
for k in 686 cloud-amd64; do
	[ -f "$B/linux/$k/vmlinuz" ] || continue
	for codec in zstd lz4; do
		"$B/bin/kslide-pack" --compress $codec -o "$packed/$k-$codec.img" \
			"$B/linux/$k/vmlinuz" 2>/dev/null && images="$images $packed/$k-$codec.img"
	done
done
# shellcheck disable=SC2086 # a list of paths without spaces
run "$B/bench/decode-bench" -r -n 10 $images

echo "== 6. PVH: the whole boot to init, cloud-amd64's vmlinux directly and through kslide"
if [ -f "$B/linux/cloud-amd64/vmlinuz" ] && [ -f "$B/linux/x86_64/initramfs.cpio" ]; then
	"$B/bin/kslide-pack" --format pvh -o "$packed/cloud-amd64.pvh" \
		"$B/linux/cloud-amd64/vmlinuz" 2>/dev/null &&
		run "$here/whole-boot-cost.sh" -m 2G "$B/linux/cloud-amd64/vmlinuz" \
			"$packed/cloud-amd64.pvh" "$B/linux/x86_64/initramfs.cpio"
else
	echo "bench: no Debian cloud-amd64 kernel in $B/linux (scripts/fetch-linux.sh): skipped"
fi

echo "== 7. UEFI: instructions from the PE's entry point to vmlinux, Linux's EFI stub and kslide's"
if [ -f "$B/linux/cloud-amd64/vmlinuz" ] && [ -f "$B/linux/x86_64/initramfs.cpio" ]; then
	# LZ4 on both sides: cloud-amd64's bzImage is LZ4.
	"$B/bin/kslide-pack" --format efi --compress lz4 -o "$packed/cloud-amd64-lz4.efi" \
		"$B/linux/cloud-amd64/vmlinuz" 2>/dev/null || failed=1
	cmdline=$(cat "$here/../tests/linux/cmdline")
	rng="-Q -device -Q virtio-rng-pci" initrd=$B/linux/x86_64/initramfs.cpio
	# shellcheck disable=SC2086 # four words
	run "$here/uefi-cost.sh" -L $rng -A "$cmdline" -I "$initrd" "$B" "$B/linux/cloud-amd64/vmlinuz"
	# shellcheck disable=SC2086
	run "$here/uefi-cost.sh" $rng -A "$cmdline" -I "$initrd" "$B" "$packed/cloud-amd64-lz4.efi"
else
	echo "bench: no Debian cloud-amd64 kernel in $B/linux (scripts/fetch-linux.sh): skipped"
fi

echo "== 8. function-granular shuffling: the table's bytes, the stub's instructions, the layouts"
run "$here/shuffle-cost.sh" "$B"

[ "$failed" -eq 0 ] && echo "bench: done" && exit 0
echo "bench: some measurements failed" >&2
exit 1
