#!/bin/sh
# The uniformity checker must be able to fail: it must reject the seed patch's distribution
# (1 MiB + (rand & 0x3ffffff), rounded up to 2 MiB, raised to 16 MiB) and a base outside the
# slots, and accept draws that are uniform; for x86-64 likewise on the virtual base (vslots),
# and its independence test must pass independent draws and reject a virtual base that follows
# the physical one, and so must the entry area's (idt=); one chance repeat over half a million slots must pass, three must not, and
# likewise for empty slots when draws outnumber slots.
# Prints "uniformity-selftest: N passed, M failed".
set -u
checker=$1
passed=0 failed=0
expect() { # expect EXIT-STATUS NAME: stdin goes to the checker
	if "$checker" --field phys --lo 0x1000000 --align 0x200000 >/dev/null 2>&1; then got=0; else got=$?; fi
	if [ "$got" = "$1" ]; then passed=$((passed + 1)); echo "ok - $2"
	else failed=$((failed + 1)); echo "not ok - $2 (exit $got, wanted $1)"; fi
}
# awk's rand() with a fixed seed stands in for the boot-time generator.
lines() { # lines N SEED MODE
	awk -v n="$1" -v seed="$2" -v mode="$3" 'BEGIN {
		srand(seed); slots = 440
		for (i = 0; i < n; i++) {
			if (mode == "seed") {   # the 2011 patch, kernel loaded at 1 MiB (tools/stat/seed.c)
				r = int(rand() * 67108864); b = 1048576 + r
				b = b + (2097152 - b % 2097152) % 2097152
				if (b < 16777216) b = 16777216
			} else if (mode == "outside") {
				b = 16777216 + slots * 2097152
			} else {
				b = 16777216 + int(rand() * slots) * 2097152
			}
			printf "kslide: base=0x%x phys=0x%x slots=%d align=0x200000\n", b + 3221225472, b, slots
		}
	}'
}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
lines 200 1 uniform >"$tmp"; expect 0 "uniform draws pass" <"$tmp"
lines 2000 2 uniform >"$tmp"; expect 0 "2000 uniform draws pass" <"$tmp"
lines 200 3 seed >"$tmp"; expect 1 "the seed patch's 26 positions fail" <"$tmp"
lines 50 4 outside >"$tmp"; expect 1 "a base outside the slots fails" <"$tmp"
lines 200 5 uniform | sed 's/phys=0x[0-9a-f]*/phys=0x1000000/' >"$tmp"
expect 1 "one repeated base fails" <"$tmp"

