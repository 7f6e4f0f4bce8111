# Fault injection boot cases (docs/reliability.md), in the format of i386-cases.sh. Sourced by
# matrix.sh from faults.sh, which sets $FAULTS: a directory of damaged images and modules.
# The stub's checks and policy are shared, so x86-64 repeats a few cases only.
# Each case halts with a kslide: error line (-H: QEMU must time out with the stub halted) or
# boots safely; a halted stub never jumps into the kernel.
img=$B/i386/kernel.img
F=$FAULTS
cat <<CASES
relocation table byte flipped: checksum	-H -e 'image rejected: checksum mismatch' $F/table-flipped.img
unknown relocation kind, valid checksum	-H -e 'relocation table rejected: invalid argument' $F/table-bad-kind.img
relocation count cut, valid checksum	-H -e 'relocation table rejected: malformed data' $F/table-bad-count.img
relocation past the kernel, valid checksum	-H -e 'relocation table rejected: out of bounds' $F/table-past-end.img
last relocation overflows, valid checksum	-H -e 'relocation table rejected: arithmetic overflow' $F/table-overflow.img
header: file size beyond what was loaded	-H -e 'image is larger than what the boot loader loaded' $F/header-file-size.img
zstd payload byte flipped is refused	-H -e 'image rejected: checksum mismatch' $F/zstd-flipped.img
lz4 payload byte flipped is refused	-H -e 'image rejected: checksum mismatch' $F/lz4-flipped.img
zstd table byte flipped is refused	-H -e 'image rejected: checksum mismatch' $F/zstd-table-flipped.img
lz4 table byte flipped is refused	-H -e 'image rejected: checksum mismatch' $F/lz4-table-flipped.img
zstd frame cut, sums redone: the decoder refuses	-H -e 'cannot decompress the kernel: zstd: truncated block' $F/zstd-cut.img
lz4 frame cut, sums redone: the decoder refuses after its first block	-H -e 'cannot decompress the kernel: LZ4 frame: truncated block' $F/lz4-cut.img
zstd table frame cut, CRC redone: refused	-H -e 'cannot decompress the relocation table: zstd: truncated' $F/zstd-table-cut.img
lz4 table frame cut, CRC redone: refused	-H -e 'cannot decompress the relocation table: LZ4' $F/lz4-table-cut.img
header: payload beyond the file	-H -e 'payload lies outside the image' $F/header-payload-size.img
header: table beyond the file	-H -e 'relocation table lies outside the image' $F/header-relocs-size.img
stub code byte flipped: the stub refuses itself	-H -e 'the stub is corrupt' $F/stub-code.img
stub data byte flipped (its last page): refused	-H -e 'the stub is corrupt' $F/stub-data.img
entered with another magic than Multiboot's: refused	-H -e 'boot loader: not started by a Multiboot loader' $F/wrong-magic.img
header: another format version, named	-H -e 'image format version 1, this stub reads version [0-9]+' $F/header-version.img
header: a handoff the stub does not know	-H -e 'names a handoff this stub does not know' $F/header-handoff.img
header: handoff data beyond the file	-H -e 'handoff data lies outside the image' $F/header-data-size.img
header: memory size sizes the slots	-H -m 128M -e 'no safe place for the kernel' $F/header-memory-size.img
loader loads 4 KiB less than the image	-H -e 'image is larger than what the boot loader loaded' $F/loaded-short.img
-m 16M: no room at all	-H -m 16M -e 'no safe place for the kernel: .* it is beyond RAM' $img
-m 18M: one slot, the link address	-m 18M -e 'slots=1 ' -e phys=0x1000000 $img
no slot in the bounds: link address, with a warning	-m 128M -e 'warning: no slot fits' -e 'slots=0 ' -e phys=0x1000000 $F/min-768m.img
module over most of RAM and the link address	-H -m 64M -I $F/module-62m.bin -e 'no safe place for the kernel: its link address 0x1000000 is not free usable memory: module 0 \[0x[0-9a-f]+, 0x[0-9a-f]+\) lies there' $img
module leaving one slot: kernel there, module intact	-m 64M -I '$F/module-60m.bin crc32=$(cat "$F/module-60m.crc")' -e 'slots=1 ' -e 'module 0 at .* intact' $img
command line of 4096 bytes: refused	-H -A '$(printf '%4096s' | tr ' ' x)' -e 'boot information unusable' $img
command line of 4000 bytes: boots	-A '$(printf '%4000s' | tr ' ' x) nokaslr' -e 'nokaslr: kernel stays' $img
kslide.entropy= of 64 characters: said, every source used	-c max -A 'kslide.entropy=$(printf '%64s' | tr ' ' x)' -e 'kslide.entropy= ignored: its value is longer than 63 characters' -e 'entropy=rdrand,rdtsc,pit,rtc ' $img
kslide.random= of 12 characters: said	-A 'kslide.random=000000000016' -e 'kslide.random= ignored: its value is longer than 11 characters' $img
33 modules: the limit named	-H -I '$(cat "$F/mods33-list")' -e 'boot information unusable: 33 modules; at most 32 are supported' $img
junk in kslide.entropy: only the named sources, the junk named, nokaslr=1 is no flag	-A 'kslide.entropy=,,bogus,,pit, kaslr=0 nokaslr=1' -e 'kslide.entropy= names "bogus", no source this stub knows \\([a-z, ]*rdtsc, [a-z, ]*or none\\); ignored' -e 'entropy=pit credited=' -N nokaslr: -N 'not an option of the stub' $img
a kslide. word the stub does not know: named	-A 'kslide.entopy=pit kslide.entropy=none' -e 'warning: "kslide.entopy=pit" ignored: not an option of the stub \\(nokaslr, kaslr, kslide.trial, kslide.entropy=, kslide.random=, kslide.phys=, kslide.virt=\\)' -N 'names "none"' -e entropy=none $img
kslide.trial from a Multiboot loader: named as ignored, the kernel boots	-A kslide.trial -e 'warning: "kslide.trial" ignored: only a stub started by UEFI firmware can return' -N 'not an option of the stub' $img
nokaslr, a module at the link address: the module named	-H -m 64M -I $F/module-62m.bin -A nokaslr -e 'nokaslr: kernel stays' -e 'no safe place for the kernel: its link address 0x1000000 is not free usable memory: module 0 \\[0x[0-9a-f]+, 0x[0-9a-f]+\\) lies there' $img
kslide.entropy naming nothing: boots, predictable	-A kslide.entropy=bogus -e PREDICTABLE $img
x86-64: stub code byte flipped: refused	-a x86_64 -H -e 'the stub is corrupt' $F/x86_64-stub-code.img
x86-64: entered with another magic than Multiboot's: refused	-a x86_64 -H -e 'boot loader: not started by a Multiboot loader' $F/x86_64-wrong-magic.img
x86-64: unknown relocation kind, valid checksum	-a x86_64 -H -e 'relocation table rejected: invalid argument' $F/x86_64-table-bad-kind.img
x86-64: header file size beyond what was loaded	-a x86_64 -H -e 'image is larger than what the boot loader loaded' $F/x86_64-header-file-size.img
x86-64: -m 16M: no room at all	-a x86_64 -H -m 16M -e 'no safe place for the kernel' $B/x86_64/kernel.img
x86-64: module over most of RAM and the link address	-a x86_64 -H -m 64M -I $F/module-62m.bin -e 'no safe place for the kernel' $B/x86_64/kernel.img
CASES
