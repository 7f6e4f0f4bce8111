#!/bin/sh
# `make check-busy`: `make check` with CPU hogs running beside it, as on a CI machine that is
# doing other work. The hogs are busy shell loops, one per HOGS, started before and killed
# after, whatever the check's outcome; the check's exit status is this script's.
# usage: check-busy.sh HOGS -- MAKE_ARGUMENTS...
set -u
hogs=${1:?usage: check-busy.sh HOGS -- MAKE_ARGUMENTS...}
shift
[ "${1:-}" = -- ] && shift
case $hogs in
'' | *[!0-9]*) echo "check-busy: HOGS must be a number, not '$hogs'" >&2; exit 2 ;;
esac

pids=
stop_hogs() {
	# shellcheck disable=SC2086 # a list of pids
	[ -n "$pids" ] && kill $pids 2>/dev/null
	pids=
}
trap stop_hogs EXIT
trap 'exit 130' INT TERM

i=0
while [ "$i" -lt "$hogs" ]; do
	sh -c 'while :; do :; done' &
	pids="$pids $!"
	i=$((i + 1))
done
echo "check-busy: $hogs CPU hogs running beside make check (pids$pids)"
make "$@" check
