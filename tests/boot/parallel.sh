#!/bin/sh
# The boot tests' one parallel runner (matrix.sh, grub.sh, uniformity.sh, tests/linux/boot.sh
# and boot-many.sh): every case of WORKDIR/cases, one a line as NAME<TAB>ARGUMENTS, where the
# arguments are tests/boot/qemu-boot.sh's, as shell words (quoted where they hold spaces or
# patterns); arguments that begin "--with SCRIPT" run tests/SCRIPT with the rest of them
# instead (tests/linux/entry-proof.sh). Boot N writes its output to WORKDIR/out.N, its errors to err.N and its exit
# status to status.N; callers read them for more than a pass.
#
# Prints one TAP-style line per case, in order: "ok N - NAME: " and the boot's last line, or
# "not ok N - NAME" and the last 30 lines of its errors (none with -q); with -s LABEL then
# "LABEL: P passed, F failed". Fails if any boot failed.
#
# Boots at once: $JOBS, by default twice the machine's cores, and never more than -j MAX (for
# callers whose guests are large). Twice, because a TCG guest does not keep its core busy all
# the time (QEMU's start, firmware waits, a refusal's seconds of waiting), and because on a
# busy machine the scheduler shares the cores among runnable threads: beside two busy loops
# on 2 cores, two boots get one core between them and four get 1.3 (docs/reliability.md).
# The boots run at the caller's priority, never under nice: on a busy machine a niced check
# gets a tenth of a core beside each ordinary process, and its time has no bound
# (docs/reliability.md, "Fresh machines and busy ones").
# usage: parallel.sh [-j MAX] [-q] [-s LABEL] WORKDIR
set -u
here=$(cd "$(dirname "$0")" && pwd)

if [ "${1:-}" = --one ]; then # internal: --one WORKDIR N
	work=$2 n=$3
	line=$(sed -n "${n}p" "$work/cases")
	eval "set -- ${line#*	}"
	run=$here/qemu-boot.sh
	[ "${1:-}" = --with ] && { run=$here/../$2; shift 2; }
	"$run" "$@" >"$work/out.$n" 2>"$work/err.$n"
	echo $? >"$work/status.$n"
	exit 0
fi

max="" quiet=false label=""
while getopts j:qs: opt; do
	case $opt in
	j) max=$OPTARG ;;
	q) quiet=true ;;
	s) label=$OPTARG ;;
	*) echo "usage: $0 [-j MAX] [-q] [-s LABEL] WORKDIR" >&2 && exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] && [ -f "$1/cases" ] || { echo "parallel.sh: no cases file: ${1:-}/cases" >&2; exit 2; }
work=$1
jobs=${JOBS:-$((2 * $(nproc 2>/dev/null || echo 2)))}
[ -n "$max" ] && [ "$jobs" -gt "$max" ] && jobs=$max

count=$(wc -l <"$work/cases")
rm -f "$work"/status.*
seq 1 "$count" | xargs -P "$jobs" -I{} "$0" --one "$work" {}

failed=0
for n in $(seq 1 "$count"); do
	name=$(sed -n "${n}p" "$work/cases" | cut -f1)
	if [ "$(cat "$work/status.$n" 2>/dev/null)" = 0 ]; then
		$quiet || echo "ok $n - $name: $(tail -n 1 "$work/out.$n")"
	else
		failed=$((failed + 1))
		$quiet && continue
		echo "not ok $n - $name"
		tail -n 30 "$work/err.$n" | sed 's/^/#  /'
	fi
done
[ -z "$label" ] || echo "$label: $((count - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
