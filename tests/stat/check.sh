#!/bin/sh
# make check stage for kslide-stat: a small run against the reference image, judged by an
# independent brute-force recomputation (tests/stat/brute.py), plus the cases where the tool
# must sound the alarm, with exit status 3: the seed patch's skewed bases, a deterministic
# -icount boot, and the same lines edited to hold one finding each.
# usage: check.sh BUILD_DIR
set -u
B=$1
stat=$B/bin/kslide-stat image=$B/i386/kernel.img
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kslide-stat-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ok - $1"; }
not_ok() { failed=$((failed + 1)); echo "not ok - $1"; }
judge() { # judge NAME COMMAND...: the command's status decides
	name=$1
	shift
	if "$@"; then ok "$name"; else not_ok "$name"; fi
}

# 40 boots, 2 at a time, with 256 random bytes from each.
if "$stat" -n 40 -j 2 --json --bases-out "$tmp/bases.txt" --random 256 \
	--random-out "$tmp/random.bin" --plot "$tmp/plot.svg" "$image" >"$tmp/stat.json"; then
	ok "40 boots of $image"
else
	not_ok "40 boots of $image"
fi
"$here/brute.py" "$tmp/stat.json" "$tmp/bases.txt" "$image" | sed 's/^/  /'
judge "figures agree with the brute-force computation" \
	"$here/brute.py" "$tmp/stat.json" "$tmp/bases.txt" "$image" >/dev/null
judge "the same figures from the saved lines (--from)" \
	sh -c "'$stat' --json --from '$tmp/bases.txt' '$image' | grep -v '\"source\"' >'$tmp/a' &&
		grep -v '\"source\"' '$tmp/stat.json' | cmp -s - '$tmp/a'"
# A PVH image (kslide-pack --format pvh): the packed image lies one page into the file, after
# the ELF headers, and the recount must find it there and agree with the stub.
judge "8 boots of the PVH image: the recount finds the image behind its ELF headers, agrees" \
	sh -c "'$stat' -n 8 -j 2 '$B/x86_64/kernel-pvh.img' |
		grep -Eq 'slots \(recount, see below\) +[0-9]+ \(agrees\) +[0-9]+ \(agrees\)'"
judge "40 x 256 random bytes written" test "$(wc -c <"$tmp/random.bin")" -eq 10240
judge "the plot is an SVG" grep -q '<svg' "$tmp/plot.svg"
# Outputs are whole or not there: a write that fails (no file may grow: ulimit -f 0) leaves
# the old --bases-out and --plot files as they were, and no temporary file beside them.
# kslide-stat's stderr goes through a pipe, since a file would not grow either.
no_growth() { # no_growth ARGS...: kslide-stat ARGS where no file may grow; stderr, "status N"
	(trap '' XFSZ; ulimit -f 0; "$stat" "$@" 2>&1 >/dev/null; echo "status $?") | cat
}
echo old >"$tmp/old.txt"
echo old >"$tmp/old.png"
no_growth --from "$tmp/bases.txt" --bases-out "$tmp/old.txt" "$image" >"$tmp/full.err"
judge "--bases-out that cannot be written: exit 1, the old file kept, nothing left beside it" \
	sh -c "grep -qx 'status 1' '$tmp/full.err' && test \"\$(cat '$tmp/old.txt')\" = old &&
		test -z \"\$(ls -d '$tmp/old.txt'.tmp* 2>/dev/null)\" &&
		grep -q 'old.txt: cannot write: File too large' '$tmp/full.err'"
no_growth --from "$tmp/bases.txt" --plot "$tmp/old.png" "$image" >"$tmp/full.err"
judge "--plot that cannot be written: exit 1, the old picture kept, nothing left beside it" \
	sh -c "grep -qx 'status 1' '$tmp/full.err' && test \"\$(cat '$tmp/old.png')\" = old &&
		test -z \"\$(ls -d '$tmp/old.png'.tmp* 2>/dev/null)\" &&
		grep -q 'old.png: ' '$tmp/full.err'"

