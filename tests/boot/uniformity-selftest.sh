#!/bin/sh
# The uniformity checker must be able to fail, and must fail what the uniformity stages are
# there to catch:
#  - on synthetic lines: the seed patch's distribution, a base outside the slots, a stub whose
#    slots= differs from the slots it could use, a repeated base, virtual draws or entry areas
#    from half their window or following the physical base; uniform draws must pass, one chance
#    repeat over half a million slots (three must not) and chance empty slots (too many must
#    not);
#  - with a real image: the slots recounted from its header and a memory map, against
#    tests/stat/brute.py's enumeration;
#  - its statistics: Anderson-Darling's tail at published points, and A^2 itself against its
#    integral definition computed here;
#  - simulated runs (uniformity --simulate, the checker's own verdict on GSL draws): the
#    false-alarm rate of uniform draws at most 1 in 1,000, and the power against the fold bias
#    (uniform_below folding instead of rejecting: slots 0-71 of 440 twice as likely) and
#    against 1.5 times the weight on a quarter of the slots, at the stages' sample sizes.
# Prints "uniformity-selftest: N passed, M failed".
# usage: uniformity-selftest.sh CHECKER IMAGE POWER_BOOTS BOOTS
#   the stages' sample sizes (scripts/check.sh): the 440-slot i386 stage's and the others'
set -u
[ $# -eq 4 ] || { echo "usage: $0 CHECKER IMAGE POWER_BOOTS BOOTS" >&2; exit 2; }
checker=$1 image=$2 POWER_BOOTS=$3 BOOTS=$4
here=$(cd "$(dirname "$0")" && pwd)
passed=0 failed=0
SLOTS_2M=440
pass() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); echo "not ok - $1"; }
check() { # check EXIT-STATUS NAME CHECKER-ARGS...: stdin goes to the checker
	want=$1 name=$2
	shift 2
	if "$checker" "$@" >"$tmp.out" 2>&1; then got=0; else got=$?; fi
	if [ "$got" = "$want" ]; then pass "$name"; else
		fail "$name (exit $got, wanted $want)"
		sed 's/^/#  /' "$tmp.out"
	fi
}
P="--slots $SLOTS_2M --lo 0x1000000 --align 0x200000"
# awk's rand() with a fixed seed stands in for the boot-time generator.
lines() { # lines N SEED MODE [CLAIMED-SLOTS]
	awk -v n="$1" -v seed="$2" -v mode="$3" -v slots=$SLOTS_2M -v claimed="${4:-$SLOTS_2M}" 'BEGIN {
		srand(seed)
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
			printf "kslide: base=0x%x phys=0x%x slots=%d align=0x200000 entropy=rdrand credited=64\n",
				b + 3221225472, b, claimed
		}
	}'
}
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp".*' EXIT
lines 200 1 uniform >"$tmp"; check 0 "uniform draws pass" $P <"$tmp"
lines 2000 2 uniform >"$tmp"; check 0 "2000 uniform draws pass" $P <"$tmp"
lines 200 3 seed >"$tmp"; check 1 "the seed patch's 26 positions fail" $P <"$tmp"
lines 50 4 outside >"$tmp"; check 1 "a base outside the slots fails" $P <"$tmp"
lines 200 5 uniform $((SLOTS_2M - 1)) >"$tmp"
check 1 "a stub claiming one slot fewer than there are fails" $P <"$tmp"
lines 200 5 uniform | sed 's/phys=0x[0-9a-f]*/phys=0x1000000/' >"$tmp"
check 1 "one repeated base fails" $P <"$tmp"

