#!/bin/sh
# `make entropy-quality`: collect the stub's generator output from many boots (kslide.random=N
# via kslide-stat --random) and run rngtest (FIPS 140-2) and ent over it.
#
# These suites judge the ChaCha20 output, which looks random even from a predictable seed;
# the seed's own quality shows only as boots repeating each other's stream, so that is
# counted too (and kslide-stat's credit flags are printed).
# usage: entropy-quality.sh BUILD_DIR IMAGE BOOTS BYTES [kslide-stat options...]
set -u
B=$1 image=$2 boots=$3 bytes=$4
shift 4
out=$B/entropy
mkdir -p "$out"
echo "entropy-quality: $boots boots x $bytes bytes of $image"
"$B/bin/kslide-stat" -n "$boots" -j 2 --random "$bytes" --random-out "$out/random.bin" \
	--bases-out "$out/lines.txt" "$@" "$image" >"$out/stat.txt" || exit 1
sed -n '/^entropy sources/,/^$/p' "$out/stat.txt"
status=0

streams=$(grep -c '^kslide: random=' "$out/lines.txt")
distinct=$(grep '^kslide: random=' "$out/lines.txt" | sort -u | wc -l)
echo "streams: $streams, distinct: $distinct"
[ "$distinct" -eq "$streams" ] || { echo "entropy-quality: FAIL: boots repeated a stream"; status=1; }

rngtest <"$out/random.bin" 2>"$out/rngtest.txt"
grep -E 'FIPS 140-2 (successes|failures)|Monobit|Poker|Runs|Long run|Continuous' \
	"$out/rngtest.txt"
ok=$(sed -n 's/.*FIPS 140-2 successes: //p' "$out/rngtest.txt")
bad=$(sed -n 's/.*FIPS 140-2 failures: //p' "$out/rngtest.txt")
# A good generator fails a 20,000-bit FIPS block about once in a thousand; allow 1%, plus one.
if [ -z "$ok" ] || [ "$bad" -gt $(((ok + bad) / 100 + 1)) ]; then
	echo "entropy-quality: FAIL: rngtest: $bad of $((ok + bad)) blocks failed"
	status=1
fi

ent "$out/random.bin" | tee "$out/ent.txt"
awk '/^Entropy = / { if ($3 < 7.99) { print "entropy-quality: FAIL: ent: " $3 " bits per byte"; exit 1 } }' \
	"$out/ent.txt" || status=1
echo "entropy-quality: $([ $status -eq 0 ] && echo ok || echo FAILED) (files in $out/)"
exit $status