# The seed patch's algorithm (tools/stat/seed.c), 500 draws from awk's generator: kslide-stat
# must call it not uniform and measure a min-entropy near the exact 2.09 bits.
awk 'BEGIN { srand(7)
	for (i = 0; i < 500; i++) {
		b = 1048576 + int(rand() * 67108864); b += (2097152 - b % 2097152) % 2097152
		if (b < 16777216) b = 16777216
		printf "kslide: base=0x%x phys=0x%x slots=440 align=0x200000 entropy=rdrand credited=8\n", b + 3221225472, b
	} }' >"$tmp/seed.txt"
"$stat" --from "$tmp/seed.txt" --plot "$tmp/seed.svg" "$image" >"$tmp/seed.out" 2>"$tmp/seed.err"
judge "the seed patch's bases are NOT UNIFORM, exit status 3" \
	sh -c "test $? = 3 && grep -q 'verdict  *NOT UNIFORM' '$tmp/seed.out' &&
		grep -q 'physical bases: NOT UNIFORM' '$tmp/seed.err'"
judge "and their histogram is drawn all the same" grep -q '<svg' "$tmp/seed.svg"
judge "and their min-entropy is near 2.09 bits" awk '/min-entropy \(plug-in\)/ {
	exit !($4 > 1.7 && $4 < 2.5) }' "$tmp/seed.out"

# -icount with a frozen clock makes every boot the same: the stub credits 0 and says
# PREDICTABLE, kslide-stat flags it and sees a single base.
"$stat" -n 3 -j 2 --cpu qemu32 --qemu-arg=-icount --qemu-arg=shift=0,sleep=off \
	--qemu-arg=-rtc --qemu-arg=base=2020-01-01T00:00:00,clock=vm "$image" >"$tmp/icount.out" \
	2>/dev/null
judge "-icount boots are flagged PREDICTABLE, exit status 3" \
	sh -c "test $? = 3 && grep -q '^  PREDICTABLE: 3 of 3 boots' '$tmp/icount.out'"
judge "and all give one base" grep -q '^  distinct values  *1 ' "$tmp/icount.out"

# The exit status follows the verdict (3) for each finding alone, on the 40 boots' lines.
finding() { # finding NAME MESSAGE SED-EXPRESSION: the edited lines must give 3 and MESSAGE
	sed "$3" "$tmp/bases.txt" >"$tmp/edited"
	"$stat" --from "$tmp/edited" "$image" >/dev/null 2>"$tmp/err"
	judge "$1: exit status 3" sh -c "test $? = 3 && grep -q '$2' '$tmp/err'"
}
finding "a stub claiming one slot fewer than the recount" 'the stub counted 439 physical slots' \
	's/ slots=440 / slots=439 /'
# The same with one boot in the last of the 440 slots, which the claim of 439 leaves out: the
# count is still the finding (bases are measured over the recount).
finding "one slot fewer claimed, a base in the slot left out" 'the stub counted 439 physical slots' \
	'0,/^kslide: base=/s/base=0x[0-9a-f]* phys=0x[0-9a-f]* /base=0xf7e00000 phys=0x37e00000 /;s/ slots=440 / slots=439 /'
finding "a base outside the slots" 'is not one of the 440 slots' \
	'0,/^kslide: base=/s/ phys=0x[0-9a-f]* / phys=0x1100000 /'
finding "boots crediting fewer bits than log2(slots)" 'credited fewer bits than the layout' \
	's/ credited=[0-9]*/ credited=8/'

