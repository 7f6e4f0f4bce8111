#!/bin/sh
# How long a suspend-to-RAM cycle takes under TCG (docs/results.md, "Suspend to RAM and
# back"): one x86-64 kernel-model boot with selftest=suspend per machine and CPU count, timed
# by QEMU's own timestamps on its QMP SUSPEND and WAKEUP events (tests/boot/qmp-wake.py), and
# a whole-boot wall time. Prints one table row per boot.
# usage: suspend-cost.sh BUILD_DIR
set -u
B=${1:?usage: suspend-cost.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-suspend-cost.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT

one() { # one MACHINE GLOBAL CPUS
	rm -f "$work"/*
	python3 "$here/../tests/boot/qmp-wake.py" "$work/qmp" "$work/count" "$work/events" &
	start=$(date +%s.%N)
	qemu-system-x86_64 -nodefaults -accel tcg -M "$1" -cpu max -m 128M -smp "$3" \
		-global "$2" -kernel "$B/x86_64/kernel.img" -append selftest=suspend \
		-display none -monitor none -no-reboot -serial "file:$work/log" \
		-qmp "unix:$work/qmp,server=on,wait=on" \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 2>/dev/null
	end=$(date +%s.%N)
	wait
	grep -q '^kslide-selftest: 5 passed, 0 failed' "$work/log" ||
		{ echo "suspend-cost: the $1 -smp $3 boot failed" >&2; exit 1; }
	awk -v m="$1" -v n="$3" -v total="$(echo "$end - $start" | bc)" '
		{ e[NR] = $1; t[NR] = $2 }
		END {
			for (i = 2; i <= NR; i++) {
				ms = (t[i] - t[i - 1]) * 1000
				if (e[i] == "SUSPEND" && e[i - 1] == "WAKEUP")
					w = w (w ? ", " : "") sprintf("%.0f ms", ms)
				if (e[i] == "WAKEUP" && e[i - 1] == "SUSPEND")
					r = r (r ? ", " : "") sprintf("%.0f ms", ms)
			}
			printf "| %s, %s | %.2f s | %s | %s |\n", m, n, total, w, r
		}' "$work/events"
}

echo "| machine, CPUs | whole boot | wake to next sleep (cycles 2, 3) | sleep to wake (cycles 1-3) |"
echo "| --- | --- | --- | --- |"
for n in 1 2; do one pc PIIX4_PM.disable_s3=0 "$n"; done
for n in 1 2; do one q35 ICH9-LPC.disable_s3=0 "$n"; done
