#!/bin/sh
# GRUB boot tests: the ISOs `make iso` builds (scripts/mkiso.sh), booted from CD-ROM through
# SeaBIOS and OVMF, so GRUB's multiboot2 loads the image and module2 a module with crc32=.
# Every boot must show GRUB's name and the map the stub should have chosen (e820-style under
# BIOS, the EFI map under UEFI), the module intact after the move, and the self-check passed;
# the bases of one configuration must not all be equal. A 64 MiB module, placed by GRUB
# wherever it likes, must survive with less RAM. Each configuration boots once more from the
# compressed copies of the images (zstd, lz4; mk/compress.mk). And GRUB places the image itself
# (the relocatable tag's min_addr raised above the link address): the stub must move its own
# addresses there first (boot/x86/self_relocate.h) and say where it ran (image=).
# usage: grub.sh BUILD_DIR [BOOTS]
set -u
here=$(cd "$(dirname "$0")" && pwd)
B=$1 boots=${2:-3}

work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-grub.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# The large module at -m 192M: under UEFI GRUB needs that much to load it at all (at 128M it
# says "out of memory" and boots without it, which the module check below catches).
head -c 64M /dev/urandom >"$work/big.bin"
for arch in i386 x86_64; do
	"$here/../../scripts/mkiso.sh" -o "$work/big-$arch.iso" "$B/$arch/kernel.img" \
		"$work/big.bin" || exit 1
	for codec in zstd lz4; do
		"$here/../../scripts/mkiso.sh" -o "$work/$arch-$codec.iso" \
			"$B/$arch/kernel-$codec.img" "$B/iso/module.bin" || exit 1
	done
done

# Page-aligned, as the tag asks, but no 2 MiB multiple; free under SeaBIOS and OVMF at 256M.
MOVED=0x2345000
for arch in i386 x86_64; do
	python3 "$here/patch-image.py" "$B/$arch/kernel.img" "$work/moved-$arch.img" \
		--mb2-min $MOVED || exit 1
	# and damaged: the self-check that fails there must still find its message and reset
	python3 "$here/patch-image.py" "$work/moved-$arch.img" "$work/moved-corrupt-$arch.img" \
		--flip stub:200 || exit 1
	for m in moved moved-corrupt; do
		"$here/../../scripts/mkiso.sh" -o "$work/$m-$arch.iso" "$work/$m-$arch.img" \
			"$B/iso/module.bin" || exit 1
	done
done

INTACT="-e 'module 0 at .* intact' -e ^kernel:.self-check.passed -e 'loader=.GRUB'"
# -t bounds a hang only. GRUB reads a 64 MiB module off the ISO through the BIOS's disk calls,
# which beside two CPU hogs and the check's other stage took over 60 s (a clean-clone check-busy).
BIOS="-D -c max -t 300 -e map=mmap -e '^# efi: none' $INTACT"
UEFI="-D -U -t 300 -e map=efi -e '^# efi: 64-bit firmware, system table at 0x[0-9a-f]+' $INTACT"
# name<TAB>qemu-boot.sh arguments, one boot per line; the name groups boots for the base check.
{
	for i in $(seq "$boots"); do
		printf 'i386 BIOS\t%s -m 256M %s\n' "$BIOS" "$B/i386/kernel.iso"
		printf 'x86-64 BIOS\t-a x86_64 %s -m 256M %s\n' "$BIOS" "$B/x86_64/kernel.iso"
		printf 'x86-64 UEFI\t%s -m 256M %s\n' "$UEFI" "$B/x86_64/kernel.iso"
	done
	for i in $(seq "$boots"); do
		printf 'i386 UEFI\t%s -m 256M %s\n' "$UEFI" "$B/i386/kernel.iso"
	done
	for codec in zstd lz4; do
		printf '%s: i386 BIOS\t%s -m 256M %s\n' $codec "$BIOS" "$work/i386-$codec.iso"
		printf '%s: x86-64 BIOS\t-a x86_64 %s -m 256M %s\n' $codec "$BIOS" \
			"$work/x86_64-$codec.iso"
		printf '%s: x86-64 UEFI\t%s -m 256M %s\n' $codec "$UEFI" "$work/x86_64-$codec.iso"
		printf '%s: i386 UEFI\t%s -m 256M %s\n' $codec "$UEFI" "$work/i386-$codec.iso"
	done
	for i in $(seq "$boots"); do
		printf 'i386 BIOS, loaded at %s\t%s -e image=%s -m 256M -l %s %s\n' $MOVED "$BIOS" \
			$MOVED "$work/moved-i386.log.$i" "$work/moved-i386.iso"
		printf 'x86-64 UEFI, loaded at %s\t%s -e image=%s -m 256M -l %s %s\n' $MOVED "$UEFI" \
			$MOVED "$work/moved-x86_64.log.$i" "$work/moved-x86_64.iso"
	done
	printf 'i386 BIOS, loaded at %s, stub damaged\t-D -c max -t 300 -H -e %s -m 256M %s\n' \
		$MOVED "'the stub is corrupt'" "$work/moved-corrupt-i386.iso"
	printf 'x86-64 UEFI, loaded at %s, stub damaged\t-D -U -t 300 -H -e %s -m 256M %s\n' \
		$MOVED "'the stub is corrupt'" "$work/moved-corrupt-x86_64.iso"
	printf 'i386 BIOS, 64 MiB module, 192M\t%s -m 192M %s\n' "$BIOS" "$work/big-i386.iso"
	printf 'x86-64 UEFI, 64 MiB module, 192M\t%s -m 192M %s\n' "$UEFI" "$work/big-x86_64.iso"
} >"$work/cases"

