#!/bin/sh
# `make check`: every test stage (or only the named ones), each judged by its exit status; the
# last line is "check: N passed, M failed" (stages). Stages run CHECK_JOBS at a time (below).
# `make mutate` (scripts/mutate.sh) runs single stages through here too.
# usage: check.sh BUILD_DIR [STAGE...]    run all stages, or only these, in the order given
#        check.sh --list                  print the stage names, one per line
#        check.sh --describe              print each stage's name and what it checks
# shellcheck disable=SC2016,SC2034 # the table's commands are quoted to run later, with these variables
set -u

# Boots per uniformity stage. The 440-slot i386 stage is the one with power: at 1,000 boots
# the checker rejects the fold bias and 1.5 times the weight on a quarter of the slots with
# high probability (tests/boot/uniformity-selftest.sh simulates both); the others check the
# slot recount, the range and gross faults at 200.
POWER_BOOTS=1000 UNIFORM_BOOTS=200
# The kernel's entry area (its idt=) is judged too, over its 1021 (i386) or 4093 (x86-64) page
# slots in the window (kernel/secrecy/entry_area.h), and on x86-64 the direct map's base over
# its 8129 1 GiB slots (kernel/x86_64/layout.h DIRECT_MAP_*), from the same boots.
I386_ENTRY="-E 0xffc00000 1021"
X86_64_ENTRY="-E 0xffffffffff000000 4093 -D 0xffff800000000000 8129"

residue() { # residue ARCH IMAGE ELF: the image booted, RAM searched after the kernel's run
	python3 tests/boot/residue.py -a "$1" "$B/$1/$2" "$B/$1/$3"
}

leak_all() { # leak_all "ARCH/KERNEL OPTIONS": leak.sh on the image and each compressed copy
	# shellcheck disable=SC2086 # options, split on purpose
	tests/boot/leak.sh $1 "$B" 4 && tests/boot/leak.sh $1 -S 2 -c zstd "$B" 2 &&
		tests/boot/leak.sh $1 -S 2 -c lz4 "$B" 2
}

# The stage table, the only list of stages: `stage NAME DESCRIPTION COMMAND`, in the order
# `make check` runs them. COMMAND is shell text run (eval) with $B the build directory; the
# stage passes when it exits 0. --list and --describe print the table.
STAGES=""
stage() {
	if [ $# -ne 3 ] || [ -z "$2" ] || [ -z "$3" ]; then
		echo "check.sh: stage '${1:-}' needs a name, a description and a command" >&2
		exit 70
	fi
	case " $STAGES " in *" $1 "*) echo "check.sh: stage '$1' named twice" >&2 && exit 70 ;; esac
	STAGES="${STAGES:+$STAGES }$1"
	v=$(printf %s "$1" | tr -c 'A-Za-z0-9_' _)
	eval "stage_desc_$v=\$2 stage_cmd_$v=\$3"
}
stage_field() { # stage_field desc|cmd NAME
	eval "printf '%s\n' \"\$stage_$1_$(printf %s "$2" | tr -c 'A-Za-z0-9_' _)\""
}

# The lists kept once: make help fails on a .PHONY target without its #: lines (scripts/help.awk).
stage lists "every make target documented for make help" \
	'make -s --no-print-directory help >/dev/null'
stage unit "host unit tests (cmocka, ASan/UBSan)" \
	'make -s --no-print-directory BUILD="$B" unit'
stage reloc-oracle "the linker judges the packer's and the stub's relocations" \
	'make -s --no-print-directory BUILD="$B" oracle'
stage fuzz-smoke "every fuzz target for 10 s" \
	'make -s --no-print-directory BUILD="$B" fuzz-smoke'
# Then sbsign and sbverify on the reference kernels' --format efi images (tests/pack/sign.sh).
stage pack-errors "kslide-pack refuses bad input with a clear error; its PE images sign" \
	'tests/pack/errors.sh "$B" &&
		tests/pack/sign.sh "$B" "$B/x86_64/kernel.elf" "$B/x86_64/kernel-pie.elf"'
stage linux-pack "kslide-pack on Debian's kernels; their PE images sign" \
	'tests/linux/pack.sh "$B" && tests/pack/sign.sh "$B" "$B/linux/cloud-amd64/vmlinuz"'
