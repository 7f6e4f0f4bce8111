#!/bin/sh
# `make check-no-ia32`: make check as on a machine whose kernel refuses 32-bit programs (as
# CI's does), on any machine. tests/harness/no_ia32.c, preloaded into every process, makes
# each start of an i386 program fail with "Exec format error"; run32.sh's way is found
# again, so the i386 host programs run under qemu-i386, and any 32-bit program a test starts
# another way fails the check. The simulation is tried first (an i386 program refused, an
# x86-64 one run), and the check must have said it ran them under qemu-i386.
# usage: check-no-ia32.sh BUILD_DIR PRELOAD TARGET -- MAKE_ARGUMENTS...
#   TARGET: check, or check-busy for the same beside CPU hogs
set -u
[ $# -ge 3 ] || { echo "usage: $0 BUILD_DIR PRELOAD TARGET -- MAKE_ARGUMENTS..." >&2; exit 2; }
build=$1 preload=$2 target=$3
shift 3
[ "${1:-}" = -- ] && shift
case $preload in /*) ;; *) preload=$(pwd)/$preload ;; esac
fail() { echo "check-no-ia32: $*" >&2; exit 1; }

dir=$build/harness
mkdir -p "$dir" || fail "cannot create $dir"
printf 'int main(void) { return 42; }\n' >"$dir/probe.c"
${HOSTCC:-cc} -m32 "$dir/probe.c" -o "$dir/probe32" && ${HOSTCC:-cc} "$dir/probe.c" -o "$dir/probe64" ||
	fail "cannot build the probes"
LD_PRELOAD=$preload sh -c "'$dir/probe32'" 2>/dev/null
[ $? -ne 42 ] || fail "$preload does not refuse an i386 program: the simulation is broken"
LD_PRELOAD=$preload sh -c "'$dir/probe64'"
[ $? -eq 42 ] || fail "$preload stops an x86-64 program too: the simulation is broken"
echo "check-no-ia32: i386 programs refused (Exec format error), x86-64 ones run; make $target"

# The way run32.sh found before holds for this machine, not for the simulated one.
rm -f "$build/host32/way"
log=$dir/check.log
status=$dir/check.status
{
	LD_PRELOAD=$preload ASAN_OPTIONS=verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS} \
		make "$@" "$target"
	echo $? >"$status"
} 2>&1 | tee "$log"
rm -f "$build/host32/way"
rc=$(cat "$status")
[ "$rc" -eq 0 ] || exit "$rc"
grep -q '^run32: i386 host programs run under qemu-i386' "$log" ||
	fail "make $target passed without saying the i386 programs ran under qemu-i386 ($log)"
echo "check-no-ia32: make $target passed with 32-bit programs refused"
