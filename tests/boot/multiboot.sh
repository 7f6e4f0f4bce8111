#!/bin/sh
# The Multiboot pass-through, judged by the loaders themselves: the tutorial-style kernels of
# examples/multiboot1, examples/multiboot2 and examples/multiboot2-x86_64 (an ELF64 with a low
# 32-bit entry and a higher half of its own), which know nothing of kslide, boot once as they
# are (the loader loads kernel.elf) and once packed (kernel.img, the same objects relinked with
# --emit-relocs), under the same loader and machine. Both runs must report the same loader,
# memory map and framebuffer (the unpacked run is the oracle), intact modules, the command
# line without kslide's words; the packed kernel must run where the stub says it put it, at
# bases that differ across boots. The x86-64 kernel moves by one delta, physical and virtual:
# its page walk must find virtual = physical + its KERNEL_VMA. And the kslide-aware path: the i386 reference kernel packed
# with --handoff multiboot finds kslide's boot info (ECX under Multiboot 1, kslide's tag under
# Multiboot 2) and passes its self-check, from the plain image and from its compressed copies.
#   Multiboot 1: QEMU's own loader (-kernel), two CPU models and memory sizes.
#   Multiboot 2: GRUB (multiboot2 + module2) under SeaBIOS and OVMF, with a VGA card so GRUB
#   can set the framebuffer the kernel asks for.
#   x86-64: QEMU's loader (its Multiboot 1 header), three machines; GRUB BIOS and UEFI. And
#   its build whose boot tables map only 4 MiB, packed to stay inside (--max 4M), by QEMU.
#   And its build with a Multiboot 2 header only (kernel-mb2), which QEMU's loader cannot
#   load: its packed image can, the stub translating QEMU's Multiboot 1 information; the
#   same kernel unpacked under GRUB BIOS's multiboot2 is the oracle for the map, the ACPI
#   RSDP tag, the module and the command line. And the same kernel packed --format efi, which
#   the x86-64 stub runs, started by OVMF's shell three times: GRUB UEFI's tags for the
#   unpacked kernel are the oracle for its tags, the EFI system table and memory map among
#   them, which the kernel checks; and the same PE started by QEMU's -kernel, as a Multiboot
#   image, against the unpacked kernel on the same machine.
# usage: multiboot.sh BUILD_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
B=$1
E=$B/examples
REF=$B/i386/kernel-multiboot.img
for f in "$E/multiboot1/kernel.img" "$E/multiboot2/kernel.img" \
	"$E/multiboot2-x86_64/kernel.img" "$E/multiboot2-x86_64/kernel-4m.img" \
	"$E/multiboot2-x86_64/kernel-mb2.img" "$REF" \
	"${REF%.img}-zstd.img" "${REF%.img}-lz4.img"; do
	[ -f "$f" ] || { echo "multiboot: $f is missing: run make check" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-multiboot.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)) failed=$((failed + 1)); echo "not ok $n - $1"; }

crc32() { gzip -c "$1" | tail -c 8 | od -An -tx4 -N4 | tr -d ' '; }
head -c 1M /dev/urandom >"$work/module.bin"
MODULE_ARGS="crc32=0x$(crc32 "$work/module.bin")"
KERNEL_ARGS="hello=world"
STUB_ARGS="kslide.entropy=rdrand,rdtsc,pit,rtc"

# boot NAME ARGS...: qemu-boot.sh into $work/NAME.log, in the background; wait collects them.
boot() {
	name=$1
	shift
	"$here/qemu-boot.sh" -l "$work/$name.log" "$@" >/dev/null 2>"$work/$name.err" &
}

# What the kernel saw of its loader: everything it reports but where it runs and the command
# line, whose first word under QEMU is the file's own name.
# The loader describes the unpacked kernel's ELF sections; the pass-through drops the tag (it
# described the packed image), so only the example's own verdict on them counts.
# Where the x86-64 kernel runs is a page walk's answer, its own line. It lists the Multiboot 2
# tags it is given: the same, ELF sections (type 9) aside, so no tag of kslide's by default.
# SEEN_ONLY, when set, keeps only the lines it matches (an extended regex): what two
# different loaders both give.
seen() {
	grep -a '^mb[0-9]*-example: ' "$1" |
		grep -v -e ' here at ' -e ' cmdline ' -e ' ELF sections: ' -e ' page walk: ' \
			-e ' tag type 9$' | grep -aE "${SEEN_ONLY:-.}"
}
cmdline() { sed -n 's/^mb[0-9]*-example: cmdline "\(.*\)"$/\1/p' "$1" | sed "s|^$2 ||"; }

