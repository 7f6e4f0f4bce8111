#!/bin/sh
# `make check`: every test stage in turn, each judged by its exit status; the last line is
# "check: N passed, M failed" (stages). Stage output is shown as it runs.
# usage: check.sh BUILD_DIR
set -u
B=$1
passed=0 failed=0 failures=""

stage() { # stage NAME COMMAND...
	name=$1
	shift
	echo "=== $name"
	start=$(date +%s)
	if "$@"; then
		passed=$((passed + 1))
		echo "=== $name: ok ($(($(date +%s) - start))s)"
	else
		failed=$((failed + 1))
		failures="$failures $name"
		echo "=== $name: FAILED"
	fi
}

stage unit make -s --no-print-directory BUILD="$B" unit
stage reloc-oracle make -s --no-print-directory BUILD="$B" oracle
stage fuzz-smoke make -s --no-print-directory BUILD="$B" fuzz-smoke
stage pack-errors tests/pack/errors.sh "$B"
stage linux-pack tests/linux/pack.sh "$B"
stage uniformity-checker tests/boot/uniformity-selftest.sh "$B/host/tests/uniformity"
stage kslide-stat tests/stat/check.sh "$B"
stage boot-i386 tests/boot/matrix.sh "$B" tests/boot/i386-cases.sh
stage boot-x86_64 tests/boot/matrix.sh "$B" tests/boot/x86_64-cases.sh
stage boot-grub tests/boot/grub.sh "$B"
stage boot-faults tests/boot/faults.sh "$B"
# The unprivileged view at 3 bases each with UMIP on and off: identical, no kernel address.
stage leak-i386 tests/boot/leak.sh "$B" 3
stage leak-x86_64 tests/boot/leak.sh -a x86_64 "$B" 3
stage leak-x86_64-pie tests/boot/leak.sh -a x86_64 -k kernel-pie "$B" 3
stage example-kernel tests/boot/qemu-boot.sh -m 256M -e 'example: relocation ok' "$B/examples/minimal-i386/example.img"
stage boot-multiboot tests/boot/multiboot.sh "$B"
# ≥ 200 boots each; 1G at 2 MiB has 440 slots, 128M at 4 KiB about 28,000. -E: the entry area
# too, over its 1021 (i386) or 4093 (x86-64) page slots in the window (kernel/entry_area.h).
I386_ENTRY="-E 0xffc00000 1021" X86_64_ENTRY="-E 0xffffffffff000000 4093"
stage uniform-i386-2m tests/boot/uniformity.sh "$B/host/tests/uniformity" \
	"$B/i386/kernel.img" 200 0x1000000 0x200000 $I386_ENTRY -c qemu32 -m 1G
stage uniform-i386-4k tests/boot/uniformity.sh "$B/host/tests/uniformity" \
	"$B/i386/kernel-4k.img" 200 0x1000000 0x1000 $I386_ENTRY -c max -m 128M

# x86-64: physical and virtual bases judged separately, and their independence. The PIE at
# 2 MiB has 2^25.9 virtual slots over the upper half, the kernel model at 4 KiB 2^19. (At 6G
# the PCI hole splits RAM, which the checker's contiguous slot numbering cannot follow.)
stage uniform-x86_64-pie tests/boot/uniformity.sh "$B/host/tests/uniformity" \
	"$B/x86_64/kernel-pie.img" 200 0x1000000 0x200000 -V 0xffff880000000000 0x200000 \
	$X86_64_ENTRY -a x86_64 -c max -m 1G
stage uniform-x86_64-4k tests/boot/uniformity.sh "$B/host/tests/uniformity" \
	"$B/x86_64/kernel-4k.img" 200 0x1000000 0x1000 -V 0xffffffff80000000 0x1000 \
	$X86_64_ENTRY -a x86_64 -m 1G

[ -n "$failures" ] && echo "failed stages:$failures"
echo "check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
