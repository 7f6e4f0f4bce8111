#!/bin/sh
# Start an i386 (ELF32) host program: the one way the tests and benchmarks run one. Natively
# where this machine's kernel runs 32-bit programs; under qemu-i386 (Debian's qemu-user)
# where it refuses them, as a kernel built without IA32_EMULATION or with
# IA32_EMULATION_DEFAULT_DISABLED does ("Exec format error"). Either way the same i386 code
# runs: the emulator executes the program's own instructions, nothing is skipped.
#
# The way is found once per build directory, by starting a 32-bit probe, and kept in
# BUILD/host32/way; HOST32=native or HOST32=qemu-i386 chooses it instead (the unit stage
# runs the decoders' i386 check both ways where the kernel allows, so the emulated way is
# tested on every machine).
#
# usage: run32.sh BUILD_DIR PROGRAM [ARG...]   run PROGRAM with its ARGs, the chosen way
#        run32.sh --way BUILD_DIR              print the way and why, one line
set -u

say_way=false
[ "${1:-}" = --way ] && { say_way=true; shift; }
[ $# -ge 1 ] || { echo "usage: $0 [--way] BUILD_DIR [PROGRAM ARG...]" >&2; exit 2; }
build=$1
shift
dir=$build/host32
record=$dir/way

fail() { echo "run32: $*" >&2; exit 2; }

# The probe: the smallest program the i386 toolchain links; its exit status says whether the
# kernel ran it.
detect() {
	mkdir -p "$dir" || fail "cannot create $dir"
	printf 'int main(void) { return 42; }\n' >"$dir/probe.c"
	${HOSTCC:-cc} -m32 "$dir/probe.c" -o "$dir/probe" 2>"$dir/probe.log" ||
		fail "cannot build a 32-bit program (is gcc-multilib installed? $dir/probe.log)"
	"$dir/probe" 2>/dev/null
	if [ $? -eq 42 ]; then
		way="native"
		why="this kernel runs 32-bit programs"
	else
		way="qemu-i386"
		why="this kernel refuses 32-bit programs"
	fi
	echo "$way $why" >"$record.tmp" && mv "$record.tmp" "$record"
}

if [ -n "${HOST32:-}" ]; then
	way=$HOST32
	why="chosen by HOST32"
else
	[ -f "$record" ] || detect
	read -r way why <"$record" || fail "$record is unreadable"
fi
case $way in
native | qemu-i386) ;;
*) fail "HOST32 must be native or qemu-i386, not '$way'" ;;
esac
if [ "$way" = qemu-i386 ] && ! command -v qemu-i386 >/dev/null 2>&1; then
	fail "$why, and qemu-i386 is missing (apt-get install qemu-user)"
fi

if $say_way; then
	echo "run32: i386 host programs run $([ "$way" = native ] && echo natively ||
		echo under qemu-i386) ($why)"
	exit 0
fi
[ $# -ge 1 ] || fail "no program to run"
if [ "$way" = native ]; then
	exec "$@"
fi
# Debian's qemu-i386 finds the i386 loader and libraries (libc6-i386, from gcc-multilib) at
# their usual paths. A preload of the host's (an x86-64 object, such as make check-no-ia32's)
# is no object the i386 loader can take: it is left out of the program's environment.
exec qemu-i386 -U LD_PRELOAD "$@"