# judge NAME UNPACKED_LOG PACKED_LOG KERNEL_ELF [QEMU_NAME_PREFIX [SYMBOL [HIGH_DIGITS]]]:
# SYMBOL (here by default) is where "here at" says the kernel runs, linked physically at its
# nm address less the leading hex digits HIGH_DIGITS (a higher half's; dash's arithmetic stops
# at 2^63); every kernel's lowest link address is 2 MiB.
judge() {
	name=$1 plain=$2 packed=$3 elf=$4 prefix=${5:-} symbol=${6:-here} high=${7:-}
	for log in "$plain" "$packed"; do
		if ! grep -aq '^mb[0-9]*-example: done$' "$log"; then
			not_ok "$name: $(basename "$log" .log) did not finish"
			sed 's/^/#  | /' "$log" | tail -n 20
			return
		fi
	done
	if seen "$plain" >"$work/plain.seen" && seen "$packed" >"$work/packed.seen" &&
		cmp -s "$work/plain.seen" "$work/packed.seen"; then
		ok "$name: the packed kernel sees what its loader gives it unpacked ($(grep -c mmap "$work/plain.seen") map entries$(grep -q framebuffer "$work/plain.seen" && echo ', the framebuffer'), module intact)"
	else
		not_ok "$name: the packed kernel's view differs from the loader's"
		diff "$work/plain.seen" "$work/packed.seen" | sed 's/^/#  /'
	fi
	grep -aq 'module 0: .* intact$' "$packed" || not_ok "$name: module not intact"
	got=$(cmdline "$packed" "$prefix")
	if [ "$got" = "$KERNEL_ARGS" ] && [ "$(cmdline "$plain" "$prefix")" = "$KERNEL_ARGS" ]; then
		ok "$name: command line \"$got\", kslide's words removed"
	else
		not_ok "$name: command line \"$got\", expected \"$KERNEL_ARGS\""
	fi
	runs_where "$name" "$packed" "$elf" "$symbol" "$high"
}

# runs_where NAME PACKED_LOG KERNEL_ELF SYMBOL HIGH_DIGITS: the kernel runs where the stub
# said it put it (judge's arguments); the base is kept per name, up to its first comma.
runs_where() {
	name=$1 packed=$2 elf=$3 symbol=$4 high=$5
	phys=$(sed -n 's/^kslide: base=.* phys=\(0x[0-9a-f]*\).*/\1/p' "$packed")
	here_link=0x$(nm "$elf" | sed -n "s/^$high\([0-9a-f]*\) T $symbol\$/\1/p")
	ran=$(sed -n 's/.* here at \(0x[0-9a-f]*\);.*/\1/p' "$packed")
	if [ -n "$phys" ] && [ $((phys + here_link - 0x200000)) -eq $((ran)) ]; then
		ok "$name: runs where the stub put it (phys=$phys)"
		echo "$phys" >>"$work/bases.$(echo "$name" | cut -d, -f1 | tr ' ' _)"
	else
		not_ok "$name: runs at $ran, the stub said phys=$phys (here linked at $here_link)"
	fi
}

#### Multiboot 1 under QEMU's loader ####
mb1=$E/multiboot1
i=0
for machine in "-c qemu32 -m 128M" "-c max -m 1G" "-c max -m 1G"; do
	i=$((i + 1))
	# shellcheck disable=SC2086
	boot mb1-plain-$i $machine -A "$KERNEL_ARGS" -I "$work/module.bin $MODULE_ARGS" "$mb1/kernel.elf"
	# shellcheck disable=SC2086
	boot mb1-packed-$i $machine -A "$STUB_ARGS $KERNEL_ARGS" \
		-I "$work/module.bin $MODULE_ARGS" "$mb1/kernel.img"
done
wait
i=0
for machine in "-c qemu32 -m 128M" "-c max -m 1G" "-c max -m 1G"; do
	i=$((i + 1))
	judge "Multiboot 1, QEMU, $machine" "$work/mb1-plain-$i.log" "$work/mb1-packed-$i.log" \
		"$mb1/kernel.elf" "\\S*"
done

