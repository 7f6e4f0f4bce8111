#!/bin/sh
# The packer against every ELF file under the given directories (default /usr/lib and /usr/bin),
# none of which is a kernel: each must be refused with "kslide-pack: FILE: message", exit 1, no
# crash (ASan/UBSan abort with their own status), no output and no temporary file left behind.
# Prints the refusals grouped by message, then "pack-sweep: N files, R refused, F findings".
# usage: pack-sweep.sh PACK [DIR...]    PACK: the packer to run, best an ASan/UBSan build
set -u
[ $# -ge 1 ] || { echo "usage: $0 PACK [DIR...]" >&2; exit 2; }
PACK=$1
shift
[ $# -eq 0 ] && set -- /usr/lib /usr/bin
T=$(mktemp -d "${TMPDIR:-/tmp}/kslide-pack-sweep.XXXXXX")
trap 'rm -rf "$T"' EXIT
# Statuses nothing else gives: a sanitizer report is a crash, never a refusal (exit 1).
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}exitcode=86:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:exitcode=87
# Seconds one file may take; the largest libraries take a few under ASan.
PACK_TIMEOUT=120

# One line per file: "STATUS<TAB>FILE<TAB>verdict or message", written by a worker per file.
one() { # one FILE: pack it into a directory of its own, judge the result
	f=$1
	d=$(mktemp -d "$T/run.XXXXXX")
	timeout "$PACK_TIMEOUT" "$PACK" -o "$d/out.img" "$f" >/dev/null 2>"$d/stderr"
	rc=$?
	msg=$(head -n 1 "$d/stderr" | sed "s|^.*kslide-pack: [^:]*: ||")
	left=$(ls -A "$d" | grep -v '^stderr$' | tr '\n' ' ')
	if [ $rc -eq 0 ]; then
		verdict="FINDING accepted"
	elif [ $rc -ne 1 ]; then
		verdict="FINDING exit status $rc: $(grep -m1 -E 'ERROR|runtime error' "$d/stderr")"
	elif [ -n "$left" ]; then
		verdict="FINDING left $left"
	elif ! grep -q 'kslide-pack: ' "$d/stderr"; then
		verdict="FINDING refused without a kslide-pack: message"
	else
		verdict="refused"
	fi
	printf '%s\t%s\t%s\n' "$verdict" "$f" "$msg"
	rm -rf "$d"
}

# ELF files only: the first four bytes are 0x7f 'E' 'L' 'F'.
find "$@" -type f -size +0 2>/dev/null | while IFS= read -r f; do
	[ "$(head -c 4 "$f" 2>/dev/null | od -An -tx1 | tr -d ' ')" = 7f454c46 ] && printf '%s\n' "$f"
done >"$T/elfs"

while IFS= read -r f; do one "$f"; done <"$T/elfs" >"$T/results"

total=$(wc -l <"$T/elfs")
refused=$(grep -c '^refused	' "$T/results")
findings=$(grep -c '^FINDING' "$T/results")
echo "refusals by message (count; numbers as N, library names as NAME):"
grep '^refused	' "$T/results" | cut -f3 |
	sed 's/(DT_\([A-Z]*\) [^)]*)/(DT_\1 NAME)/; s/0x[0-9a-f]*/N/g; s/[0-9][0-9]*/N/g' | sort | uniq -c |
	sort -rn
grep '^FINDING' "$T/results" | cut -f1,2 | sed 's/^/  /'
echo "pack-sweep: $total files, $refused refused, $findings findings"
[ "$findings" -eq 0 ] && [ "$total" -gt 0 ]