# x86-64 lines: 1016 virtual slots from 0xffffffff80000000, 440 physical ones.
V="$P --vslots 1016 --vlo 0xffffffff80000000 --valign 0x200000"
lines64() { # lines64 N SEED MODE
	awk -v n="$1" -v seed="$2" -v mode="$3" 'BEGIN {
		srand(seed); slots = 440; vslots = 1016
		for (i = 0; i < n; i++) {
			p = int(rand() * slots)
			v = int(rand() * vslots)
			if (mode == "low") v = int(rand() * vslots / 2)
			if (mode == "follow") v = int((p + rand()) * vslots / slots)
			printf "kslide: base=0xffffffff%08x phys=0x%x slots=%d vslots=%d align=0x200000 entropy=rdrand credited=64\n",
				2147483648 + v * 2097152, 16777216 + p * 2097152, slots, vslots
		}
	}'
}
lines64 200 6 uniform >"$tmp"; check 0 "uniform physical and virtual draws pass" $V <"$tmp"
lines64 200 7 low >"$tmp"; check 1 "virtual draws from half the window fail" $V <"$tmp"
lines64 400 8 uniform >"$tmp"; check 0 "independent draws pass" $V <"$tmp"
lines64 400 9 follow >"$tmp"
check 1 "a virtual base that follows the physical one fails, both uniform" $V <"$tmp"
grep -q 'independence.*FAIL' "$tmp.out" && grep -q 'uniformity(base).*: ok' "$tmp.out" &&
	pass "and it is the independence test that fails it" ||
	fail "and it is the independence test that fails it"
# The entry area (idt=, uniformity.sh -E): 1021 page slots from 0xffc00000, judged on its own
# and against the physical base.
lines_idt() { # lines_idt N SEED MODE
	awk -v n="$1" -v seed="$2" -v mode="$3" 'BEGIN {
		srand(seed); slots = 440; idtslots = 1021
		for (i = 0; i < n; i++) {
			p = int(rand() * slots)
			e = int(rand() * idtslots)
			if (mode == "follow") e = int((p + rand()) * idtslots / slots)
			if (mode == "low") e = int(rand() * idtslots / 2)
			printf "kslide: base=0x%x phys=0x%x slots=%d align=0x200000 entropy=rdrand credited=64 idt=0x%x\n",
				3221225472 + 16777216 + p * 2097152, 16777216 + p * 2097152, slots,
				4290772992 + e * 4096
		}
	}'
}
E="$P --entry-lo 0xffc00000 --entry-slots 1021"
lines_idt 400 20 uniform >"$tmp"; check 0 "uniform entry areas, independent of the base, pass" $E <"$tmp"
lines_idt 400 21 low >"$tmp"; check 1 "entry areas from half their window fail" $E <"$tmp"
lines_idt 400 22 follow >"$tmp"; check 1 "an entry area that follows the base fails" $E <"$tmp"
grep -q 'independence(phys, idt).*FAIL' "$tmp.out" && grep -q 'uniformity(idt).*: ok' "$tmp.out" &&
	pass "and it is the independence test that fails it" ||
	fail "and it is the independence test that fails it"
lines_idt 50 23 uniform | sed 's/ idt=0x[0-9a-f]*//' >"$tmp"
check 2 "base lines without the entry area are an error when it is judged" $E <"$tmp"

# The x86-64 4 KiB window: 520,186 slots. One repeat among 200 draws happens in 3.8% of runs
# and must pass; three (odds about 1 in 100,000) must not.
repeats() { # repeats N SEED R: N draws, the last R of them copies of the first
	awk -v n="$1" -v seed="$2" -v r="$3" 'BEGIN {
		srand(seed); slots = 520186
		for (i = 0; i < n; i++) {
			v[i] = i < n - r ? int(rand() * slots) : v[0]
			printf "kslide: base=0x%x phys=0x%x slots=%d align=0x1000 entropy=rdrand credited=64\n",
				2147483648 + v[i] * 4096, 2147483648 + v[i] * 4096, slots
		}
	}'
}
R="--slots 520186 --lo 0x80000000 --align 0x1000"
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
			printf "kslide: base=0x%x phys=0x%x slots=%d align=0x200000 entropy=rdrand credited=64\n",
				3238002688 + v * 2097152, 16777216 + v * 2097152, slots
		}
	}'
}
empties 12 32 >"$tmp"; check 0 "14 empty slots after 2000 draws over 440 pass" $P <"$tmp"
empties 13 11 >"$tmp"; check 1 "40 empty slots after 2000 draws over 440 fail" $P <"$tmp"

