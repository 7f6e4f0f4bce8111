#!/bin/sh
# Linux's own KASLR, measured: boot a stock bzImage N times through QEMU's Linux loader with
# the tests' initramfs (tests/linux/init.c) and record where each boot put the kernel. Appends
# one line per boot to OUT ("VIRT PHYS_FIRST PHYS_LAST", hex, or "fail N" with the boot
# number, its serial log kept as OUT.bootN.log), so an interrupted run can be continued;
# prints the distinct bases at the end.
#
# usage: own-kaslr.sh [-n BOOTS] [-m MEM] [-c CPU] [-t SECS] -a i386|x86_64 BZIMAGE INITRAMFS OUT
set -u

boots=200 mem=1G cpu="" timeout=120 arch=""
while getopts n:m:c:t:a: opt; do
	case $opt in
	n) boots=$OPTARG ;;
	m) mem=$OPTARG ;;
	c) cpu=$OPTARG ;;
	t) timeout=$OPTARG ;;
	a) arch=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] && [ -n "$arch" ] ||
	{ echo "usage: $0 [-n BOOTS] [-m MEM] [-c CPU] -a i386|x86_64 BZIMAGE INITRAMFS OUT" >&2; exit 2; }
kernel=$1 initrd=$2 out=$3
for f in "$kernel" "$initrd"; do
	[ -f "$f" ] || { echo "own-kaslr: $f is missing" >&2; exit 2; }
done
[ -n "$cpu" ] || cpu=$([ "$arch" = x86_64 ] && echo qemu64 || echo qemu32)
log=$(mktemp "${TMPDIR:-/tmp}/kslide-own-kaslr.XXXXXX")
trap 'rm -f "$log"' EXIT

done_boots=$([ -f "$out" ] && wc -l <"$out" || echo 0)
i=$done_boots
while [ "$i" -lt "$boots" ]; do
	i=$((i + 1))
	# panic=-1 and -no-reboot: a kernel that cannot reach init ends QEMU instead of hanging.
	timeout "$timeout" "qemu-system-$arch" -kernel "$kernel" -initrd "$initrd" \
		-append "$(cat "$(dirname "$0")/cmdline")" -m "$mem" -cpu "$cpu" -serial "file:$log" \
		-display none -monitor none -no-reboot >/dev/null 2>&1
	line=$(sed -n 's/\r$//; s/^kslide-linux: _text=\(0x[0-9a-f]*\) kernel_code=\(0x[0-9a-f]*\)-\(0x[0-9a-f]*\)$/\1 \2 \3/p' "$log")
	if [ -n "$line" ]; then
		echo "$line" >>"$out"
	else
		echo "fail $i" >>"$out"
		cp "$log" "$out.boot$i.log"
		echo "own-kaslr: boot $i did not report; its log is $out.boot$i.log, ending:" >&2
		tail -n 5 "$log" | sed 's/^/own-kaslr:   /' >&2
	fi
done

failed=$(grep -c '^fail' "$out")
ok=$(grep -vc '^fail' "$out")
virt=$(grep -v '^fail' "$out" | cut -d' ' -f1 | sort -u | wc -l)
phys=$(grep -v '^fail' "$out" | cut -d' ' -f2 | sort -u | wc -l)
echo "own-kaslr: $(basename "$kernel") -m $mem -cpu $cpu: $ok boots, $failed failed;" \
	"distinct virtual bases $virt, physical $phys ($out)"
[ "$failed" -eq 0 ]
