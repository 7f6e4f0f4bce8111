#!/bin/sh
# Function-granular shuffling, judged by the kernels themselves: examples/shuffle-i386 and
# examples/shuffle-x86_64 (a higher-half Multiboot kernel the i386 stub moves by one slide),
# both packed with kslide-pack --shuffle around the same kernel proper, check every kind of
# reference the shuffle must follow and print the order their functions ended up in. For each,
# half of BOOTS boots under QEMU's Multiboot loader must each pass with shuffled= on the stub's
# line, no two of them in the same order (16 functions: two uniform draws agree with
# probability 1/16!); one boot with nokaslr must pass with shuffled=0 and the link order
# (nm's); a zstd-compressed copy must pass too; a copy whose table is damaged (its checksum
# made to match) must be refused with a message. With CHECKER (tests/boot/uniformity.c), the
# position of op0 among the 16 over each example's boots is judged uniform over its 16 places.
# And shuffle-x86_64 packed --shuffle --format efi, which the x86-64 stub shuffles: EFI_BOOTS
# boots from OVMF, each passing with shuffled= and no two in the same order, and one nokaslr
# boot in the link order (a zstd copy and a damaged table are judged on the Multiboot images).
# usage: shuffle.sh BUILD_DIR BOOTS [CHECKER]
set -u
here=$(cd "$(dirname "$0")" && pwd)
B=$1 boots=$(($2 / 2)) checker=${3:-}
for e in shuffle-i386 shuffle-x86_64; do
	for f in "$B/examples/$e/kernel.img" "$B/examples/$e/kernel.elf" ${checker:+"$checker"}; do
		[ -f "$f" ] || { echo "shuffle: $f is missing: run make check" >&2; exit 1; }
	done
done
work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-shuffle.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
n=0 failed=0
EFI_BOOTS=8
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)) failed=$((failed + 1)); echo "not ok $n - $1"; }