# The universe from a real image's header and QEMU's 1G memory map, enumerated slot by slot
# by tests/stat/brute.py; the checker's own recount must give the same slots.
cat >"$tmp.py" <<'EOF'
import random, sys
sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, sys.argv[1])
import brute
size, align, lo, hi = brute.header(sys.argv[2])
usable = [(0, 0x9fc00), (0x100000, 0x3ffe0000)]
slots = brute.slots_by_enumeration(size, align, lo, hi, usable)
claimed, keep_map = len(slots) + int(sys.argv[3]), sys.argv[4] == "map"
rng = random.Random(14)
if keep_map:
    print("kernel: usable=" + ",".join("0x%x-0x%x" % span for span in usable))
for _ in range(200):
    b = rng.choice(slots)
    print(f"kslide: base=0x{b + 0xc0000000:x} phys=0x{b:x} slots={claimed} "
          f"align=0x{align:x} entropy=rdrand credited=64")
EOF
python3 "$tmp.py" "$here/../stat" "$image" 0 map >"$tmp"
check 0 "draws over the enumerated slots of $image pass the recount" --image "$image" <"$tmp"
python3 "$tmp.py" "$here/../stat" "$image" -1 map >"$tmp"
check 1 "a stub claiming one slot fewer than the enumeration fails the recount" \
	--image "$image" <"$tmp"
python3 "$tmp.py" "$here/../stat" "$image" 0 nomap >"$tmp"
check 2 "without the kernel's memory map there is no recount: an error" --image "$image" <"$tmp"

# Anderson-Darling's limiting tail at the published percentage points (Anderson and Darling,
# JASA 49, 1954: 10% 1.933, 5% 2.492, 1% 3.857; the last, rounded there, is 1.02% exactly).
tail_near() { # tail_near X P TOLERANCE
	got=$("$checker" --ad-tail "$1")
	awk -v g="$got" -v p="$2" -v t="$3" 'BEGIN { exit !(g - p <= t && p - g <= t) }' &&
		pass "P(A^2 >= $1) = $got, published $2" || fail "P(A^2 >= $1) = $got, published $2"
}
tail_near 1.933 0.10 0.0005
tail_near 2.492 0.05 0.0005
tail_near 3.857 0.01 0.0005

# A^2 against its definition, n times the integral of (F_n(u) - u)^2 / (u (1 - u)), taken
# exactly between the order statistics; over 2^40 slots the checker's jitter is invisible.
cat >"$tmp.py" <<'EOF'
import math, random, sys
slots, align, rng = 2**40, 0x1000, random.Random(15)
u = sorted(rng.random() * rng.random() for _ in range(300))  # skewed on purpose: a large A^2
with open(sys.argv[1], "w") as out:
    for x in u:
        b = int(x * slots) * align
        print(f"kslide: base=0x{b:x} phys=0x{b:x} slots={slots} align=0x{align:x} "
              "entropy=rdrand credited=64", file=out)
u = [int(x * slots) / slots for x in u]
n, total, a = len(u), 0.0, 0.0
for i, b in enumerate(u + [1.0]):  # F_n = i / n on [a, b)
    c = i / n
    if b > a:
        total += c * c * math.log(b / a) if c else 0.0
        total += (1 - c) ** 2 * math.log((1 - a) / (1 - b)) if c < 1 else 0.0
        total -= b - a
    a = b
print(f"{n * total:.4f}")
EOF
want=$(python3 "$tmp.py" "$tmp")
"$checker" --slots 1099511627776 --lo 0 --align 0x1000 <"$tmp" >"$tmp.out"
got=$(sed -n 's/.* A2=\([0-9.]*\) .*/\1/p' "$tmp.out")
awk -v g="$got" -v w="$want" 'BEGIN { exit !(g != "" && g - w < 0.001 && w - g < 0.001) }' &&
	pass "A^2 = $got, its integral definition gives $want" ||
	fail "A^2 = $got, its integral definition gives $want"

