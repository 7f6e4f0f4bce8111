#!/bin/sh
# `make linux-side-by-side`: Debian's stock kernels (make linux-kernels), Linux's own KASLR and
# kslide's on the same kernel, in one run, at the same -cpu and -m (docs/results.md, "Debian's
# stock kernels under kslide"). For each kernel:
#   - the spread of N boots each: Linux's bzImage through QEMU's Linux loader (kslide-stat
#     --linux) and the kslide image through QEMU's Multiboot loader (kslide-stat), both to the
#     tests' init (tests/linux/init.c): distinct bases, slots, min-entropy, chi-square;
#   - the instructions from the first instruction to the jump into vmlinux (bench/boot-cost.sh:
#     Linux's decompressor from code32_start, kslide's stub from stub_entry), for the bzImage
#     and for the kslide image with each codec: zstd (kslide-pack's default) and, when Linux's
#     payload is LZ4, lz4 too (the same codec on both sides; kslide has no XZ decoder);
#   - the wall time of a boot to init and power off (TCG, the median of T boots, one at a
#     time);
#   - the sizes of the bzImage and the kslide images.
# Each kernel's figures end in a Markdown table. One QEMU at a time but for kslide-stat's
# (-j 2), all under nice. With -o DIR the boots' lines are kept there (FLAVOUR-linux.lines,
# FLAVOUR-kslide.lines), for kslide-stat --from, and a failed boot's serial log in
# FLAVOUR-linux-failed/ or FLAVOUR-kslide-failed/ (kslide-stat --failed-logs).
#
# With -u the spread and the sizes under UEFI firmware (OVMF, -M q35, a virtio-rng device so
# that both find EFI_RNG_PROTOCOL), cloud-amd64 only: the bzImage started by systemd-boot
# through its own EFI stub (kslide-stat --uefi --linux: Linux's EFI-stub KASLR,
# tools/stat/linux_efi_kaslr.h) against the kslide image packed --format efi, started the same
# way (kslide-stat --uefi); the instructions from each PE's entry point to the jump into
# vmlinux by bench/uefi-cost.sh (the median of 3 boots, one at a time); no timed boots.
# With -S only the spread and the sizes, on either way in (no instruction counts, no timed
# boots).
# usage: linux-side-by-side.sh [-u] [-S] [-n BOOTS] [-T TIMED_BOOTS] [-m MEM] [-c CPU] [-o DIR]
#                              BUILD_DIR [FLAVOUR...]
set -u
boots=200 timed=5 mem=1G cpu=max keep="" uefi=false spread_only=false time_boots=true
while getopts uSn:T:m:c:o: opt; do
	case $opt in
	u) uefi=true ;;
	S) spread_only=true time_boots=false ;;
	o) keep=$OPTARG ;;
	n) boots=$OPTARG ;;
	T) timed=$OPTARG ;;
	m) mem=$OPTARG ;;
	c) cpu=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-u] [-n BOOTS] [-T TIMED] [-m MEM] [-c CPU] [-o DIR]" \
	"BUILD_DIR [FLAVOUR...]" >&2; exit 2; }
