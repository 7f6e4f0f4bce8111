#!/bin/sh
# `make mutate`: break the code on purpose and make sure the tests notice. Each mutation of
# tests/mutations/ (format: tests/mutations/README) is applied, one at a time, to a scratch
# copy of the tracked files (the real tree is never touched); the copy is rebuilt and only the
# check stages the mutation names are run (scripts/check.sh). A mutation is caught when one of
# them fails. The scratch build is kept between mutations and runs: make rebuilds only what
# each edit touches. First the unmutated copy must pass every stage named, or nothing counts.
#
# Prints one line per mutation, then a table (also written to FILE with -o) and the time taken;
# fails if a mutation survived (unless marked known-open), no longer applies or does not build.
# usage: mutate.sh [-o FILE] [MUTATION...]     (default: every tests/mutations/*.mut)
#   MUTATE_DIR   the scratch directory (default: one per worktree under $TMPDIR or /tmp)
#   MUTATE_JOBS  make -j for the rebuilds (default 2)
set -u
repo=$(cd "$(dirname "$0")/.." && pwd)
helper="python3 $repo/scripts/mutation.py"
table=""
[ "${1:-}" = -o ] && { table=$2; shift 2; }
scratch=${MUTATE_DIR:-${TMPDIR:-/tmp}/kslide-mutate.$(id -u).$(printf %s "$repo" | cksum | cut -d' ' -f1)}
jobs=${MUTATE_JOBS:-2}
tree=$scratch/tree logs=$scratch/logs save=$scratch/saved
run_start=$(date +%s)

die() { echo "mutate: $*" >&2; exit 1; }

if [ $# -eq 0 ]; then
	set -- "$repo"/tests/mutations/*.mut
else
	for m in "$@"; do
		shift
		m=${m%.mut}
		[ -f "$repo/tests/mutations/$m.mut" ] || die "no mutation named $m (tests/mutations/)"
		set -- "$@" "$repo/tests/mutations/$m.mut"
	done
fi
valid_stages=" $("$repo/scripts/check.sh" --list | tr '\n' ' ')"
all_stages=""
for m in "$@"; do
	stages=$($helper show "$m" stages) || exit 1
	for s in $stages; do
		case $valid_stages in *" $s "*) ;; *) die "$(basename "$m"): no check stage named $s" ;; esac
		case " $all_stages " in *" $s "*) ;; *) all_stages="$all_stages $s" ;; esac
	done
done

mkdir -p "$scratch"
mkdir "$scratch/lock" 2>/dev/null ||
	die "another make mutate is using $scratch (if none is, remove $scratch/lock)"
trap 'rm -rf "$scratch/lock" "$scratch/next"' EXIT
trap 'exit 130' INT TERM

# A fresh copy of the tracked files, keeping the old copy's build directory. The copy keeps
# each file's time, so make rebuilds what changed in the tree since the last run; files whose
# bytes differ from the last copy's are made newer (a file edited while the last run built
# may be older than what it built from the file before), and so are files that mutations
# ever edited, in case a run stopped before undoing one.
rm -rf "$scratch/next" "$save" && mkdir -p "$scratch/next" "$logs" || exit 1
$helper tracked "$repo" | (cd "$repo" && tar --null --no-recursion -T - -cf -) |
	tar -xf - -C "$scratch/next" || die "cannot copy the tree to $scratch/next"
if [ -d "$tree" ]; then
	$helper touch-changed "$tree" "$scratch/next" || die "cannot compare $scratch/next with $tree"
fi
[ -d "$tree/build" ] && mv "$tree/build" "$scratch/next/build"
rm -rf "$tree" && mv "$scratch/next" "$tree" || exit 1
$helper files "$@" >>"$scratch/edited-files"
# shellcheck disable=SC2046
$helper touch "$tree" $(sort -u "$scratch/edited-files")

check() { # check LOG STAGE...: build the copy and run the stages; 0 when they all pass
	log=$1
	shift
	nice -n 10 make -C "$tree" -j"$jobs" --no-print-directory check STAGE="$*" >"$log" 2>&1
}
failed_stages() { sed -n 's/^=== \(.*\): FAILED.*/\1/p' "$1" | tr '\n' ' ' | sed 's/ $//'; }
ran() { grep -q '^check: [0-9]* passed' "$1"; }

echo "mutate: $# mutations in $tree; first the unmutated copy:$all_stages"
start=$(date +%s)
if ! check "$logs/baseline.log" $all_stages; then
	ran "$logs/baseline.log" || { tail -n 20 "$logs/baseline.log"; die "the copy does not build"; }
	die "the unmutated copy fails $(failed_stages "$logs/baseline.log"): nothing a mutation" \
		"does could be told from that (log: $logs/baseline.log)"
fi
echo "mutate: baseline passes ($(($(date +%s) - start))s)"

rows="" bad=0
for m in "$@"; do
	name=$(basename "$m" .mut)
	stages=$($helper show "$m" stages)
	open=$($helper show "$m" known-open)
	refusal=$($helper show "$m" refused-at-build)
	log=$logs/$name.log
	start=$(date +%s)
	caught=""
	if ! $helper apply "$m" "$tree" "$save" >"$log" 2>&1; then
		result="FAILED: does not apply: $(sed 's/^mutation: //' "$log")"
	else
		check "$log" $stages
		caught=$(failed_stages "$log")
		if ! ran "$log" && [ -n "$refusal" ] && grep -qF -- "$refusal" "$log"; then
			result="caught" caught="the build (kslide-pack refused the images)"
		elif ! ran "$log"; then
			result="FAILED: does not build (log: $log)"
		elif [ -n "$caught" ]; then
			result="caught"
			[ -n "$open" ] && result="caught (marked known-open: the mark can go)"
		elif [ -n "$open" ]; then
			result="survived, known open: $open"
		else
			result="SURVIVED"
		fi
		$helper restore "$save" "$tree" || die "cannot undo $name in $tree: remove $scratch"
	fi
	case $result in FAILED* | SURVIVED) bad=$((bad + 1)) ;; esac
	seconds=$(($(date +%s) - start))
	echo "$name: $result${caught:+ by $caught} (${seconds}s)"
	rows="$rows| \`$name\` | $($helper show "$m" what) | $stages | ${caught:--} | $result | $seconds |
"
done

total=$(($(date +%s) - run_start))
report=$(printf '| mutation | what | must be caught by | caught by | result | seconds |\n'
	printf '| --- | --- | --- | --- | --- | --- |\n'
	printf '%s' "$rows")
echo
echo "$report"
echo
echo "mutate: $# mutations, $bad failed, ${total}s in all (logs: $logs)"
[ -n "$table" ] && printf '%s\n\n%s mutations, %s failed, %ss in all.\n' "$report" "$#" "$bad" \
	"$total" >"$table"
[ "$bad" -eq 0 ]