# Simulated runs, the checker's verdict on GSL draws: how often it rejects. For uniform draws
# at most 1 in 1,000 at the checker's default budget, over few and over many slots. A stage
# shares its budget among its verdicts: the i386 stages judge three (the physical base, the
# entry area, their independence), the x86-64 ones six, so the power is shown at a third of
# the budget, as the 440-slot stage has it. Two at a time, as the machine has two cores.
I386_SHARE=0.000333
simulate() { # simulate NAME MODEL SAMPLES SLOTS RUNS [FALSE-ALARM]
	"$checker" --simulate "$2" --samples "$3" --slots "$4" --runs "$5" \
		--false-alarm "${6:-0.001}" >"$tmp.$1" 2>&1
}
rejected() { # rejected NAME: "REJECTED RUNS", or "- -" if the run failed
	sed -n 's/.* \([0-9]*\) runs: \([0-9]*\) rejected.*/\2 \1/p' "$tmp.$1" | grep . ||
		{ sed 's/^/#  /' "$tmp.$1" >&2; echo "- -"; }
}
{
	simulate fa-power uniform $POWER_BOOTS $SLOTS_2M 20000
	simulate fold fold $POWER_BOOTS $SLOTS_2M 1000 $I386_SHARE
	simulate low quarter-low $POWER_BOOTS $SLOTS_2M 1000 $I386_SHARE
	simulate high quarter-high $POWER_BOOTS $SLOTS_2M 1000 $I386_SHARE
	simulate half lower-half $BOOTS $SLOTS_2M 1000 $I386_SHARE
} &
simulate fa-4k uniform $BOOTS 28000 10000
simulate fa-pie uniform $BOOTS 62652416 10000
simulate middle quarter-middle $POWER_BOOTS $SLOTS_2M 1000 $I386_SHARE
simulate anywhere quarter-anywhere $POWER_BOOTS $SLOTS_2M 1000 $I386_SHARE
simulate fold-4k fold $BOOTS 28000 1000 $I386_SHARE
simulate low-4k quarter-low $BOOTS 28000 1000 $I386_SHARE
wait
false_alarms() { # false_alarms NAME SAMPLES SLOTS FALSE-ALARM
	set -- "$@" $(rejected "$1")
	what="false alarms, $2 uniform draws over $3 slots: $5 of $6 runs (at most $4)"
	awk -v r="$5" -v n="$6" -v f="$4" 'BEGIN { exit !(r != "-" && r <= n * f) }' &&
		pass "$what" || fail "$what"
}
false_alarms fa-power $POWER_BOOTS $SLOTS_2M 0.001
false_alarms fa-4k $BOOTS 28000 0.001
false_alarms fa-pie $BOOTS 62652416 0.001
power() { # power NAME MODEL SAMPLES SLOTS MIN-FRACTION
	set -- "$@" $(rejected "$1")
	what="power against $2, $3 draws over $4 slots: $6 of $7 runs rejected (at least $5)"
	awk -v r="$6" -v n="$7" -v m="$5" 'BEGIN { exit !(r != "-" && r >= n * m) }' &&
		pass "$what" || fail "$what"
}
power fold fold $POWER_BOOTS $SLOTS_2M 0.99
power low quarter-low $POWER_BOOTS $SLOTS_2M 0.85
power middle quarter-middle $POWER_BOOTS $SLOTS_2M 0.85
power high quarter-high $POWER_BOOTS $SLOTS_2M 0.85
power anywhere quarter-anywhere $POWER_BOOTS $SLOTS_2M 0.75
power half lower-half $BOOTS $SLOTS_2M 0.99
# At the other stages' 200 boots only gross faults are certain; the figures, for the record:
for name in fold-4k low-4k; do
	echo "# $(sed -n 's/^simulated //p' "$tmp.$name")"
done
echo "uniformity-selftest: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