stage boot-linux "Debian's kernels boot from kslide images" \
	'tests/linux/boot.sh "$B"'
stage measured-boot "Secure Boot and measured boot: Debian's kernel signed, through systemd-boot, its TPM log replayed" \
	'tests/linux/measured-boot.sh "$B"'
stage uniformity-checker "the uniformity checker rejects biased samples (simulated)" \
	'tests/boot/uniformity-selftest.sh "$B/host/tests/uniformity" "$B/i386/kernel.img" \
		"$POWER_BOOTS" "$UNIFORM_BOOTS"'
stage kslide-stat "kslide-stat on the reference and fake Linux boots" \
	'tests/stat/check.sh "$B"'
# -z: every case again on the compressed copies of its image (zstd, lz4).
stage boot-i386 "the i386 reference kernel's boot cases, plain and compressed" \
	'tests/boot/matrix.sh -z "$B" tests/boot/i386-cases.sh'
stage boot-x86_64 "the x86-64 reference kernels' boot cases, plain and compressed" \
	'tests/boot/matrix.sh -z "$B" tests/boot/x86_64-cases.sh'
stage boot-smp "8 CPUs with selftest=smp, plain and compressed; hotplug on the plain images" \
	'tests/boot/matrix.sh -z "$B" tests/boot/smp-cases.sh --plain tests/boot/hotplug-cases.sh'
# Suspend to RAM and back, 3 times a boot, woken by the host over QMP.
stage boot-suspend "suspend to RAM and back, woken over QMP" \
	'tests/boot/matrix.sh "$B" tests/boot/suspend-cases.sh'
stage boot-grub "the reference kernels from GRUB ISOs (BIOS and UEFI)" \
	'tests/boot/grub.sh "$B"'
stage boot-faults "damaged images, hostile memory maps and (Secure Boot) unsigned images are refused" \
	'tests/boot/faults.sh "$B"'
# A few damaged bytes per checked image region, both arches, plain and compressed (`make
# chaos`: the campaign).
stage chaos-sample "a few damaged bytes per checked image region" \
	'tests/chaos/chaos.py -F -n 4 -T 2 -s "${CHAOS_SEED:-1}" "$B/i386/kernel.img" \
		"$B/i386/stub.elf" && tests/chaos/chaos.py -F -a x86_64 -n 3 -T 1 \
		-s "${CHAOS_SEED:-1}" "$B/x86_64/kernel.img" "$B/x86_64/stub.elf" &&
		tests/chaos/chaos.py -F -n 3 -T 1 -s "${CHAOS_SEED:-1}" "$B/i386/kernel-zstd.img" \
			"$B/i386/stub.elf" &&
		tests/chaos/chaos.py -F -a x86_64 -n 3 -T 1 -s "${CHAOS_SEED:-1}" \
			"$B/x86_64/kernel-lz4.img" "$B/x86_64/stub.elf"'
# The unprivileged view at several bases each with UMIP on and off, at -smp 4 (2 for the
# compressed copies) with every process of boot i on CPU i: identical on every CPU and at
# every base, no kernel address; from the plain images, then from their compressed copies.
# Then what the stub leaves behind (residue ARCH IMAGE ELF, tests/boot/residue.py): after
# the kernel's run, no base, seed or generator anywhere in RAM outside the image.
stage leak-i386 "no kernel address in the i386 kernel's unprivileged view nor in RAM" \
	'leak_all "" && residue i386 kernel.img kernel.elf &&
		residue i386 kernel-multiboot.img kernel.elf'
stage leak-x86_64 "no kernel address in the x86-64 kernel's unprivileged view nor in RAM" \
	'leak_all "-a x86_64" && residue x86_64 kernel.img kernel.elf'
stage leak-x86_64-pie "no kernel address in the x86-64 PIE kernel's unprivileged view nor in RAM" \
	'leak_all "-a x86_64 -k kernel-pie" && residue x86_64 kernel-pie.img kernel-pie.elf'
