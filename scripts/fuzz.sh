#!/bin/sh
# Run libFuzzer targets, one after another, each for SECONDS on a copy of its seed corpus
# (tests/fuzz/corpus/NAME), so that the repository never gains generated inputs: a scratch copy
# by default, or with -k BUILD/fuzz/corpus/NAME, which keeps what each run learns for the next.
# Crash reproducers go to BUILD/fuzz/artifacts/. Fails if any target finds a crash.
# usage: fuzz.sh [-k] BUILD SECONDS NAME...
set -u
keep=false
[ "$1" = -k ] && keep=true && shift
B=$1 seconds=$2
shift 2
scratch=$(mktemp -d "${TMPDIR:-/tmp}/kslide-fuzz.XXXXXX") || exit 1
trap 'rm -rf "$scratch"' EXIT
trap 'exit 1' INT TERM
mkdir -p "$B/fuzz/artifacts"
failed=""
for name in "$@"; do
	corpus="$scratch/$name"
	$keep && corpus="$B/fuzz/corpus/$name"
	mkdir -p "$corpus"
	cp tests/fuzz/corpus/"$name"/* "$corpus"/ || exit 1
	echo "fuzz: $name for ${seconds}s"
	# A slow input counts as a crash. kernel_elf_read allocates the whole payload span, up to
	# 4 GiB for an i386 kernel, but touches only the file-backed bytes: allow the allocation.
	if ! "$B/fuzz/fuzz_$name" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
		-malloc_limit_mb=4200 \
		-artifact_prefix="$B/fuzz/artifacts/$name-" "$corpus" \
		>"$scratch/$name.log" 2>&1; then
		tail -n 40 "$scratch/$name.log"
		failed="$failed $name"
	else
		grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' "$scratch/$name.log"
	fi
done
[ -z "$failed" ] && exit 0
echo "fuzz: crashes in:$failed (reproducers in $B/fuzz/artifacts/)" >&2
exit 1