B=$1
shift
# What differs under UEFI: the image's format, kslide-stat's route and boot-cost.sh's mode.
pack_format="" ext=img route="" firmware=""
if $uefi; then
	[ $# -eq 0 ] && set -- cloud-amd64
	pack_format="--format efi" ext=efi time_boots=false
	route="--uefi --qemu-arg=-device --qemu-arg=virtio-rng-pci"
	firmware=", UEFI (OVMF, -M q35, virtio-rng)"
fi
[ $# -eq 0 ] && set -- 686 cloud-amd64
here=$(cd "$(dirname "$0")" && pwd)
stat=$B/bin/kslide-stat pack=$B/bin/kslide-pack tbcount=$B/bench/tbcount
for f in "$stat" "$pack" "$tbcount" "$B/bench/insncount.so"; do
	[ -x "$f" ] || { echo "side-by-side: $f is missing: run make" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-side-by-side.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 1' INT TERM
cmdline=$(cat "$here/../tests/linux/cmdline") # the Linux tests' command line, on both sides
failed=0
fail() { echo "side-by-side: FAILED: $*" >&2; failed=1; }

# median_boot_seconds ARCH ARGS...: T boots to init's report, one at a time; the median wall
# time, or 1 if a boot did not reach init
median_boot_seconds() {
	qarch=$1
	shift
	: >"$work/times"
	for i in $(seq 1 "$timed"); do
		start=$(date +%s.%N)
		nice timeout 300 "qemu-system-$qarch" -nodefaults -accel tcg -M pc -cpu "$cpu" -m "$mem" \
			"$@" -append "$cmdline" -display none -monitor none -no-reboot \
			-serial "file:$work/timed.log" </dev/null >/dev/null 2>&1
		end=$(date +%s.%N)
		grep -aq '^kslide-linux: _text=' "$work/timed.log" || return 1
		awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", b - a }' >>"$work/times"
	done
	sort -n "$work/times" | awk '{ v[NR] = $1 } END { printf "%.2f\n", v[int((NR + 1) / 2)] }'
}

# field JSON PATH...: one figure of kslide-stat --json ("physical distinct", ...)
field() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for k in sys.argv[2:]:
    d = d[k]
print(d if not isinstance(d, float) else ("%.4g" % d))' "$@"
}

for flavour in "$@"; do
	case $flavour in
	686) arch=i386
		$uefi && { echo "side-by-side: -u: OVMF is x86-64 firmware, not for 686" >&2; exit 2; } ;;
	cloud-amd64) arch=x86_64 ;;
	*) echo "side-by-side: no kernel flavour '$flavour'" >&2; exit 2 ;;
	esac
	bz=$B/linux/$flavour/vmlinuz initrd=$B/linux/$arch/initramfs.cpio stub=$B/$arch/stub.elf
	[ "$arch" = x86_64 ] && stub=$B/x86_64/stub.elf
	for f in "$bz" "$initrd" "$stub"; do
		[ -f "$f" ] || { echo "side-by-side: $f is missing: run make linux-kernels linux-initramfs" >&2
			exit 1; }
	done
	echo "== $flavour ($(cat "$B/linux/$flavour/package" 2>/dev/null || basename "$bz")), -cpu $cpu -m $mem$firmware"
	codecs=zstd
	"$pack" -v --compress none -o "$work/probe.img" "$bz" 2>&1 |
		grep -q '^linux: bzImage.* lz4 payload' && codecs="zstd lz4"
	for codec in $codecs; do
		# shellcheck disable=SC2086 # $pack_format is two words or none
		nice "$pack" $pack_format --compress "$codec" -o "$work/$flavour-$codec.$ext" "$bz" ||
			{ fail "kslide-pack --compress $codec $bz"; continue; }
	done

	echo "-- spread: $boots boots each"
	# With -o, a failed boot's serial log is kept too (DIR/FLAVOUR-linux-failed/boot-N.log).
	own_logs="" kslide_logs=""
	if [ -n "$keep" ]; then
		own_logs="--failed-logs=$keep/$flavour-linux-failed"
		kslide_logs="--failed-logs=$keep/$flavour-kslide-failed"
		mkdir -p "${own_logs#*=}" "${kslide_logs#*=}"
	fi
	# shellcheck disable=SC2086 # $route is a list of options or none, as the logs' option
	nice "$stat" --linux $route $own_logs --json -n "$boots" -j 2 --cpu "$cpu" -m "$mem" \
		--timeout 300 --append "$cmdline" --initrd "$initrd" \
		--bases-out "$work/$flavour-linux.lines" "$bz" >"$work/own.json" ||
		fail "kslide-stat --linux $route $bz"
	# shellcheck disable=SC2086
	nice "$stat" $route $kslide_logs --json -n "$boots" -j 2 --cpu "$cpu" -m "$mem" \
		--timeout 300 --append "$cmdline" --initrd "$initrd" \
		--bases-out "$work/$flavour-kslide.lines" "$work/$flavour-zstd.$ext" \
		>"$work/kslide.json" || fail "kslide-stat $route $flavour-zstd.$ext"
	[ -n "$keep" ] && mkdir -p "$keep" && cp "$work/$flavour-"*.lines "$keep/"

	$spread_only || echo "-- boot cost: instructions to the jump into vmlinux"
	$spread_only || $uefi || {
		nice "$here/boot-cost.sh" -L -a "$arch" -c "$cpu" -m "$mem" -A "$cmdline" \
			-I "$initrd" -t 3600 "$tbcount" "$bz" | tee "$work/cost-linux" ||
			fail "boot-cost -L $bz"
		for codec in $codecs; do
			nice "$here/boot-cost.sh" -a "$arch" -c "$cpu" -m "$mem" -A "$cmdline" \
				-I "$initrd" -t 3600 "$tbcount" "$stub" "$work/$flavour-$codec.img" |
				tee "$work/cost-$codec" || fail "boot-cost $flavour-$codec.img"
		done
	}
	$spread_only || ! $uefi || {
		rng="-Q -device -Q virtio-rng-pci"
		# shellcheck disable=SC2086 # $rng is four words
		nice "$here/uefi-cost.sh" -L $rng -c "$cpu" -m "$mem" -A "$cmdline" -I "$initrd" \
			"$B" "$bz" | tee "$work/cost-linux" || fail "uefi-cost -L $bz"
		for codec in $codecs; do
			# shellcheck disable=SC2086
			nice "$here/uefi-cost.sh" $rng -c "$cpu" -m "$mem" -A "$cmdline" -I "$initrd" \
				"$B" "$work/$flavour-$codec.efi" | tee "$work/cost-$codec" ||
				fail "uefi-cost $flavour-$codec.efi"
		done
	}

	if $time_boots; then
		echo "-- time to init: the median of $timed boots, one at a time"
		t_linux=$(median_boot_seconds "$arch" -kernel "$bz" -initrd "$initrd") ||
			fail "a timed boot of $bz"
		for codec in $codecs; do
			t=$(median_boot_seconds "$arch" -kernel "$work/$flavour-$codec.img" \
				-initrd "$initrd") || fail "a timed boot of $flavour-$codec.img"
			eval "t_$codec=\$t"
		done
	fi

	[ -s "$work/own.json" ] && [ -s "$work/kslide.json" ] || continue
	insns() { sed -n 's/.* instructions=\([0-9]*\) .*/\1/p' "$1" | head -n 1; }
	row() { printf '| %s | %s | %s |\n' "$@"; }
	both() { # both LABEL FIELD...: Linux's figure and kslide's
		row "$1" "$(shift; field "$work/own.json" "$@")" "$(shift; field "$work/kslide.json" "$@")"
	}
	echo
	row "$flavour, -cpu $cpu -m $mem$firmware, $boots boots each" "Linux's own KASLR" "kslide"
	row "---" "---" "---"
	for base in physical virtual; do
		both "$base: distinct bases" "$base" distinct
		both "$base: slots" "$base" slots
		both "$base: log2(slots), bits" "$base" log2_slots
		both "$base: min-entropy (plug-in), bits" "$base" min_entropy
		both "$base: chi-square" "$base" chi2
		both "$base: chi-square bins" "$base" bins
		both "$base: chi-square p" "$base" p
		both "$base: verdict" "$base" verdict
	done
	if ! $spread_only; then
		row "instructions to vmlinux" "$(insns "$work/cost-linux")" \
			"$(insns "$work/cost-zstd") (zstd)"
		case $codecs in *lz4*) row "instructions to vmlinux, LZ4 on both sides" \
			"$(insns "$work/cost-linux")" "$(insns "$work/cost-lz4") (lz4)" ;; esac
	fi
	if $time_boots; then
		row "time to init, s (median of $timed)" "$t_linux" "$t_zstd (zstd)"
		case $codecs in *lz4*) row "time to init, s, LZ4" "$t_linux" "$t_lz4 (lz4)" ;; esac
	fi
	row "image bytes" "$(wc -c <"$bz") (bzImage)" "$(wc -c <"$work/$flavour-zstd.$ext") (zstd)"
	case $codecs in *lz4*) row "image bytes, LZ4" "$(wc -c <"$bz")" \
		"$(wc -c <"$work/$flavour-lz4.$ext") (lz4)" ;; esac
	echo
done
[ "$failed" -eq 0 ]