# make gdb's batch mode on each reference image: gdb stops at kernel_main by its symbol, at the
# randomized base plus its link offset (scripts/gdb.sh -c).
stage gdb-symbols "gdb finds kernel_main at the randomized base in each reference image" \
	'scripts/gdb.sh -c "$B/i386/kernel.img" && scripts/gdb.sh -c "$B/x86_64/kernel.img" &&
		scripts/gdb.sh -c "$B/x86_64/kernel-pie.img"'
stage example-kernel "examples/minimal-i386 relocates and boots" \
	'tests/boot/qemu-boot.sh -m 256M -e "example: relocation ok" \
		"$B/examples/minimal-i386/example.img"'
stage boot-multiboot "Multiboot 1 and 2 handoffs" \
	'tests/boot/multiboot.sh "$B"'
# kslide-pack --shuffle: the examples check their own calls, tables and jump table at every
# boot while their functions' order changes; op0's place among its 16 functions judged uniform.
# shuffle-x86_64 packed --format efi too, shuffled by the x86-64 stub under OVMF.
stage boot-shuffle "examples/shuffle-i386 and shuffle-x86_64 pass at every boot, their function order changing ($UNIFORM_BOOTS boots, half each; op0's place uniform); shuffle-x86_64 as a PE from OVMF (8 boots)" \
	'tests/boot/shuffle.sh "$B" "$UNIFORM_BOOTS" "$B/host/tests/uniformity"'
# 1G at 2 MiB has 440 slots, 128M at 4 KiB about 28,000.
stage uniform-i386-2m "i386 bases uniform over 440 2 MiB slots ($POWER_BOOTS boots)" \
	'tests/boot/uniformity.sh "$B/host/tests/uniformity" "$B/i386/kernel.img" \
		"$POWER_BOOTS" $I386_ENTRY -c qemu32 -m 1G'
stage uniform-i386-4k "i386 bases uniform over 4 KiB slots" \
	'tests/boot/uniformity.sh "$B/host/tests/uniformity" "$B/i386/kernel-4k.img" \
		"$UNIFORM_BOOTS" $I386_ENTRY -c max -m 128M'
# x86-64: physical and virtual bases judged separately, and their independence. The PIE
# at 2 MiB has 2^25.9 virtual slots over the upper half, the kernel model at 4 KiB 2^19.
stage uniform-x86_64-pie "x86-64 PIE bases uniform, physical and virtual, and the direct map's" \
	'tests/boot/uniformity.sh "$B/host/tests/uniformity" "$B/x86_64/kernel-pie.img" \
		"$UNIFORM_BOOTS" $X86_64_ENTRY -a x86_64 -c max -m 1G'
stage uniform-x86_64-4k "x86-64 bases uniform at 4 KiB, and the direct map's" \
	'tests/boot/uniformity.sh "$B/host/tests/uniformity" "$B/x86_64/kernel-4k.img" \
		"$UNIFORM_BOOTS" $X86_64_ENTRY -a x86_64 -m 1G'
# The kernel model as a PVH ELF under QEMU's microvm: the map from the PVH start info, the
# recount from the image behind the ELF headers (kslide-pack --format pvh).
stage uniform-x86_64-pvh "x86-64 PVH image's bases uniform under -M microvm" \
	'tests/boot/uniformity.sh "$B/host/tests/uniformity" "$B/x86_64/kernel-pvh.img" \
		"$UNIFORM_BOOTS" $X86_64_ENTRY -a x86_64 -c max -m 1G \
		-M microvm,x-option-roms=off,isa-serial=on,rtc=on'
# The UEFI way in: $UNIFORM_BOOTS trial draws (kslide.trial) of the kernel model's PE in one
# OVMF session, slots recounted from the EFI memory map each draw counted over (23 s of CPU
# where as many OVMF boots would take 1,000 s; uefi.sh boots the PE for real).
stage uniform-uefi "UEFI entry's bases uniform over the EFI memory map ($UNIFORM_BOOTS draws, one OVMF boot)" \
	'tests/boot/uniform-uefi.sh "$B" "$UNIFORM_BOOTS"'
# Debian's kernels at their headers' windows, slots recounted from the memory map Linux
# reports: the 686 at 8 KiB steps, 61,429 slots at 1G; cloud-amd64 at 2 MiB, 479 physical
# and 482 virtual slots, drawn independently.
stage uniform-linux-686 "Debian's 686 kernel's bases uniform" \
	'tests/linux/uniform.sh "$B" 686 "$UNIFORM_BOOTS" -c max -m 1G'
