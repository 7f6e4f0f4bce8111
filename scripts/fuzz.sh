#!/bin/sh
# Run libFuzzer targets, each for SECONDS on a copy of its seed corpus (tests/fuzz/corpus/NAME),
# so that the repository never gains generated inputs: a scratch copy by default, or with -k
# BUILD/fuzz/corpus/NAME, which keeps what each run learns for the next. Crash reproducers go to
# BUILD/fuzz/artifacts/. Fails if any target finds a crash.
# Targets run $JOBS at a time (by default twice the machine's cores): each is one process
# bounded by its SECONDS of wall time, so the stage's time is the targets' count over JOBS
# times SECONDS whatever the machine; twice the cores halves it, each target sharing a core
# (a smoke run: more inputs per second is what `make fuzz` is for), and on a machine busy
# with other work it takes a larger share of the cores. Their reports are printed in the
# order the targets were named, once all have finished.
# usage: fuzz.sh [-k] BUILD SECONDS NAME...
set -u

if [ "${1:-}" = --one ]; then # internal: --one KEEP BUILD SECONDS SCRATCH NAME
	keep=$2 B=$3 seconds=$4 scratch=$5 name=$6
	corpus="$scratch/$name"
	$keep && corpus="$B/fuzz/corpus/$name"
	mkdir -p "$corpus" && cp tests/fuzz/corpus/"$name"/* "$corpus"/ || {
		echo 1 >"$scratch/$name.status"
		exit 0
	}
	# A slow input counts as a crash. kernel_elf_read allocates the whole payload span, up to
	# 4 GiB for an i386 kernel, but touches only the file-backed bytes: allow the allocation.
	"$B/fuzz/fuzz_$name" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
		-malloc_limit_mb=4200 \
		-artifact_prefix="$B/fuzz/artifacts/$name-" "$corpus" \
		>"$scratch/$name.log" 2>&1
	echo $? >"$scratch/$name.status"
	exit 0
fi

keep=false
[ "$1" = -k ] && keep=true && shift
B=$1 seconds=$2
shift 2
scratch=$(mktemp -d "${TMPDIR:-/tmp}/kslide-fuzz.XXXXXX") || exit 1
trap 'rm -rf "$scratch"' EXIT
trap 'exit 1' INT TERM
mkdir -p "$B/fuzz/artifacts"
jobs=${JOBS:-$((2 * $(nproc 2>/dev/null || echo 2)))}
echo "fuzz: $# targets for ${seconds}s each, $jobs at a time"
printf '%s\n' "$@" | xargs -P "$jobs" -I{} "$0" --one "$keep" "$B" "$seconds" "$scratch" {}
failed=""
for name in "$@"; do
	echo "fuzz: $name for ${seconds}s"
	if [ "$(cat "$scratch/$name.status" 2>/dev/null)" != 0 ]; then
		tail -n 40 "$scratch/$name.log" 2>/dev/null
		failed="$failed $name"
	else
		grep -E '^stat::number_of_executed_units|^#[0-9]+.*DONE' "$scratch/$name.log"
	fi
done
[ -z "$failed" ] && exit 0
echo "fuzz: crashes in:$failed (reproducers in $B/fuzz/artifacts/)" >&2
exit 1