# x86-64 lines: 1016 virtual slots from 0xffffffff80000000, 440 physical ones.
VLO=0xffffffff80000000
lines64() { # lines64 N SEED MODE
	awk -v n="$1" -v seed="$2" -v mode="$3" 'BEGIN {
		srand(seed); slots = 440; vslots = 1016
		for (i = 0; i < n; i++) {
			p = int(rand() * slots)
			v = mode == "follow" ? p * 2 + int(rand() * 2) : int(rand() * vslots)
			if (mode == "low") v = int(rand() * vslots / 2)
			printf "kslide: base=0xffffffff%08x phys=0x%x slots=%d vslots=%d align=0x200000\n",
				2147483648 + v * 2097152, 16777216 + p * 2097152, slots, vslots
		}
	}'
}
check() { # check EXIT-STATUS NAME CHECKER-ARGS...: stdin goes to the checker
	want=$1 name=$2
	shift 2
	if "$checker" "$@" >/dev/null 2>&1; then got=0; else got=$?; fi
	if [ "$got" = "$want" ]; then passed=$((passed + 1)); echo "ok - $name"
	else failed=$((failed + 1)); echo "not ok - $name (exit $got, wanted $want)"; fi
}
V="--field base --slots vslots --lo $VLO --align 0x200000"
I="--independence --lo 0x1000000 --align 0x200000 --vlo $VLO --valign 0x200000"
lines64 200 6 uniform >"$tmp"; check 0 "uniform virtual draws pass" $V <"$tmp"
lines64 200 7 low >"$tmp"; check 1 "virtual draws from half the window fail" $V <"$tmp"
lines64 400 8 uniform >"$tmp"; check 0 "independent draws pass" $I <"$tmp"
lines64 400 9 follow >"$tmp"; check 1 "a virtual base that follows the physical one fails" $I <"$tmp"
# The entry area (idt=, uniformity.sh -E): 1021 page slots from 0xffc00000, judged on its own
# and against the physical base with --vfield.
lines_idt() { # lines_idt N SEED MODE
	awk -v n="$1" -v seed="$2" -v mode="$3" 'BEGIN {
		srand(seed); slots = 440; idtslots = 1021
		for (i = 0; i < n; i++) {
			p = int(rand() * slots)
			e = mode == "follow" ? p * 2 + int(rand() * 2) : int(rand() * idtslots)
			printf "kslide: base=0x%x phys=0x%x slots=%d align=0x200000 idt=0x%x idtslots=%d\n",
				3221225472 + 16777216 + p * 2097152, 16777216 + p * 2097152, slots,
				4290772992 + e * 4096, idtslots
		}
	}'
}
E="--field idt --slots idtslots --lo 0xffc00000 --align 0x1000"
EI="--independence --lo 0x1000000 --align 0x200000 --vfield idt --vslots idtslots --vlo 0xffc00000 --valign 0x1000"
lines_idt 200 20 uniform >"$tmp"; check 0 "uniform entry areas pass" $E <"$tmp"
lines_idt 400 21 uniform >"$tmp"; check 0 "an entry area independent of the base passes" $EI <"$tmp"
lines_idt 400 22 follow >"$tmp"; check 1 "an entry area that follows the base fails" $EI <"$tmp"
# The x86-64 4 KiB window: 520,186 virtual slots. One repeat among 200 draws happens in 3.8%
# of runs and must pass; three (odds about 1 in 100,000) must not.
repeats() { # repeats N SEED R: N draws, the last R of them copies of the first
	awk -v n="$1" -v seed="$2" -v r="$3" 'BEGIN {
		srand(seed); vslots = 520186
		for (i = 0; i < n; i++) {
			v[i] = i < n - r ? int(rand() * vslots) : v[0]
			printf "kslide: base=0x%x phys=0x1000000 slots=1 vslots=%d align=0x1000\n",
				2147483648 + v[i] * 4096, vslots
		}
	}'
}
R="--field base --slots vslots --lo 0x80000000 --align 0x1000"
repeats 200 10 1 >"$tmp"; check 0 "one repeat in 200 draws over 520,186 slots passes" $R <"$tmp"
repeats 200 11 3 >"$tmp"; check 1 "three repeats in 200 draws over 520,186 slots fail" $R <"$tmp"
# 2000 draws over 440 slots leave about 4.6 empty: 14 happen once in 5,600 runs and must
# pass, 40 must not. Every slot but the skipped ones is drawn once, the rest at random.
empties() { # empties SEED EVERY: slots i with i % EVERY == 0 are never drawn
	awk -v seed="$1" -v every="$2" 'BEGIN {
		srand(seed); slots = 440
		for (i = 0; i < slots; i++) if (i % every) allowed[k++] = i
		for (i = 0; i < 2000; i++) {
			v = i < k ? allowed[i] : allowed[int(rand() * k)]
			printf "kslide: base=0x%x phys=0x%x slots=%d align=0x200000\n",
				3238002688 + v * 2097152, 16777216 + v * 2097152, slots
		}
	}'
}
empties 12 32 >"$tmp"; expect 0 "14 empty slots after 2000 draws over 440 pass" <"$tmp"
empties 13 11 >"$tmp"; expect 1 "40 empty slots after 2000 draws over 440 fail" <"$tmp"
echo "uniformity-selftest: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