#### x86-64, higher half: QEMU's loader, then GRUB BIOS and UEFI ####
mb64=$E/multiboot2-x86_64
MB64_MACHINES="-c qemu64 -m 512M|-c max -m 1G|-c max -m 2G"
i=0
IFS='|'
for machine in $MB64_MACHINES; do
	IFS=' '
	i=$((i + 1))
	# shellcheck disable=SC2086
	boot mb64-plain-$i -a x86_64 $machine -A "$KERNEL_ARGS" -I "$work/module.bin $MODULE_ARGS" \
		"$mb64/kernel.elf"
	# shellcheck disable=SC2086
	boot mb64-packed-$i -a x86_64 $machine -A "$STUB_ARGS $KERNEL_ARGS" \
		-I "$work/module.bin $MODULE_ARGS" "$mb64/kernel.img"
	IFS='|'
done
IFS=' '
boot mb64-4m-plain -a x86_64 -c max -m 128M -A "$KERNEL_ARGS" \
	-I "$work/module.bin $MODULE_ARGS" "$mb64/kernel-4m.elf"
boot mb64-4m-packed -a x86_64 -c max -m 128M -A "$STUB_ARGS $KERNEL_ARGS" \
	-I "$work/module.bin $MODULE_ARGS" "$mb64/kernel-4m.img"
for k in elf img; do
	args=$KERNEL_ARGS
	[ $k = img ] && args="$STUB_ARGS $KERNEL_ARGS"
	"$here/../../scripts/mkiso.sh" -A "$args" -o "$work/mb64-$k.iso" "$mb64/kernel.$k" \
		"$work/module.bin" || exit 1
done
"$here/../../scripts/mkiso.sh" -A "$KERNEL_ARGS" -o "$work/mb64-mb2.iso" "$mb64/kernel-mb2.elf" \
	"$work/module.bin" || exit 1
wait
for k in elf img; do
	boot mb64-bios-$k -D -a x86_64 -c max -t 300 -m 256M "$work/mb64-$k.iso"
	boot mb64-uefi-$k -D -U -t 300 -m 256M "$work/mb64-$k.iso"
done
wait
boot mb64-mb2-grub -D -a x86_64 -c max -t 300 -m 256M "$work/mb64-mb2.iso"
for i in 1 2 3; do
	boot mb64-mb2-qemu-$i -a x86_64 -c max -m 256M -A "$STUB_ARGS $KERNEL_ARGS" \
		-I "$work/module.bin $MODULE_ARGS" "$mb64/kernel-mb2.img"
done
wait
# From UEFI: packed --format efi, the x86-64 stub runs it and leaves long mode for it; OVMF's
# shell starts it (startup.nsh, the module as initrd=), three times.
"$B/bin/kslide-pack" --format efi -o "$work/mb64.efi" "$mb64/kernel-relocs.elf" || exit 1
for i in 1 2 3; do
	boot mb64-efi-$i -E -M q35 -m 256M -t 300 -A "$STUB_ARGS $KERNEL_ARGS" \
		-I "$work/module.bin" "$work/mb64.efi"
done
# The same PE is a Multiboot image: QEMU's -kernel starts it, and the x86-64 stub passes the
# loader's Multiboot 1 information on, as the i386 stub does (the machine of mb64-plain-2).
boot mb64-efi-mb1 -a x86_64 -c max -m 1G -A "$STUB_ARGS $KERNEL_ARGS" \
	-I "$work/module.bin $MODULE_ARGS" "$work/mb64.efi"
wait
# mb64_judge NAME PLAIN PACKED [QEMU_NAME_PREFIX [KERNEL_ELF]]: judge, and the page walk of
# the packed run.
mb64_judge() {
	judge "$1" "$2" "$3" "${5:-$mb64/kernel.elf}" "${4:-}" kernel_main ffffffff8
	if grep -aq '^mb64-example: page walk: .* + KERNEL_VMA: yes$' "$3"; then
		ok "$1: virtual = physical + KERNEL_VMA at the new base (its page walk)"
	else
		not_ok "$1: the packed kernel's page walk did not find virtual = physical + KERNEL_VMA"
	fi
}
i=0
IFS='|'
for machine in $MB64_MACHINES; do
	IFS=' '
	i=$((i + 1))
	mb64_judge "x86-64 Multiboot 1, QEMU, $machine" "$work/mb64-plain-$i.log" \
		"$work/mb64-packed-$i.log" "\\S*"
	IFS='|'