# judge EXAMPLE QEMU_ARCH [FORMAT BOOTS QEMU_OPTIONS]: every check above on examples/EXAMPLE,
# booted on qemu-system-ARCH; with FORMAT, its kernel packed --shuffle --format FORMAT, booted
# BOOTS times (and once with nokaslr) with qemu-boot.sh's QEMU_OPTIONS, the checks that follow
# the boots left to the Multiboot image.
judge() {
	name=$1 arch=$2 format=${3:-} count=${4:-$boots} opts=${5:-}
	E=$B/examples/$name W=$work/$name${format:+-$format} img=$B/examples/$name/kernel.img
	title=$name${format:+ --format $format}
	mkdir -p "$W"
	if [ -n "$format" ]; then
		img=$W/kernel.$format
		"$B/bin/kslide-pack" --shuffle --format "$format" -o "$img" "$E/kernel.elf" \
			2>"$W/pack.err" || { not_ok "$title: not packed: $(head -n 1 "$W/pack.err")"; return; }
	fi
	PASS="-a $arch $opts -e 'shuffle-example: pass' -N 'shuffle-example: FAIL'"
	for i in $(seq 1 "$count"); do
		printf 'boot %s\t-l %s %s -e %s %s\n' "$i" "$W/boot.$i" "$PASS" \
			"' shuffled=[1-9][0-9]*\$'" "$img"
	done >"$W/cases"
	printf 'nokaslr\t-l %s -A nokaslr %s -e %s %s\n' "$W/nokaslr" "$PASS" "' shuffled=0\$'" \
		"$img" >>"$W/cases"
	# One boot first: a broken shuffle fails it (or hangs it to the timeout) once, not BOOTS
	# times. Then the rest, two at a time: the machine's other work keeps its cores.
	mkdir "$W/first"
	head -n 1 "$W/cases" >"$W/first/cases"
	if ! "$here/parallel.sh" -q "$W/first" >/dev/null; then
		not_ok "$title: the first boot failed"
		head -n 20 "$W/first/err.1" | sed 's/^/#  | /'
		return
	fi
	if "$here/parallel.sh" -q -j 2 "$W" >/dev/null; then
		ok "$title: $count shuffled boots and one nokaslr boot pass their self-checks"
	else
		not_ok "$title: boots failed: $(grep -Lx 0 "$W"/status.* | wc -l) of $((count + 1))"
		first=$(grep -Lx 0 "$W"/status.* | sed -n '1s/.*status\.//p')
		head -n 20 "$W/err.$first" | sed 's/^/#  | /'
	fi

	for i in $(seq 1 "$count"); do order "$W/boot.$i"; done >"$W/orders"
	distinct=$(sort -u "$W/orders" | grep -c .)
	if [ "$distinct" -eq "$count" ]; then
		ok "$title: $count boots, $count different orders"
	else
		not_ok "$title: $count boots gave only $distinct different orders"
		sort "$W/orders" | uniq -c | sort -rn | head -n 3 | sed 's/^/#  /'
	fi

	link=$(nm -n "$E/kernel.elf" | sed -n 's/.* op\([0-9]*\)$/\1/p' | tr '\n' ' ' | sed 's/ $//')
	if [ "$(order "$W/nokaslr")" = "$link" ]; then
		ok "$title: nokaslr keeps the link order ($link)"
	else
		not_ok "$title: nokaslr: order '$(order "$W/nokaslr")', linked '$link'"
	fi
	[ -z "$format" ] || return

	# The shuffle after a compressed payload is decoded into place: one boot of a zstd copy.
	if "$B/bin/kslide-pack" --shuffle --compress zstd -o "$W/zstd.img" "$E/kernel.elf" \
		2>"$W/zstd.err" && "$here/qemu-boot.sh" -a "$arch" -e 'shuffle-example: pass' \
		-e ' shuffled=[1-9]' "$W/zstd.img" >"$W/zstd.out" 2>>"$W/zstd.err"; then
		ok "$name: the zstd-compressed copy passes too"
	else
		not_ok "$name: the zstd-compressed copy"
		tail -n 20 "$W/zstd.err" | sed 's/^/#  | /'
	fi

	# A damaged table whose checksum is made to match: refused with a message, never a hang.
	if python3 "$here/patch-image.py" "$E/kernel.img" "$W/bad.img" --flip shuffle:5 --crc &&
		"$here/qemu-boot.sh" -a "$arch" -H -e 'kslide: error: .*shuffle table' \
			"$W/bad.img" >/dev/null 2>"$W/bad.err"; then
		ok "$name: a bad shuffle table is refused with a message, the machine reset"
	else
		not_ok "$name: a bad shuffle table is not refused as it should be"
		tail -n 20 "$W/bad.err" | sed 's/^/#  | /'
	fi

	[ -n "$checker" ] || return
	# op0's position among the ops as a "base" over 16 page slots, for the checker.
	for i in $(seq 1 "$count"); do
		p=$(sed -n 's/^shuffle-example: op0 position \([0-9]*\).*/\1/p' "$W/boot.$i")
		printf 'kslide: base=0x%x phys=0x%x slots=16 align=0x1000 entropy=rdrand credited=64\n' \
			$((p * 4096)) $((p * 4096))
	done >"$W/positions"
	if verdict=$("$checker" --slots 16 --lo 0 --align 0x1000 <"$W/positions" 2>&1); then
		ok "$name: op0's position uniform over 16 places: $verdict"
	else
		not_ok "$name: op0's position not uniform: $verdict"
	fi
}

order() { sed -n 's/^shuffle-example: order //p' "$1" | tr -d '\r'; }
judge shuffle-i386 i386
judge shuffle-x86_64 x86_64
# From UEFI: OVMF starts the PE, whose x86-64 stub shuffles, then leaves long mode for the kernel.
judge shuffle-x86_64 x86_64 efi "$EFI_BOOTS" "-E -M q35 -m 256M -t 300"
echo "shuffle: $((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