count=$(wc -l <"$work/cases")
"$here/parallel.sh" "$work"

failed=0
for n in $(seq 1 "$count"); do
	name=$(sed -n "${n}p" "$work/cases" | cut -f1)
	if [ "$(cat "$work/status.$n")" = 0 ]; then
		printf '%s\t%s\n' "$name" "$(sed -n 's/.* base=\([^ ]*\) phys=\([^ ]*\).*/\1 \2/p' "$work/out.$n")" \
			>>"$work/bases"
	else
		failed=$((failed + 1))
	fi
done

# With 3 boots and tens of slots (76 for i386 under UEFI at 256M), equal bases every time mean
# no randomization: by chance that is 1 in 76^2 for the fewest slots, where 2 boots failed 1 in
# 76. x86-64 compares the virtual base too.
cut -f1 "$work/cases" | sort -u >"$work/names"
while IFS= read -r name; do
	total=$(grep -c "^$name	" "$work/bases" 2>/dev/null)
	distinct=$(grep "^$name	" "$work/bases" 2>/dev/null | cut -f2 | sort -u | wc -l)
	if [ "${total:-0}" -ge 2 ] && [ "$distinct" -lt 2 ]; then
		echo "not ok - $name: $total boots, all at the same base"
		failed=$((failed + 1))
	else
		echo "ok - $name: $distinct distinct bases in ${total:-0} boots"
	fi
done <"$work/names"
# Where the image lay counts: the stub avoids it, so kslide-stat's recount of the slots, from
# the kernel's memory map and the stub's image=, must agree with the stub's own count (it
# differs by the slots the image covers when the image is taken to lie at its link address).
for arch in i386 x86_64; do
	cat "$work"/moved-$arch.log.* >"$work/moved-$arch.lines" 2>/dev/null
	# Three boots judge no uniformity: only the count is read (exit 3 is a verdict).
	"$B/bin/kslide-stat" --from "$work/moved-$arch.lines" "$work/moved-$arch.img" \
		>"$work/stat-$arch.out" 2>&1
	status=$?
	if [ $status -eq 0 ] || [ $status -eq 3 ] && grep -q 'slots (recount.*(agrees)' \
		"$work/stat-$arch.out" && ! grep -q 'DIFFERS' "$work/stat-$arch.out"; then
		echo "ok - $arch, loaded at $MOVED: kslide-stat's recount agrees with the stub's slots"
	else
		echo "not ok - $arch, loaded at $MOVED: kslide-stat's recount"
		sed 's/^/  /' "$work/stat-$arch.out"
		failed=$((failed + 1))
	fi
done
echo "grub: $count boots, $failed failures"
[ "$failed" -eq 0 ]