done
IFS=' '
mb64_judge "x86-64 Multiboot 2, GRUB BIOS" "$work/mb64-bios-elf.log" "$work/mb64-bios-img.log"
mb64_judge "x86-64 Multiboot 2, GRUB UEFI" "$work/mb64-uefi-elf.log" "$work/mb64-uefi-img.log"
mb64_judge "x86-64, boot tables of 4 MiB, QEMU" "$work/mb64-4m-plain.log" \
	"$work/mb64-4m-packed.log" "\\S*" "$mb64/kernel-4m.elf"
# QEMU gives Multiboot 1 information, GRUB more tags than the translation (boot device, APM,
# ELF sections...): the map, the ACPI RSDP tags and the module must be GRUB's, the Multiboot 2
# magic is implied by the tag lines, the command line by judge.
for i in 1 2 3; do
	SEEN_ONLY=' mmap | tag type 1[45]$| module ' mb64_judge \
		"x86-64 Multiboot 2 only, packed under QEMU -kernel vs unpacked under GRUB BIOS, boot $i" \
		"$work/mb64-mb2-grub.log" "$work/mb64-mb2-qemu-$i.log" "" "$mb64/kernel-mb2.elf"
done
if grep -aq 'tag type 1[45]$' "$work/mb64-mb2-grub.log"; then
	ok "x86-64 Multiboot 2 only: GRUB gives an ACPI RSDP tag, and so does the translation"
else
	not_ok "x86-64 Multiboot 2 only: GRUB gave no ACPI RSDP tag to compare with"
fi
if [ "$(sort -u "$work"/bases.x86-64_Multiboot_2_only 2>/dev/null | wc -l)" -ge 2 ]; then
	ok "x86-64 Multiboot 2 only: distinct bases in 3 boots under QEMU -kernel"
else
	not_ok "x86-64 Multiboot 2 only: the packed kernel landed at one base every time"
fi
# From UEFI, against GRUB UEFI's multiboot2 on the unpacked kernel: the same tag types in the
# same order (ELF sections aside), the EFI system table and memory map tags as the kernel
# checks them (the signature where tag 12 points; tag 17's descriptors of plausible size, one
# holding the kernel); the module (no string: initrd= files have none) with its bytes; the
# shell's command line (the image's path first, the initrd= word last) without kslide's words.
for i in 1 2 3; do
	name="x86-64 from UEFI, packed --format efi, OVMF, boot $i" log=$work/mb64-efi-$i.log
	if ! grep -aq '^mb64-example: done$' "$log"; then
		not_ok "$name: did not finish"
		sed 's/^/#  | /' "$log" | grep -av '^#  | .\[' | tail -n 20
		continue
	fi
	SEEN_ONLY=' tag type | EFI ' seen "$work/mb64-uefi-elf.log" >"$work/grub.seen"
	SEEN_ONLY=' tag type | EFI ' seen "$log" >"$work/efi.seen"
	if grep -q 'EFI memory map' "$work/grub.seen" && cmp -s "$work/grub.seen" "$work/efi.seen"; then
		ok "$name: GRUB UEFI's tags, in its order: $(sed -n 's/.* tag type //p' "$work/efi.seen" | tr '\n' ' ')and the EFI tags check out"
	else
		not_ok "$name: tags or EFI checks differ from GRUB UEFI's (or GRUB gave no EFI tags)"
		diff "$work/grub.seen" "$work/efi.seen" | sed 's/^/#  /'
	fi
	want="fs0:\\kslide.efi $KERNEL_ARGS initrd=\\initrd.img"
	got=$(cmdline "$log" "")
	grep -aq "module 0: 1048576 bytes, crc32 0x$(crc32 "$work/module.bin") " "$log" &&
		[ "$got" = "$want" ] && ok "$name: module intact, command line \"$got\"" ||
		not_ok "$name: module damaged or missing, or command line \"$got\" (want \"$want\")"
	runs_where "$name" "$log" "$mb64/kernel.elf" kernel_main ffffffff8
	grep -aq '^mb64-example: page walk: .* + KERNEL_VMA: yes$' "$log" ||
		not_ok "$name: its page walk did not find virtual = physical + KERNEL_VMA"
done
mb64_judge "x86-64, the PE as a Multiboot image (the x86-64 stub), QEMU, -c max -m 1G" \
	"$work/mb64-plain-2.log" "$work/mb64-efi-mb1.log" "\\S*"
