#!/bin/sh
# The uniformity checker must be able to fail: it must reject the seed patch's distribution
# (rand & 0x3ffffff, 2 MiB aligned, raised to 16 MiB) and a base outside the slots, and accept
# draws that are uniform. Prints "uniformity-selftest: N passed, M failed".
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
			if (mode == "seed") {   # the 2011 patch: 64 MiB window, bumped to 16 MiB
				r = int(rand() * 67108864); b = r - r % 2097152
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
echo "uniformity-selftest: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
