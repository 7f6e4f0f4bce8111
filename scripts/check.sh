#!/bin/sh
# `make check`: every test stage in turn (or only the named ones), each judged by its exit
# status; the last line is "check: N passed, M failed" (stages). Stage output is shown as it
# runs. `make mutate` (scripts/mutate.sh) runs single stages through here too.
# usage: check.sh BUILD_DIR [STAGE...]    run all stages, or only these, in the order given
#        check.sh --list                  print the stage names, one per line
set -u

# In the order `make check` runs them.
STAGES="unit reloc-oracle fuzz-smoke pack-errors linux-pack boot-linux uniformity-checker kslide-stat
boot-i386 boot-x86_64 boot-smp boot-suspend boot-grub boot-faults chaos-sample leak-i386 leak-x86_64
leak-x86_64-pie example-kernel boot-multiboot uniform-i386-2m uniform-i386-4k uniform-x86_64-pie
uniform-x86_64-4k uniform-linux-686 uniform-linux-cloud-amd64"

# Boots per uniformity stage. The 440-slot i386 stage is the one with power: at 1,000 boots
# the checker rejects the fold bias and 1.5 times the weight on a quarter of the slots with
# high probability (tests/boot/uniformity-selftest.sh simulates both); the others check the
# slot recount, the range and gross faults at 200.
POWER_BOOTS=1000 UNIFORM_BOOTS=200
# The kernel's entry area (its idt=) is judged too, over its 1021 (i386) or 4093 (x86-64) page
# slots in the window (kernel/entry_area.h).
I386_ENTRY="-E 0xffc00000 1021" X86_64_ENTRY="-E 0xffffffffff000000 4093"

leak_all() { # leak_all "ARCH/KERNEL OPTIONS": leak.sh on the image and each compressed copy
	# shellcheck disable=SC2086 # options, split on purpose
	tests/boot/leak.sh $1 "$B" 4 && tests/boot/leak.sh $1 -S 2 -c zstd "$B" 2 &&
		tests/boot/leak.sh $1 -S 2 -c lz4 "$B" 2
}