if [ "$(sort -u "$work"/bases.x86-64_from_UEFI 2>/dev/null | wc -l)" -ge 2 ]; then
	ok "x86-64 from UEFI: $(sort -u "$work/bases.x86-64_from_UEFI" | wc -l) distinct bases in 3 boots"
else
	not_ok "x86-64 from UEFI: the packed kernel landed at one base every time"
fi
if [ "$(sort -u "$work"/bases.x86-64_Multiboot_1 2>/dev/null | wc -l)" -ge 2 ]; then
	ok "x86-64 Multiboot 1: $(sort -u "$work/bases.x86-64_Multiboot_1" | wc -l) distinct bases in 3 boots"
else
	not_ok "x86-64 Multiboot 1: the packed kernel landed at one base every time"
fi

#### Multiboot 2 under GRUB, BIOS and UEFI ####
mb2=$E/multiboot2
for k in elf img; do
	args=$KERNEL_ARGS
	[ $k = img ] && args="$STUB_ARGS $KERNEL_ARGS"
	"$here/../../scripts/mkiso.sh" -G -A "$args" -o "$work/mb2-$k.iso" "$mb2/kernel.$k" \
		"$work/module.bin" || exit 1
done
for k in elf img; do
	boot mb2-bios-$k -D -V -c max -t 300 -m 256M "$work/mb2-$k.iso"
	boot mb2-uefi-$k -D -U -V -t 300 -m 256M "$work/mb2-$k.iso"
done
for c in "" -zstd -lz4; do
	"$here/../../scripts/mkiso.sh" -o "$work/ref$c.iso" "${REF%.img}$c.img" "$work/module.bin" ||
		exit 1
	boot ref-mb1$c -c max -m 1G -I "$work/module.bin $MODULE_ARGS" "${REF%.img}$c.img"
	boot ref-mb2$c -D -c max -t 300 -m 256M "$work/ref$c.iso"
done
wait
judge "Multiboot 2, GRUB BIOS" "$work/mb2-bios-elf.log" "$work/mb2-bios-img.log" "$mb2/kernel.elf"
judge "Multiboot 2, GRUB UEFI" "$work/mb2-uefi-elf.log" "$work/mb2-uefi-img.log" "$mb2/kernel.elf"
for k in bios-elf uefi-elf; do
	grep -aq '^mb2-example: ELF sections: [1-9][0-9]* loaded, all inside the kernel$' \
		"$work/mb2-$k.log" || not_ok "Multiboot 2, $k: GRUB gave no ELF sections to check"
done
for k in bios-img uefi-img; do
	grep -aq '^mb2-example: framebuffer 0x[0-9a-f]* 1024x768, 32 bits' "$work/mb2-$k.log" ||
		not_ok "Multiboot 2, $k: no 1024x768x32 framebuffer"
done

# kslide-aware: the reference kernel's own checks, its boot info found the documented way.
for c in "" -zstd -lz4; do
	for run in "ref-mb1:ECX, with EDX = KSLIDE_BOOT_MAGIC, under Multiboot 1" \
		"ref-mb2:kslide's tag in the Multiboot 2 information"; do
		log=$work/${run%%:*}$c.log how=${run#*:}
		if grep -aqF "kernel: boot info from $how" "$log" &&
			grep -aq '^kernel: self-check passed' "$log" &&
			grep -aq 'module 0 at .* intact' "$log"; then
			ok "reference kernel${c:+ (${c#-})}, --handoff multiboot: boot info from $how; self-check passed"
		else
			not_ok "reference kernel${c:+ (${c#-})}, --handoff multiboot (${run%%:*}): no boot info from $how, or its self-check failed"
			sed 's/^/#  | /' "$log" | grep -av '^#  | .\[' | tail -n 15
		fi
	done
done

# The three QEMU boots of the same kernel and machine class must not all land alike.
if [ "$(sort -u "$work"/bases.Multiboot_1 2>/dev/null | wc -l)" -ge 2 ]; then
	ok "Multiboot 1: $(sort -u "$work/bases.Multiboot_1" | wc -l) distinct bases in 3 boots"
else
	not_ok "Multiboot 1: the packed kernel landed at one base every time"
fi

echo "multiboot: $n checks, $failed failed"
[ "$failed" -eq 0 ]