stage uniform-linux-cloud-amd64 "Debian's cloud-amd64 kernel's bases uniform" \
	'tests/linux/uniform.sh "$B" cloud-amd64 "$UNIFORM_BOOTS" -c max -m 1G'

run_stage() { # run_stage NAME: the stage's command
	eval "$(stage_field cmd "$1")"
}

case ${1:-} in
--list)
	printf '%s\n' $STAGES
	exit 0
	;;
--describe)
	for name in $STAGES; do
		printf '%-26s %s\n' "$name" "$(stage_field desc "$name")"
	done
	exit 0
	;;
esac
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [STAGE...] | --list | --describe" >&2; exit 2; }
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

# A stage's CPU seconds, from what `times` wrote in the subshell that ran it (its second line:
# the user and system time of the processes that subshell waited for). A stage's CPU against
# its wall time says how much of it ran in parallel; its CPU is what a busy machine shares out.
cpu_of() { # cpu_of TIMES_FILE
	awk 'NR == 2 {
		t = 0
		for (i = 1; i <= 2; i++) { split($i, f, /[ms]/); t += f[1] * 60 + f[2] }
		printf "%d\n", t
	}' "$1"
}

# Stages run CHECK_JOBS at a time (default 2), each in a subshell of its own with its output
# kept aside and printed whole when it ends, so the log reads stage by stage (in the order
# they end). Side by side, one stage's waits (a refused boot's seconds before its reset, a
# single QEMU dumping RAM, a serial script) are another's CPU time, and on a machine busy with
# other work the check keeps more runnable processes and so a larger share of the cores. The
# stages share nothing but the build, which make check finished before the first (CHECK_DEPS).
# One stage, or CHECK_JOBS=1, runs in the foreground with its output shown as it runs.
jobs=${CHECK_JOBS:-2}
case $jobs in '' | *[!0-9]* | 0) echo "check: CHECK_JOBS must be a number above 0, not '$jobs'" >&2; exit 2 ;; esac
[ $# -eq 1 ] && jobs=1
out=$(mktemp -d "${TMPDIR:-/tmp}/kslide-check.XXXXXX") || exit 1
trap 'rm -rf "$out"' EXIT

run_one() { # run_one INDEX NAME: the stage; its status, wall and CPU seconds in OUT/INDEX.*
	start=$(date +%s)
	run_stage "$2"
	echo $? >"$out/$1.status"
	times >"$out/$1.times"
	echo $(($(date +%s) - start)) >"$out/$1.seconds"
	: >"$out/$1.done"
}

passed=0 failed=0 failures=""
report() { # report INDEX NAME: the stage's last line, and the tally
	if [ "$(cat "$out/$1.status")" = 0 ]; then
		passed=$((passed + 1)) verdict=ok
	else
		failed=$((failed + 1)) verdict=FAILED
		failures="$failures $2"
	fi
	echo "=== $2: $verdict ($(cat "$out/$1.seconds")s, cpu $(cpu_of "$out/$1.times")s)"
}

if [ "$jobs" -eq 1 ]; then
	i=0
	for name in "$@"; do
		i=$((i + 1))
		echo "=== $name"
		(run_one "$i" "$name")
		report "$i" "$name"
	done
else
	i=0 running=""
	finish() { # finish: print and tally every running stage that has ended
		still=""
		for r in $running; do
			if [ -f "$out/$r.done" ]; then
				eval "rname=\$name_$r"
				echo "=== $rname"
				cat "$out/$r.log"
				report "$r" "$rname"
			else
				still="$still $r"
			fi
		done
		running=$still
	}
	for name in "$@"; do
		i=$((i + 1))
		while [ "$(echo $running | wc -w)" -ge "$jobs" ]; do
			sleep 1
			finish
		done
		eval "name_$i=\$name"
		(run_one "$i" "$name") >"$out/$i.log" 2>&1 </dev/null &
		running="$running $i"
	done
	while [ -n "$running" ]; do
		sleep 1
		finish
	done
fi

[ -n "$failures" ] && echo "failed stages:$failures"
echo "check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
