#!/bin/sh
# A stand-in for qemu-system-ARCH in kslide-stat's tests (tests/stat/check.sh runs kslide-stat
# --arch fake with this on PATH as qemu-system-fake): boot number K (counted in
# $FAKE_QEMU_DIR/count) writes $FAKE_QEMU_DIR/serial.K to the file QEMU's -serial file:PATH
# names and exits with the status in $FAKE_QEMU_DIR/status.K (default 0: Linux powered off).
set -u
while [ $# -gt 0 ]; do
	case $1 in
	-serial) serial=${2#file:}; shift ;;
	esac
	shift
done
k=$(($(cat "$FAKE_QEMU_DIR/count" 2>/dev/null || echo 0) + 1))
echo "$k" >"$FAKE_QEMU_DIR/count"
cat "$FAKE_QEMU_DIR/serial.$k" >"$serial"
exit "$(cat "$FAKE_QEMU_DIR/status.$k" 2>/dev/null || echo 0)"