run_stage() { # run_stage NAME: the stage's command
	case $1 in
	unit) make -s --no-print-directory BUILD="$B" unit ;;
	reloc-oracle) make -s --no-print-directory BUILD="$B" oracle ;;
	fuzz-smoke) make -s --no-print-directory BUILD="$B" fuzz-smoke ;;
	pack-errors) tests/pack/errors.sh "$B" ;;
	linux-pack) tests/linux/pack.sh "$B" ;;
	boot-linux) tests/linux/boot.sh "$B" ;;
	uniformity-checker) tests/boot/uniformity-selftest.sh "$B/host/tests/uniformity" \
		"$B/i386/kernel.img" "$POWER_BOOTS" "$UNIFORM_BOOTS" ;;
	kslide-stat) tests/stat/check.sh "$B" ;;
	# -z: every case again on the compressed copies of its image (zstd, lz4).
	boot-i386) tests/boot/matrix.sh -z "$B" tests/boot/i386-cases.sh ;;
	boot-x86_64) tests/boot/matrix.sh -z "$B" tests/boot/x86_64-cases.sh ;;
	boot-smp) tests/boot/matrix.sh -z "$B" tests/boot/smp-cases.sh ;;
	# Suspend to RAM and back, 3 times a boot, woken by the host over QMP.
	boot-suspend) tests/boot/matrix.sh "$B" tests/boot/suspend-cases.sh ;;
	boot-grub) tests/boot/grub.sh "$B" ;;
	boot-faults) tests/boot/faults.sh "$B" ;;
	# A few damaged bytes per checked image region, both arches, plain and compressed (`make
	# chaos`: the campaign).
	chaos-sample) tests/chaos/chaos.py -F -n 4 -T 2 -s "${CHAOS_SEED:-1}" "$B/i386/kernel.img" \
		"$B/i386/stub.elf" && tests/chaos/chaos.py -F -a x86_64 -n 3 -T 1 \
		-s "${CHAOS_SEED:-1}" "$B/x86_64/kernel.img" "$B/x86_64/stub.elf" &&
		tests/chaos/chaos.py -F -n 3 -T 1 -s "${CHAOS_SEED:-1}" "$B/i386/kernel-zstd.img" \
			"$B/i386/stub.elf" &&
		tests/chaos/chaos.py -F -a x86_64 -n 3 -T 1 -s "${CHAOS_SEED:-1}" \
			"$B/x86_64/kernel-lz4.img" "$B/x86_64/stub.elf" ;;
	# The unprivileged view at several bases each with UMIP on and off, at -smp 4 (2 for the
	# compressed copies) with every process of boot i on CPU i: identical on every CPU and at
	# every base, no kernel address; from the plain images, then from their compressed copies.
	leak-i386) leak_all "" ;;
	leak-x86_64) leak_all "-a x86_64" ;;
	leak-x86_64-pie) leak_all "-a x86_64 -k kernel-pie" ;;
	example-kernel) tests/boot/qemu-boot.sh -m 256M -e 'example: relocation ok' \
		"$B/examples/minimal-i386/example.img" ;;
	boot-multiboot) tests/boot/multiboot.sh "$B" ;;
	# 1G at 2 MiB has 440 slots, 128M at 4 KiB about 28,000.
	uniform-i386-2m) tests/boot/uniformity.sh "$B/host/tests/uniformity" \
		"$B/i386/kernel.img" "$POWER_BOOTS" $I386_ENTRY -c qemu32 -m 1G ;;
	uniform-i386-4k) tests/boot/uniformity.sh "$B/host/tests/uniformity" \
		"$B/i386/kernel-4k.img" "$UNIFORM_BOOTS" $I386_ENTRY -c max -m 128M ;;
	# x86-64: physical and virtual bases judged separately, and their independence. The PIE
	# at 2 MiB has 2^25.9 virtual slots over the upper half, the kernel model at 4 KiB 2^19.
	uniform-x86_64-pie) tests/boot/uniformity.sh "$B/host/tests/uniformity" \
		"$B/x86_64/kernel-pie.img" "$UNIFORM_BOOTS" $X86_64_ENTRY -a x86_64 -c max -m 1G ;;
	uniform-x86_64-4k) tests/boot/uniformity.sh "$B/host/tests/uniformity" \
		"$B/x86_64/kernel-4k.img" "$UNIFORM_BOOTS" $X86_64_ENTRY -a x86_64 -m 1G ;;
	# Debian's kernels at their headers' windows, slots recounted from the memory map Linux
	# reports: the 686 at 8 KiB steps, 61,429 slots at 1G; cloud-amd64 at 2 MiB, 479 physical
	# and 482 virtual slots, drawn independently.
	uniform-linux-686) tests/linux/uniform.sh "$B" 686 "$UNIFORM_BOOTS" -c max -m 1G ;;
	uniform-linux-cloud-amd64) tests/linux/uniform.sh "$B" cloud-amd64 "$UNIFORM_BOOTS" \
		-c max -m 1G ;;
	esac
}

if [ "${1:-}" = --list ]; then
	printf '%s\n' $STAGES
	exit 0
fi
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [STAGE...] | --list" >&2; exit 2; }
B=$1
shift
[ $# -eq 0 ] && set -- $STAGES
for name in "$@"; do
	case " $(echo $STAGES) " in
	*" $name "*) ;;
	*)
		echo "check: no stage named '$name'; the stages are:" >&2
		printf '  %s\n' $STAGES >&2
		exit 2
		;;
	esac
done

passed=0 failed=0 failures=""
for name in "$@"; do
	echo "=== $name"
	start=$(date +%s)
	if run_stage "$name"; then
		passed=$((passed + 1))
		echo "=== $name: ok ($(($(date +%s) - start))s)"
	else
		failed=$((failed + 1))
		failures="$failures $name"
		echo "=== $name: FAILED ($(($(date +%s) - start))s)"
	fi
done

[ -n "$failures" ] && echo "failed stages:$failures"
echo "check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