# Linux under kslide-stat, without booting it: tests/stat/fake-qemu.sh stands in for QEMU
# (--arch fake) and plays serial logs as the stub and Linux's init (tests/linux/init.c) write
# them. Debian's 686 kernel (make linux-kernels) and its packed image: 61,429 slots at 8 KiB.
L=$B/linux
mkdir -p "$tmp/bin" "$tmp/fake"
ln -s "$here/fake-qemu.sh" "$tmp/bin/qemu-system-fake"
USABLE=0x0-0x9fc00,0x100000-0x3ffe0000 INITRD=0x3ffdd000-0x3ffdfac4
MAP="kslide-linux: usable=$USABLE"
# The slots a stub line on that map must claim, counted by brute force from the image (it
# depends on the kernel the archive gave: 61,429 for linux-image-6.1.0-57-686): the packed
# image at 1 MiB and the initrd avoided.
IMAGE_AT_1M=$(printf '0x100000-0x%x' $((0x100000 + $(wc -c <"$L/686.img"))))
LINUX_SLOTS=$("$here/brute.py" --slots "$L/686.img" "$USABLE" "$IMAGE_AT_1M,$INITRD") || exit 1
fake_boots() { # fake_boots: serial.K from "PHYS TEXT STATUS [report|noreport]" lines on stdin
	rm -f "$tmp/fake/"*
	k=0
	while read -r phys text status report; do
		k=$((k + 1))
		{
			[ "$text" = - ] || printf 'kslide: base=0x%x phys=0x%x slots=%d align=0x2000 entropy=rdrand credited=76\n' \
				$((0xc0000000 + phys)) "$phys" "$LINUX_SLOTS"
			[ "$report" = noreport ] || printf 'kslide-linux: _text=0x%x kernel_code=0x%08x-0x%08x\n' \
				$((${text#-} + 0)) "$phys" $((phys + 0xa4ffff))
			echo "$MAP"
			echo "kslide-linux: initrd=$INITRD"
		} >"$tmp/fake/serial.$k"
		echo "$status" >"$tmp/fake/status.$k"
	done
}
fake_stat() { # fake_stat ARGS...: kslide-stat with the fake QEMU, one boot at a time
	PATH="$tmp/bin:$PATH" FAKE_QEMU_DIR="$tmp/fake" "$stat" --arch fake -j 1 "$@"
}
printf '%s\n' "0x5a3c000 0xc5a3c000 0" "0x12000000 0xd2000000 0" "0x1e0f6000 0xde0f6000 0" | fake_boots
fake_stat -n 3 --initrd /dev/null "$L/686.img" >"$tmp/linux.out" 2>"$tmp/err"
judge "a Linux image whose init agrees with the stub: exit status 0, the slots recounted" \
	sh -c "test $? = 0 && grep -q '^  slots (recount, see below)  *$LINUX_SLOTS (agrees)' '$tmp/linux.out'"
printf '%s\n' "0x5a3c000 0xc5a3c000 0" "0x12000000 0xd2002000 0" | fake_boots
fake_stat -n 2 --initrd /dev/null "$L/686.img" >/dev/null 2>"$tmp/err"
judge "init's _text is not the stub's base: the boot fails, exit status 1" \
	sh -c "test $? = 1 && grep -q 'Linux runs at _text=0xd2002000' '$tmp/err'"
printf '%s\n' "0x5a3c000 0xc5a3c000 0" "0x12000000 0xd2000000 0 noreport" | fake_boots
mkdir "$tmp/failed"
fake_stat -n 2 --initrd /dev/null --failed-logs "$tmp/failed" "$L/686.img" >/dev/null \
	2>"$tmp/err"
judge "Linux does not reach init: the boot fails, exit status 1, QEMU's status said" \
	sh -c "test $? = 1 && grep -q 'boot 2: .*Linux did not reach init (QEMU exit status 0)' '$tmp/err'"
# --failed-logs: the failed boot's serial log as it was, and only that boot's.
judge "--failed-logs keeps the failed boot's log, byte for byte, and no other" \
	sh -c "test \"\$(ls '$tmp/failed')\" = boot-2.log && cmp -s '$tmp/fake/serial.2' '$tmp/failed/boot-2.log' &&
		grep -q 'logs: $tmp/failed/boot-N.log' '$tmp/err'"
# A map that changes between boots ends the run: the message names the first range that
# differs, and --bases-out keeps the lines up to and with the one that showed it.
printf '%s\n' "0x5a3c000 0xc5a3c000 0" "0x12000000 0xd2000000 0" "0x1e0f6000 0xde0f6000 0" | fake_boots
sed -i 's/,0x100000-0x3ffe0000$/,0x100000-0x3e000000,0x3e100000-0x3ffe0000/' "$tmp/fake/serial.2"
fake_stat -n 3 --initrd /dev/null --bases-out "$tmp/changed.lines" "$L/686.img" >/dev/null \
	2>"$tmp/err"
judge "a usable map that changed: exit status 1, the range named, the lines kept" \
	sh -c "test $? = 1 && grep -q 'range 2 was 0x100000-0x3ffe0000, after base line 2 it is 0x100000-0x3e000000' '$tmp/err' &&
		test \"\$(grep -c '^kslide-linux: usable=' '$tmp/changed.lines')\" = 2"
# Linux's own KASLR (--linux): no stub line; the 686 kernel's 28 slots, 48 to 480 MiB.
printf '%s\n' "0x3000000 -0xc3000000 0" "0x5000000 -0xc5000000 0" "0x1e000000 -0xde000000 0" |
	fake_boots
fake_stat -n 3 --linux --initrd /dev/null "$L/686/vmlinuz" >"$tmp/own.out" 2>"$tmp/err"
judge "--linux: the bzImage's own bases over Linux's 28 slots, exit status 0" \
	sh -c "test $? = 0 && grep -q '^  slots (Linux.s KASLR, see below)  *28 ' '$tmp/own.out' &&
		grep -q '^  distinct values  *3 ' '$tmp/own.out'"
printf '%s\n' "0x3000000 -0xc3000000 0" "0x2000000 -0xc2000000 0" | fake_boots
fake_stat -n 2 --linux --initrd /dev/null "$L/686/vmlinuz" >/dev/null 2>"$tmp/err"
judge "--linux: a base in the decompressor's run space is outside the model, exit status 3" \
	sh -c "test $? = 3 && grep -q 'physical base 0x2000000 is not one of the 28 slots' '$tmp/err'"
# The model against Linux itself: the bases 200 real boots of each Debian kernel chose
# (tests/stat/linux/, recorded by make linux-side-by-side) must all be among its slots, and
# the 686 kernel's must fill all 28. Only for the kernel package they were recorded with.
for flavour in 686 cloud-amd64; do
	lines=$here/linux/$flavour-own.lines
	if [ "$(head -n 1 "$lines" | sed 's/^# \([^:]*\):.*/\1/')" != "$(cat "$L/$flavour/package")" ]; then
		ok "# skip: $lines was recorded with another kernel than $L/$flavour/package's"
		continue
	fi
	"$stat" --linux --from "$lines" "$L/$flavour/vmlinuz" >"$tmp/own.out" 2>"$tmp/err"
	judge "--linux: 200 bases $flavour chose itself are all in the model, exit status 0" \
		test $? = 0
	[ $flavour = 686 ] && judge "--linux: and they fill the 686 kernel's 28 slots" \
		grep -q '^  distinct values  *28  *28$' "$tmp/own.out"
done
"$stat" --linux "$L/686/vmlinuz" >/dev/null 2>"$tmp/err"
judge "--linux without --initrd is a usage error, exit status 2" test $? = 2 -a -s "$tmp/err"

# Linux's EFI-stub KASLR (--uefi --linux), without booting it: the same fake QEMU plays init's
# report with the EFI memory map Linux logs under efi=debug (tests/linux/init.c forwards it),
# the start of what OVMF and systemd-boot gave cloud-amd64 at -m 1G. The model counts the
# kernel's own Loader Code (the one at the first boot's base) as free at the draw: 441
# physical slots from 0x1600000 to 0x38600000, and 484 virtual ones from 0xffffffff81000000 to
# 0xffffffffbd600000 (the kernel sized by _end, the end of its .brk section).
efi_map() { # efi_map: the map's lines, "TYPE FIRST LAST" per descriptor
	n=0
	while read -r type first last; do
		printf 'kslide-linux: efi: mem%02d: [%-12s|   |  |WB|WT|WC|UC] range=[0x%016x-0x%016x] (0MB)\n' \
			$n "$(echo "$type" | tr _ ' ')" $((first)) $((last))
		n=$((n + 1))
	done <<-MAP
	Conventional 0x0 0x9ffff
	Conventional 0x100000 0x805fff
	Boot_Data 0x900000 0x14fffff
	Conventional 0x1500000 0x30ffffff
	Loader_Code 0x31000000 0x343fffff
	Conventional 0x34400000 0x3bb74fff
	Boot_Data 0x3bb75000 0x3bb94fff
	Conventional 0x3bb95000 0x3c339fff
	Loader_Code 0x3c33a000 0x3d106fff
	MAP
}
efi_boots() { # efi_boots: serial.K from "PHYS TEXT [nomap]" lines on stdin, Linux's own boots
	rm -f "$tmp/fake/"*
	k=0
	while read -r phys text map; do
		k=$((k + 1))
		{
			printf 'kslide-linux: _text=%s kernel_code=0x%08x-0x%08x\n' "$text" $((phys)) \
				$((phys + 0xa4ffff))
			echo "$MAP"
			echo "kslide-linux: initrd=$INITRD"
			# Linux logs the map twice; the model takes the first listing, the stub's
			[ "$map" = nomap ] || { efi_map; efi_map | head -n 2; }
		} >"$tmp/fake/serial.$k"
	done
}
CLOUD=$L/cloud-amd64/vmlinuz
printf '%s\n' "0x31000000 0xffffffff9a400000" "0x1600000 0xffffffff81000000" \
	"0x38600000 0xffffffffbd600000" | efi_boots
fake_stat -n 3 --uefi --linux --initrd /dev/null "$CLOUD" >"$tmp/own.out" 2>"$tmp/err"
judge "--uefi --linux: EFI-stub bases over the model's 441 and 484 slots, exit status 0" \
	sh -c "test $? = 0 && grep -q '^  slots (Linux.s KASLR, see below)  *441  *484$' '$tmp/own.out' &&
		grep -q 'EFI-stub KASLR model' '$tmp/own.out'"
judge "--uefi --linux: efi=debug is on the command line Linux was given" \
	grep -q "append '.* efi=debug'" "$tmp/own.out"
printf '%s\n' "0x31000000 0xffffffff9a400000" "0x38800000 0xffffffff81000000" | efi_boots
fake_stat -n 2 --uefi --linux --initrd /dev/null "$CLOUD" >/dev/null 2>"$tmp/err"
judge "--uefi --linux: a physical base one step past the last slot is outside, exit status 3" \
	sh -c "test $? = 3 && grep -q 'physical base 0x38800000 is not one of the 441 slots' '$tmp/err'"
printf '%s\n' "0x31000000 0xffffffff9a400000" "0x1600000 0xffffffffbd800000" | efi_boots
fake_stat -n 2 --uefi --linux --initrd /dev/null "$CLOUD" >/dev/null 2>"$tmp/err"
judge "--uefi --linux: a virtual base one step past the last slot is outside, exit status 3" \
	sh -c "test $? = 3 && grep -q 'virtual base 0xffffffffbd800000 is not one of the 484 slots' '$tmp/err'"
# And for real: two boots of cloud-amd64 through its own EFI stub under OVMF, started by
# systemd-boot with the initramfs (about 6 s of CPU each): every base one of the model's slots.
"$stat" --uefi --linux -n 2 -j 2 -m 1G --timeout 300 --append "$(cat "$here/../linux/cmdline")" \
	--initrd "$L/x86_64/initramfs.cpio" "$CLOUD" >"$tmp/own.out" 2>"$tmp/err"
judge "--uefi --linux: 2 boots of cloud-amd64 by its EFI stub, bases among the model's slots" \
	sh -c "test $? = 0 && grep -q 'EFI-stub KASLR model' '$tmp/own.out' &&
		grep -q '^  samples  *2  *2$' '$tmp/own.out'"
printf '%s\n' "0x31000000 0xffffffff9a400000 nomap" "0x1600000 0xffffffff81000000 nomap" |
	efi_boots
fake_stat -n 2 --uefi --linux --initrd /dev/null "$CLOUD" >/dev/null 2>"$tmp/err"
judge "--uefi --linux without Linux's EFI memory map: no figures, exit status 1" \
	sh -c "test $? = 1 && grep -q 'without the EFI memory map' '$tmp/err'"

# The UEFI route (--uefi): the x86-64 reference kernel's PE as BOOTX64.EFI under OVMF, three
# boots (about 5 s of CPU each): bases measured, the stub's slots recounted from the map the
# kernel reports with the image where the firmware put it.
"$B/bin/kslide-pack" --format efi -o "$tmp/kernel.efi" "$B/x86_64/kernel.elf" || exit 1
"$stat" --uefi -n 3 -j 2 -m 256M --timeout 300 --bases-out "$tmp/uefi.lines" "$tmp/kernel.efi" \
	>"$tmp/uefi.out" 2>"$tmp/err"
judge "--uefi: 3 boots of the reference kernel's PE from an ESP under OVMF, exit status 0" \
	sh -c "test $? = 0 && grep -q 'UEFI: .*OVMF_CODE_4M.fd, from an ESP as BOOTX64.EFI' '$tmp/uefi.out' &&
		grep -q '^  samples  *3  *3$' '$tmp/uefi.out'"
judge "--uefi: the stub said the firmware started it, and the recount agrees" \
	sh -c "test \"\$(grep -c '^kslide: loader=.UEFI. map=EFI memory map .* image=0x' '$tmp/uefi.lines')\" = 3 &&
		grep -Eq 'slots \(recount, see below\) +[0-9]+ \(agrees\) +[0-9]+ \(agrees\)' '$tmp/uefi.out'"
"$stat" --uefi -n 2 "$B/x86_64/kernel.img" >/dev/null 2>"$tmp/err"
judge "--uefi: a flat image, which no firmware starts, is refused, exit status 1" \
	sh -c "test $? = 1 && grep -q 'kernel.img: not an x86-64 EFI application' '$tmp/err'"
"$stat" --uefi --linux --initrd /dev/null "$L/686/vmlinuz" >/dev/null 2>"$tmp/err"
judge "--uefi --linux: a bzImage without an x86-64 EFI stub is refused, exit status 1" \
	sh -c "test $? = 1 && grep -q 'vmlinuz: not an x86-64 EFI application' '$tmp/err'"
"$stat" --uefi --ovmf "$tmp/nowhere" -n 2 "$tmp/kernel.efi" >/dev/null 2>"$tmp/err"
judge "--uefi --ovmf DIR without the firmware: the file named, exit status 1" \
	sh -c "test $? = 1 && grep -q 'nowhere/OVMF_CODE_4M.fd: No such file' '$tmp/err'"
"$stat" --ovmf /usr/share/OVMF -n 2 "$tmp/kernel.efi" >/dev/null 2>"$tmp/err"
judge "--ovmf without --uefi is a usage error, exit status 2" test $? = 2 -a -s "$tmp/err"
"$stat" --uefi --arch i386 -n 2 "$tmp/kernel.efi" >/dev/null 2>"$tmp/err"
judge "--uefi --arch i386 is a usage error, exit status 2" test $? = 2 -a -s "$tmp/err"

# Errors name the file and exit 1.
"$stat" -n 2 "$B/i386/kernel.elf" 2>"$tmp/err"
judge "an ELF that is not a packed image is refused" \
	test $? = 1 -a "$(grep -c "kslide-stat: $B/i386/kernel.elf: no kslide image header" "$tmp/err")" = 1
printf 'kslide: base=0x1 phys=0x1 slots=440 align=0x200000 entropy=none credited=0\n' >"$tmp/one"
"$stat" --from "$tmp/one" "$image" 2>"$tmp/err" >/dev/null
judge "a single base line is refused" test $? = 1 -a -s "$tmp/err"

echo "stat-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
