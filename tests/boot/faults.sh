#!/bin/sh
# Fault injection at boot (docs/reliability.md): damaged images, machines without room for the
# kernel, modules covering RAM, absurd command lines. Builds the damaged inputs, runs
# fault-cases.sh through matrix.sh (-z: the cases that boot a reference image again on its
# compressed copies), then the one fault the boot loader itself catches, and starts by UEFI
# firmware (uefi.sh): the reference kernels as BOOTX64.EFI, and damaged images refused, handed
# back to the firmware before ExitBootServices; under Secure Boot (secure-boot.sh), images
# unsigned, signed with another key or altered refused by the firmware itself.
# usage: faults.sh BUILD_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
B=$1
img=$B/i386/kernel.img
FAULTS=$(mktemp -d "${TMPDIR:-/tmp}/kslide-faults.XXXXXX") || exit 1
trap 'rm -rf "$FAULTS"' EXIT
export FAULTS
patch() { python3 "$here/patch-image.py" "$@" || exit 1; }

size=$(wc -c <"$img")
load_addr=$(od -An -tu4 -j16 -N4 "$img" | tr -d ' ')
patch "$img" "$FAULTS/table-flipped.img" --flip relocs:2
patch "$img" "$FAULTS/table-bad-kind.img" --flip relocs:0 --crc
patch "$img" "$FAULTS/table-bad-count.img" --flip relocs:1 --crc
# A payload cut to its first page: the table's fields now lie past the kernel's end.
patch "$img" "$FAULTS/table-past-end.img" --set payload_file_size=0x1000 \
	--set payload_stored_size=0x1000 --set payload_mem_size=0x1000 --sums --crc
patch "$img" "$FAULTS/header-file-size.img" --add image_file_size=4096 --crc
patch "$img" "$FAULTS/header-payload-size.img" --add payload_file_size=0x100000 \
	--add payload_stored_size=0x100000 --crc
# Compressed images (docs/reliability.md): a flipped stored byte of the payload fails its sums
# before anything is decoded, one of the table the CRC. With the sums and the CRC redone, a
# frame cut short must still be refused by the decoder: the payload's after its first blocks
# were decoded (and relocated), the table's before the payload is touched.
for c in zstd lz4; do
	patch "$B/i386/kernel-$c.img" "$FAULTS/$c-flipped.img" --flip payload:2000
	patch "$B/i386/kernel-$c.img" "$FAULTS/$c-table-flipped.img" --flip relocs:2
	patch "$B/i386/kernel-$c.img" "$FAULTS/$c-cut.img" --add payload_stored_size=-8 --sums --crc
	patch "$B/i386/kernel-$c.img" "$FAULTS/$c-table-cut.img" --add relocs_stored_size=-2 --crc
done
patch "$img" "$FAULTS/header-relocs-size.img" --add relocs_size=64 --add relocs_stored_size=64 \
	--crc
patch "$img" "$FAULTS/loaded-short.img" --mb load_end_addr=$((load_addr + size - 4096))
# The stub's own code, rodata and data: its entry checks them before anything else runs.
patch "$img" "$FAULTS/stub-code.img" --flip stub:200
patch "$img" "$FAULTS/stub-data.img" --flip stub:-100
patch "$B/x86_64/kernel.img" "$FAULTS/x86_64-stub-code.img" --flip stub:0x827
# Jumped to by something that is no Multiboot loader: EAX holds another magic.
patch "$img" "$FAULTS/wrong-magic.img" --enter-with-magic 0x12345678
patch "$B/x86_64/kernel.img" "$FAULTS/x86_64-wrong-magic.img" --enter-with-magic 0
patch "$img" "$FAULTS/header-version.img" --set version=1 --crc
patch "$img" "$FAULTS/header-handoff.img" --set handoff=99 --crc
patch "$img" "$FAULTS/header-data-size.img" --add handoff_data_size=64 --crc
# The kernel claims 200 MiB past its base: no slot of a 128 MiB machine holds that.
patch "$img" "$FAULTS/header-memory-size.img" --set memory_size=0xc800000 --crc
# Bases from 32 MiB make every slide non-zero, so a field near 2^32 must overflow.
"$B/bin/kslide-pack" --min 32M -o "$FAULTS/min-32m.img" "$B/i386/kernel.elf" || exit 1
patch "$FAULTS/min-32m.img" "$FAULTS/table-overflow.img" --last-field 0xffffff00 --sums --crc
"$B/bin/kslide-pack" --min 768M -o "$FAULTS/min-768m.img" "$B/i386/kernel.elf" || exit 1
patch "$B/x86_64/kernel.img" "$FAULTS/x86_64-table-bad-kind.img" --flip relocs:0 --crc
patch "$B/x86_64/kernel.img" "$FAULTS/x86_64-header-file-size.img" --add image_file_size=4096 \
	--crc
# 33 small modules, as QEMU's -initrd takes them: one more than the stub's table.
head -c 4096 /dev/urandom >"$FAULTS/tiny.bin"
for i in $(seq 33); do printf '%s' "$FAULTS/tiny.bin,"; done | sed 's/,$//' >"$FAULTS/mods33-list"
head -c 62M /dev/urandom >"$FAULTS/module-62m.bin"
head -c 60M /dev/urandom >"$FAULTS/module-60m.bin"
echo "0x$(gzip -c "$FAULTS/module-60m.bin" | tail -c 8 | od -An -tx4 -N4 | tr -d ' ')" \
	>"$FAULTS/module-60m.crc"

"$here/matrix.sh" -z "$B" "$here/fault-cases.sh"
status=$?

# A file shorter than its Multiboot header says: the loader refuses it, the stub never runs.
head -c $((size - 100)) "$img" >"$FAULTS/truncated.img"
timeout 10 qemu-system-i386 -nodefaults -accel tcg -M pc -m 128M -kernel "$FAULTS/truncated.img" \
	-display none -monitor none -no-reboot -serial "file:$FAULTS/truncated.log" \
	</dev/null 2>"$FAULTS/truncated.err"
qemu_status=$?
if [ "$qemu_status" -ne 0 ] && [ "$qemu_status" -ne 124 ] && [ ! -s "$FAULTS/truncated.log" ]; then
	echo "ok - truncated file: QEMU refuses to load it: $(head -n 1 "$FAULTS/truncated.err")"
else
	echo "not ok - truncated file: QEMU exit $qemu_status, serial:"
	sed 's/^/#  /' "$FAULTS/truncated.log"
	status=1
fi

# Started by UEFI firmware: the reference kernels pass; a damaged image is refused, with an
# error handed back to the firmware while its boot services run (uefi.sh).
"$here/uefi.sh" "$B" || status=1
exit $status
