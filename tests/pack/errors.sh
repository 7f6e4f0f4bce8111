#!/bin/sh
# kslide-pack's error paths, one case per message: garbage, truncated and hostile ELF files and
# bad options must each give "kslide-pack: FILE: message" on stderr, exit 1, create no output
# file and leave an existing one byte for byte as it was. Plus the few successful paths.
# Hostile kernels are built here from tiny assembly snippets or patched from a tiny valid one.
# One TAP-style line per case, then "pack-errors: N passed, M failed".
# usage: errors.sh BUILD_DIR   (KSLIDE_PACK=path runs another build, e.g. one under ASan)
set -u
B=$1
PACK=${KSLIDE_PACK:-$B/bin/kslide-pack}
KERNEL=$B/i386/kernel.elf
for f in "$PACK" "$KERNEL"; do
	[ -e "$f" ] || { echo "pack-errors: $f is missing: run make first" >&2; exit 1; }
done
T=$(mktemp -d "${TMPDIR:-/tmp}/kslide-pack-errors.XXXXXX")
trap 'rm -rf "$T"' EXIT
n=0 passed=0 failed=0

ok() { n=$((n + 1)) passed=$((passed + 1)); echo "ok $n - $1"; }
not_ok() { # not_ok NAME WHY: WHY and the tool's stderr become TAP comments
	n=$((n + 1)) failed=$((failed + 1))
	echo "not ok $n - $1: $2"
	[ -s "$T/stderr" ] && sed 's/^/#  /' "$T/stderr"
	return 0
}

# expect_fail NAME MESSAGE ARGS...: kslide-pack ARGS (with -o OUT added) must exit 1 with
# MESSAGE on stderr, twice: without an output file (none must appear, no temporary file
# either) and with one already there (it must be untouched). A run that takes PACK_TIMEOUT
# seconds (the ASan build needs a few for the largest kernels) hangs, and fails the case.
PACK_TIMEOUT=60
expect_fail() {
	name=$1 msg=$2
	shift 2
	out=$T/out/$n.img
	mkdir -p "$T/out" && rm -f "$T/out/"*
	timeout "$PACK_TIMEOUT" "$PACK" -o "$out" "$@" >"$T/stdout" 2>"$T/stderr"
	rc=$?
	if [ $rc -ne 1 ]; then
		not_ok "$name" "exit status $rc, expected 1"
	elif ! grep -qF -- "$msg" "$T/stderr"; then
		not_ok "$name" "stderr lacks \"$msg\""
	elif ! grep -q '^\(.*/\)\{0,1\}kslide-pack: ' "$T/stderr"; then
		not_ok "$name" "message does not start with \"kslide-pack: \""
	elif [ -n "$(ls -A "$T/out")" ]; then
		not_ok "$name" "left files behind: $(ls -A "$T/out" | tr '\n' ' ')"
	else
		head -c 4096 /dev/urandom >"$T/before"
		cp "$T/before" "$out"
		timeout "$PACK_TIMEOUT" "$PACK" -o "$out" "$@" >/dev/null 2>"$T/stderr"
		rc=$?
		if [ $rc -ne 1 ]; then
			not_ok "$name" "with an existing output: exit status $rc, expected 1"
		elif ! cmp -s "$T/before" "$out"; then
			not_ok "$name" "the existing output file was changed"
		elif [ "$(ls -A "$T/out")" != "$(basename "$out")" ]; then
			not_ok "$name" "left files behind: $(ls -A "$T/out" | tr '\n' ' ')"
		else
			ok "$name: $(head -n 1 "$T/stderr")"
		fi
	fi
}

#### building tiny kernels ####
# The default snippet has R_386_32 relocations in .text and .data and an R_386_PC32 call.
ASM_GOOD='
	.text
	.globl _start
	.globl helper /* global: the call keeps its R_386_PC32 */
_start:	movl $value, %eax
	call helper
1:	hlt
	jmp 1b
helper:	ret
	.data
value:	.long _start
	.long helper
'
LDS_GOOD='
ENTRY(_start)
SECTIONS {
	. = 0x100000;
	.text : { *(.text) }
	.data : { *(.data) }
	.bss : { *(.bss) }
}
'

# Code and data in segments of their own (the good kernel's one segment is all executable).
LDS_SPLIT='
ENTRY(_start)
PHDRS { text PT_LOAD FLAGS(5); data PT_LOAD FLAGS(6); }
SECTIONS {
	. = 0x1000000;
	.multiboot : { *(.multiboot) } :text
	.text : { *(.text) } :text
	. = ALIGN(0x1000);
	.data : { *(.data) } :data
}'

# kernel NAME ASM LINKER_SCRIPT [LD_FLAGS...]: assemble and link $T/NAME.elf (with
# --emit-relocs unless LD_FLAGS say otherwise; ld warnings are not interesting here).
kernel() {
	name=$1 asm=$2 lds=$3
	shift 3
	printf '%s\n' "$asm" >"$T/$name.s"
	printf '%s\n' "$lds" >"$T/$name.ld"
	gcc -m32 -ffreestanding -nostdlib -c "$T/$name.s" -o "$T/$name.o" &&
		ld -m elf_i386 -nostdlib -z noexecstack --no-warn-rwx-segments -T "$T/$name.ld" \
			"$@" -o "$T/$name.elf" "$T/$name.o" 2>"$T/$name.ld-errors" ||
		{ echo "pack-errors: cannot build $name:" >&2; cat "$T/$name.ld-errors" >&2; exit 1; }
}

#### patching ELF fields (little-endian) ####
u16() { od -An -tu2 -j "$2" -N2 "$1" | tr -d ' '; }
u32() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }
put() { # put FILE OFFSET BYTES VALUE (helpers' variables start with _: no function scope in sh)
	_v=$4 _i=0 _s=""
	while [ $_i -lt "$3" ]; do
		_s="$_s$(printf '\\%03o' $((_v & 255)))"
		_v=$((_v >> 8)) _i=$((_i + 1))
	done
	printf "$_s" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
put16() { put "$1" "$2" 2 "$3"; }
put32() { put "$1" "$2" 4 "$3"; }
# Offsets of the ELF32 tables (ELF spec, figures 1-3 and 2-1).
phdr() { echo $(($(u32 "$1" 28) + 32 * $2)); } # phdr FILE INDEX
shdr() { # shdr FILE SECTION_NAME
	_i=$(readelf -SW "$1" | sed -n "s/^ *\[ *\([0-9]*\)\] $2 .*/\1/p")
	echo $(($(u32 "$1" 32) + $(u16 "$1" 46) * _i))
}
rel() { echo $(($(u32 "$1" $(($(shdr "$1" "$2") + 16))) + 8 * $3)); } # rel FILE SECTION INDEX
variant() { cp "$T/good.elf" "$T/$1.elf"; } # a copy of the good tiny kernel to patch

#### successful paths ####
out=$T/ok.img
if "$PACK" --help >"$T/stdout" 2>"$T/stderr" && grep -q '^Usage: ' "$T/stdout" && [ ! -s "$T/stderr" ]; then
	ok "--help prints the usage on stdout and exits 0"
else
	not_ok "--help" "no usage on stdout, or a non-zero exit"
fi
if "$PACK" --version >"$T/stdout" 2>"$T/stderr" && grep -q '^kslide-pack ' "$T/stdout"; then
	ok "--version prints \"$(cat "$T/stdout")\""
else
	not_ok "--version" "no \"kslide-pack VERSION\" on stdout, or a non-zero exit"
fi
magic_le=$(printf '\002\260\255\033' | od -An -tx1 | tr -d ' ') # 0x1BADB002
if "$PACK" --stats -o "$out" "$KERNEL" >"$T/stdout" 2>"$T/stderr" &&
	grep -q 'bytes/relocation' "$T/stdout" &&
	head -c 8192 "$out" | od -An -v -tx1 | tr -d ' \n' | grep -q "$magic_le"; then
	ok "the reference kernel packs; --stats: $(grep bytes/relocation "$T/stdout")"
else
	not_ok "the reference kernel packs with --stats" "failed, no statistics or no Multiboot magic"
fi
kernel good "$ASM_GOOD" "$LDS_GOOD" --emit-relocs
if "$PACK" -v -o "$out" "$T/good.elf" >"$T/stdout" 2>"$T/stderr" &&
	grep -q '3 patched, 1 PC-relative' "$T/stderr"; then
	ok "a tiny kernel packs: 3 patched, 1 PC-relative relocation"
else
	not_ok "a tiny kernel packs" "failed or miscounted its relocations"
fi
if "$PACK" >"$T/stdout" 2>"$T/stderr"; [ $? -eq 1 ] && grep -q '^Usage: ' "$T/stderr"; then
	ok "no arguments: usage on stderr, exit 1"
else
	not_ok "no arguments" "expected the usage on stderr and exit 1"
fi

#### the file itself ####
expect_fail "missing input" "missing.elf: No such file or directory" "$T/missing.elf"
expect_fail "a directory as input" "kslide-pack: $T: Is a directory" "$T"
: >"$T/empty"
expect_fail "empty file" "empty: not an ELF file or a Linux bzImage" "$T/empty"
# A packed image given back to the packer, of this format or an older one: named as such.
if [ -e "$B/i386/kernel.img" ]; then
	expect_fail "a packed image as input: named, with its format" \
		"kernel.img: a packed kslide image (format version" "$B/i386/kernel.img"
	python3 "$(dirname "$0")/../boot/patch-image.py" "$B/i386/kernel.img" "$T/format4.img" --set version=4
	expect_fail "a packed image of format 4 as input: its version named" \
		"format4.img: a packed kslide image (format version 4; this kslide-pack writes" \
		"$T/format4.img"
fi
printf 'garbage, not a kernel\n' >"$T/garbage"
expect_fail "garbage" "garbage: not an ELF file" "$T/garbage"
printf '\177ELF' >"$T/magic-only"
expect_fail "ELF magic and nothing else" "malformed ELF header" "$T/magic-only"
# ld puts the section headers last: any cut loses them.
head -c 100 "$KERNEL" >"$T/trunc100.elf"
expect_fail "first 100 bytes of a kernel" "section headers lie past the end of the file" \
	"$T/trunc100.elf"
variant phdrs && put32 "$T/phdrs.elf" 28 $(($(wc -c <"$T/good.elf") - 16)) # e_phoff
expect_fail "program headers past the end" "program headers lie past the end of the file" \
	"$T/phdrs.elf"
size=$(wc -c <"$KERNEL")
head -c $((size - 100)) "$KERNEL" >"$T/trunc-tail.elf"
expect_fail "a kernel without its last 100 bytes" \
	"section headers lie past the end of the file" "$T/trunc-tail.elf"
# Only regular files are read, and refused at once otherwise: a FIFO with no writer would
# block, /dev/zero would be read until memory runs out (timeout: a hang fails the case).
PACK_TIMEOUT=10
expect_fail "/dev/zero as input: refused at once" \
	"kslide-pack: /dev/zero: a character device, not a regular file" /dev/zero
mkfifo "$T/fifo-in"
expect_fail "a FIFO as input, no writer: refused at once" \
	"fifo-in: a FIFO, not a regular file: kslide-pack reads a kernel from a regular file" \
	"$T/fifo-in"
PACK_TIMEOUT=60
# A sparse file one byte over the limit (tools/pack/files.h): refused by its size, unread.
printf '\177ELF' >"$T/huge.elf" && truncate -s $((2048 * 1024 * 1024 + 1)) "$T/huge.elf"
expect_fail "an input over 2 GiB" \
	"huge.elf: 2147483649 bytes, more than the 2048 MiB a kernel file may have" "$T/huge.elf"
rm -f "$T/huge.elf"

#### the ELF header ####
expect_fail "an object file" "an object file (ET_REL), not a linked kernel: link it" "$T/good.o"
# ld's own PIE script (a custom one with -pie still gives ET_EXEC): with its interpreter a
# program for ld.so, without it a PIE, which an i386 kernel cannot be.
ld -m elf_i386 -pie --emit-relocs -o "$T/pie.elf" "$T/good.o" 2>/dev/null
expect_fail "an i386 PIE with an interpreter" \
	"a program for a dynamic loader (it has PT_INTERP), not a kernel" "$T/pie.elf"
ld -m elf_i386 -pie --no-dynamic-linker --emit-relocs -o "$T/pie-static.elf" "$T/good.o" 2>/dev/null
expect_fail "an i386 static PIE" "an i386 kernel cannot be a PIE (ET_DYN)" "$T/pie-static.elf"
variant arm && put16 "$T/arm.elf" 18 40 # e_machine = EM_ARM
expect_fail "another machine" "not an i386 or x86-64 kernel" "$T/arm.elf"
variant core && put16 "$T/core.elf" 16 4 # e_type = ET_CORE
expect_fail "a core dump" "ELF type 4 is not an executable: a kernel is ET_EXEC" "$T/core.elf"

#### x86-64 ####
# kernel64 NAME ASM LINKER_SCRIPT LD_FLAGS...: as kernel(), for x86-64.
kernel64() {
	name=$1 asm=$2 lds=$3
	shift 3
	printf '%s\n' "$asm" >"$T/$name.s"
	printf '%s\n' "$lds" >"$T/$name.ld"
	gcc -m64 -fpie -ffreestanding -nostdlib -c "$T/$name.s" -o "$T/$name.o" &&
		ld -m elf_x86_64 -nostdlib -z noexecstack --no-warn-rwx-segments -T "$T/$name.ld" \
			"$@" -o "$T/$name.elf" "$T/$name.o" 2>"$T/$name.ld-errors" ||
		{ echo "pack-errors: cannot build $name:" >&2; cat "$T/$name.ld-errors" >&2; exit 1; }
}
LDS_X64='
ENTRY(_start)
SECTIONS {
	. = 0xffffffff81000000;
	.text : AT(0x1000000) { *(.text) }
	.data : AT(ADDR(.data) - 0xffffffff80000000) { *(.data) }
}
'
# -mcmodel=kernel style: a sign-extended immediate, a 64-bit pointer, a PC-relative call.
kernel64 x64 '
	.text
	.globl _start, helper
_start:	movq $value, %rax
	call helper
1:	hlt
	jmp 1b
helper:	ret
	.data
value:	.quad _start
' "$LDS_X64" --emit-relocs
if "$PACK" -v -o "$out" "$T/x64.elf" >"$T/stdout" 2>"$T/stderr" &&
	grep -q '2 patched, 1 PC-relative' "$T/stderr"; then
	ok "a tiny x86-64 kernel packs: 2 patched, 1 PC-relative relocation"
else
	not_ok "a tiny x86-64 kernel packs" "failed or miscounted its relocations"
fi
expect_fail "--virt-range below the upper half" "--virt-range must lie in the upper half" \
	--virt-range 0x1000:0x200000 "$T/x64.elf"
expect_fail "--virt-range without a colon" "invalid range '16M' for --virt-range" \
	--virt-range 16M "$T/x64.elf"
expect_fail "--virt-range inverted" "invalid range" \
	--virt-range 0xffffffff90000000:0xffffffff80000000 "$T/x64.elf"
expect_fail "--virt-range too small" "does not fit in --virt-range" \
	--virt-range 0xffffffff80000000:0xffffffff80000004 "$T/x64.elf"
expect_fail "--virt-align not a power of two" "--virt-align must be a power of two" \
	--virt-align 12K "$T/x64.elf"
# Linux's x86-64 layout: a per-CPU section linked at virtual 0, loaded inside the image. A
# PC-relative reference to it loses the slide (inverse), an absolute one stays, a pointer in
# it to the kernel moves; a reference to an undefined weak symbol stays 0. The linker makes
# init_per_cpu__pcpu_var (as Linux's vmlinux.lds.S defines such names) absolute, though it is
# an address in the image: it moves.
ASM_PERCPU='
	.text
	.globl _start
_start:	movl pcpu_var(%rip), %eax
	movq $pcpu_var, %rbx
	movq $_start, %rcx
1:	hlt
	jmp 1b
	.section .data..percpu, "aw"
	.globl pcpu_var
pcpu_var: .long 0
	.long 0
	.quad _start
	.data
	.weak missing
	.quad missing
	.quad init_per_cpu__pcpu_var
'
lds_percpu() { # lds_percpu PHYS_OF_PERCPU: where the per-CPU section is loaded
	echo "
ENTRY(_start)
PHDRS { text PT_LOAD; percpu PT_LOAD; data PT_LOAD; }
SECTIONS {
	. = 0xffffffff81000000;
	.text : AT(0x1000000) { *(.text) } :text
	. = ALIGN(4096);
	__per_cpu_load = .;
	.data..percpu 0 : AT($1) { *(.data..percpu) } :percpu
	. = __per_cpu_load + SIZEOF(.data..percpu);
	. = ALIGN(4096);
	.data : AT(ADDR(.data) - 0xffffffff80000000) { *(.data) } :data
}
init_per_cpu__pcpu_var = pcpu_var + __per_cpu_load;"
}
kernel64 percpu "$ASM_PERCPU" "$(lds_percpu '__per_cpu_load - 0xffffffff80000000')" --emit-relocs
if "$PACK" -v -o "$out" "$T/percpu.elf" >"$T/stdout" 2>"$T/stderr" &&
	grep -q '^relocations: 4 patched, 0 PC-relative, 0 absolute symbols left alone, 1 weak undefined left alone, 1 into the per-CPU segment left alone' "$T/stderr" &&
	grep -q '^fixups: 0 32-bit, 1 32-bit signed, 2 64-bit, 1 inverse 32-bit$' "$T/stderr" &&
	readelf -sW "$T/percpu.elf" | grep -q ' ABS init_per_cpu__pcpu_var$'; then
	ok "a per-CPU segment at virtual 0: one inverse, one left alone, two moved; weak left at 0"
else
	not_ok "a per-CPU segment at virtual 0" "failed or miscounted its relocations"
fi
# An inverse field loses the slide: the lowest virtual base gives it its highest value. Here
# 32 MiB below the link base, past what the int32 from _start to pcpu_var can lose. (Without
# the sign-extended immediate of "movq $_start", which would fail first.)
kernel64 percpuinv "$(echo "$ASM_PERCPU" | grep -v 'movq \$_start')" \
	"$(lds_percpu '__per_cpu_load - 0xffffffff80000000')" --emit-relocs
expect_fail "an inverse 32-bit field the virtual window overflows" \
	"a 32-bit PC-relative (inverse) field at payload offset 0x2 (link address 0xffffffff81000002, holding 0x7efffffa) would overflow for the virtual bases [0xffffffff7f000000, 0xffffffff7fe00000] of the window [0xffffffff7f000000, 0xffffffff81000000] that --virt-range allows; raise --virt-range's MIN to 0xffffffff80000000" \
	--virt-range 0xffffffff7f000000:0xffffffff81010000 "$T/percpuinv.elf"
expect_fail "a sign-extended 32-bit field the virtual window overflows" \
	"a 32-bit sign-extended field at payload offset 0x10 (link address 0xffffffff81000010, holding 0x81000000) would overflow for the virtual bases [0xffffffff7f000000, 0xffffffff7fe00000]" \
	--virt-range 0xffffffff7f000000:0xffffffff81010000 "$T/percpu.elf"
kernel64 percpufar "$ASM_PERCPU" "$(lds_percpu 0x9000000)" --emit-relocs
expect_fail "a per-CPU segment loaded outside the image" \
	"segment 1 is linked at virtual 0 (a per-CPU area) but its physical range [0x9000000, 0x9000010) lies outside the image [0x1000000, " \
	"$T/percpufar.elf"
kernel64 percpupc "$(printf '%s\n\t.section .data..percpu, "aw"\n\t.long _start - .' "$ASM_PERCPU")" \
	"$(lds_percpu '__per_cpu_load - 0xffffffff80000000')" --emit-relocs
expect_fail "a PC-relative reference from the per-CPU segment to the kernel" \
	"PC-relative reference from the per-CPU segment at .data..percpu+0x10 to the moving kernel cannot be relocated" \
	"$T/percpupc.elf"

# A zero-extended 32-bit field cannot hold an address in the top 2 GiB.
kernel64 x64low '
	.text
	.globl _start
_start:	movl $_start, %eax
	hlt
' '
ENTRY(_start)
SECTIONS { . = 0x1000000; .text : { *(.text) } }
' --emit-relocs
expect_fail "a 32-bit field no base of the virtual window can hold" \
	"a 32-bit field at payload offset 0x1 (link address 0x1000001, holding 0x1000000) would overflow for the virtual bases [0xffffffff80000000, 0xfffffffffee00000] of the window [0xffffffff80000000, 0xfffffffffee00000] that --virt-range allows; no base of the window can hold it (a -mcmodel=kernel kernel must stay in the top 2 GiB)" \
	"$T/x64low.elf"

# A 32-bit field inside a 64-bit one: the stub refuses overlapping fields of any kinds.
kernel64 crosskinds '
	.text
	.globl _start
_start:	hlt
	.data
	.p2align 3
value:	.quad _start
	.reloc value + 4, R_X86_64_32S, _start
' "$LDS_X64" --emit-relocs
expect_fail "a 32-bit relocation inside a 64-bit one" "two relocations overlap at offset 0x" \
	"$T/crosskinds.elf"

# A static PIE with plain RELA relocations, then broken copies of it.
ASM_PIE='
	.text
	.globl _start
_start:	leaq value(%rip), %rax
	movq (%rax), %rax
1:	hlt
	jmp 1b
	.data
	.p2align 3 /* ld packs only aligned fields as RELR */
value:	.quad _start
	.quad value
	.quad _start
'
kernel64 pie64 "$ASM_PIE" "$LDS_X64" -pie --no-dynamic-linker -z nopack-relative-relocs
kernel64 relr64 "$ASM_PIE" "$LDS_X64" -pie --no-dynamic-linker -z pack-relative-relocs
for k in pie64 relr64; do
	if "$PACK" -v -o "$out" "$T/$k.elf" >"$T/stdout" 2>"$T/stderr" &&
		grep -q '^relocations: 3 patched' "$T/stderr" &&
		readelf -SW "$T/$k.elf" | grep -q "$([ $k = relr64 ] && echo RELR || echo RELA)"; then
		ok "a tiny static PIE packs ($k): 3 patched relocations"
	else
		not_ok "a tiny static PIE packs ($k)" "failed or miscounted its relocations"
	fi
done
section_offset() { # section_offset FILE NAME: its file offset, from readelf
	echo $((0x$(readelf -SW "$1" | sed -n "s/^ *\[ *[0-9]*\] $2 *[A-Z]* *[0-9a-f]* \([0-9a-f]*\) .*/\1/p")))
}
cp "$T/pie64.elf" "$T/tpoff.elf"
put32 "$T/tpoff.elf" $(($(section_offset "$T/tpoff.elf" .rela.dyn) + 8)) 18 # R_X86_64_TPOFF64
expect_fail "a dynamic relocation of an unsupported type" \
	"unsupported dynamic relocation type R_X86_64_TPOFF64" "$T/tpoff.elf"
cp "$T/pie64.elf" "$T/outside.elf"
put32 "$T/outside.elf" $(section_offset "$T/outside.elf" .rela.dyn) 0 # r_offset low half
expect_fail "a dynamic relocation outside the image" \
	"patches memory outside the loaded file bytes" "$T/outside.elf"
cp "$T/relr64.elf" "$T/relrbitmap.elf"
put32 "$T/relrbitmap.elf" $(section_offset "$T/relrbitmap.elf" .relr.dyn) 3
expect_fail "a RELR section starting with a bitmap" \
	"RELR section starts with a bitmap, not an address" "$T/relrbitmap.elf"

#### segments ####
kernel norelocs "$ASM_GOOD" "$LDS_GOOD"
expect_fail "linked without --emit-relocs" "no relocations: link the kernel with --emit-relocs; without them kslide cannot move it" \
	"$T/norelocs.elf"
kernel farapart "$ASM_GOOD" '
ENTRY(_start)
SECTIONS { .text 0x100000 : { *(.text) } .data 0xc0000000 : { *(.data) } }' --emit-relocs
expect_fail "segments 3 GiB apart" "segments span 3071 MiB, more than a kernel may (1024 MiB)" \
	"$T/farapart.elf"
kernel overlap "$ASM_GOOD" '
ENTRY(_start)
PHDRS { a PT_LOAD; b PT_LOAD; }
SECTIONS {
	.text 0x100000 : { *(.text) } :a
	.data 0x100008 : { *(.data) } :b
}' --emit-relocs --no-check-sections
expect_fail "overlapping segments" "segments overlap (0 and 1)" "$T/overlap.elf"
kernel offsets "$ASM_GOOD" '
ENTRY(_start)
SECTIONS {
	.text 0xC0100000 : AT(0x100000) { *(.text) }
	.data 0xC0200000 : AT(0x101000) { *(.data) }
}' --emit-relocs
expect_fail "segments with different virtual-to-physical offsets" \
	"segments 0 and 1 have different virtual-to-physical offsets (virtual 0xc0100000 at physical 0x100000, virtual 0xc0200000 at physical 0x101000); they may differ only when the kernel moves by one delta (--handoff multiboot, for a kernel with a Multiboot entry). Otherwise link the segments with one offset: in the linker script, give the low sections the higher-half address too, loaded low with AT()" \
	"$T/offsets.elf"
kernel unaligned "$ASM_GOOD" "$(echo "$LDS_GOOD" | sed 's/0x100000/0x100010/')" --emit-relocs
expect_fail "unaligned lowest segment" "lowest segment is not page aligned (0x100010)" \
	"$T/unaligned.elf"
kernel entry "$ASM_GOOD" "$LDS_GOOD" --emit-relocs -e 0x5000000
expect_fail "entry point outside the image" "entry point outside the image (0x5000000)" \
	"$T/entry.elf"
variant nosegs
for i in $(seq 0 $(($(u16 "$T/nosegs.elf" 44) - 1))); do
	put32 "$T/nosegs.elf" "$(phdr "$T/nosegs.elf" "$i")" 4 # p_type = PT_NOTE
done
expect_fail "no loadable segments" "no loadable segments" "$T/nosegs.elf"
variant filesz && put32 "$T/filesz.elf" $(($(phdr "$T/filesz.elf" 0) + 16)) 0x100000
expect_fail "file size above memory size" \
	"segment 0 has a file size larger than its memory size" "$T/filesz.elf"
variant offset && put32 "$T/offset.elf" $(($(phdr "$T/offset.elf" 0) + 4)) 0x7ffff000
expect_fail "segment data past the end of the file" "segment 0 lies past the end of the file" \
	"$T/offset.elf"
variant wrap && p=$(phdr "$T/wrap.elf" 0) && put32 "$T/wrap.elf" $((p + 8)) 0xfffff000 &&
	put32 "$T/wrap.elf" $((p + 12)) 0xfffff000 && put32 "$T/wrap.elf" $((p + 20)) 0x2000
expect_fail "a segment past 4 GiB" "segment 0 wraps around the address space" "$T/wrap.elf"

#### relocations ####
kernel gotpc '
	.text
	.globl _start
_start:	addl $_GLOBAL_OFFSET_TABLE_, %ebx
	hlt' "$LDS_GOOD" --emit-relocs
expect_fail "GOT-relative code" "unsupported relocation type R_386_GOTPC at .text+0x2: position-independent code; compile with -fno-pic -fno-pie" \
	"$T/gotpc.elf"
kernel undef '
	.text
	.globl _start
_start:	movl $nowhere, %eax
	hlt' "$LDS_GOOD" --emit-relocs --unresolved-symbols=ignore-all
expect_fail "undefined symbol" "undefined symbol referenced at .text+0x1" "$T/undef.elf"
# Undefined weak symbols are legal: an absolute reference holds 0 and stays; a call to one
# must keep aiming at 0, so it loses the slide.
kernel weak '
	.text
	.globl _start
	.weak missing, missing_fn
_start:	movl $missing, %eax
	call missing_fn
	hlt' "$LDS_GOOD" --emit-relocs
if "$PACK" -v -o "$out" "$T/weak.elf" >"$T/stdout" 2>"$T/stderr" &&
	grep -q '^relocations: 1 patched, 0 PC-relative, 0 absolute symbols left alone, 1 weak undefined left alone' "$T/stderr" &&
	grep -q '^fixups: 0 32-bit, 0 32-bit signed, 0 64-bit, 1 inverse 32-bit$' "$T/stderr"; then
	ok "undefined weak symbols: the reference left at 0, the call an inverse fixup"
else
	not_ok "undefined weak symbols" "refused or miscounted"
fi
kernel pcabs '
	.text
	.globl _start
_start:	call firmware
	hlt' "$LDS_GOOD
firmware = 0xfff0;" --emit-relocs
expect_fail "call to an absolute address" \
	"PC-relative reference to an absolute symbol at .text+0x1 cannot be relocated" \
	"$T/pcabs.elf"
variant type && put "$T/type.elf" $(($(rel "$T/type.elf" .rel.text 0) + 4)) 1 200
expect_fail "unknown relocation type" "unsupported relocation type 200 at .text+0x1" \
	"$T/type.elf"
variant r16 && put "$T/r16.elf" $(($(rel "$T/r16.elf" .rel.data 0) + 4)) 1 20
expect_fail "16-bit relocation" "unsupported relocation type R_386_16 at .data+0x0" "$T/r16.elf"
variant symidx && put "$T/symidx.elf" $(($(rel "$T/symidx.elf" .rel.data 0) + 5)) 3 0xffff
expect_fail "symbol index out of range" "bad symbol index in a relocation at .data+0x0" \
	"$T/symidx.elf"
variant outside && put32 "$T/outside.elf" "$(rel "$T/outside.elf" .rel.data 0)" 0x200000
expect_fail "relocation past the image" "relocation outside the loaded image at .data+0x" \
	"$T/outside.elf"
variant below && put32 "$T/below.elf" "$(rel "$T/below.elf" .rel.data 0)" 0xffffe
expect_fail "relocation just below the image" "relocation outside the loaded image at .data+0x" \
	"$T/below.elf"
variant twice && put32 "$T/twice.elf" "$(rel "$T/twice.elf" .rel.data 1)" \
	"$(u32 "$T/twice.elf" "$(rel "$T/twice.elf" .rel.data 0)")"
expect_fail "two relocations for one field" "two relocations patch offset 0x" "$T/twice.elf"
# One Elf32_Rela (12 bytes) where the Elf32_Rel was.
variant rela && sh=$(shdr "$T/rela.elf" .rel.text) && put32 "$T/rela.elf" $((sh + 4)) 4 &&
	put32 "$T/rela.elf" $((sh + 20)) 12 && put32 "$T/rela.elf" $((sh + 36)) 12
expect_fail "RELA relocations" "RELA relocations for .text are not supported for i386" \
	"$T/rela.elf"
variant target && put32 "$T/target.elf" $(($(shdr "$T/target.elf" .rel.text) + 28)) 999
expect_fail "relocations for a section that does not exist" \
	"relocation section with a bad target or symbol table" "$T/target.elf"
variant reldata && put32 "$T/reldata.elf" $(($(shdr "$T/reldata.elf" .rel.text) + 16)) 0x7ffff000
expect_fail "relocations past the end of the file" "cannot read relocations for .text" \
	"$T/reldata.elf"

#### Linux bzImages: copies of Debian's 686 kernel (make linux-kernels), patched ####
BZ686=$B/linux/686/vmlinuz BZ64=$B/linux/cloud-amd64/vmlinuz
BZPY=$(dirname "$0")/../linux/bzimage.py
if [ -e "$BZ686" ] && [ -e "$BZ64" ]; then
	bz() { cp "$BZ686" "$T/$1.bz"; } # bz NAME: a copy of the 686 kernel to patch
	bzset() { "$BZPY" set "$T/$1.bz" "$T/$1.bz" "$2" "$3" "$4"; } # bzset NAME OFFSET BYTES VALUE
	# The payload's first byte in the file: (setup_sects + 1) sectors, then payload_offset.
	payload=$((($(od -An -tu1 -j $((0x1f1)) -N1 "$BZ686") + 1) * 512 + $(u32 "$BZ686" $((0x248)))))
	"$BZPY" payload "$BZ686" "$T/686.raw" && "$BZPY" packed "$BZ686" "$T/686.xz" || exit 1
	extent=$("$BZPY" extent "$T/686.raw")
	raw_bz() { # raw_bz NAME RAW: a 686 kernel whose payload is RAW, gzip-compressed
		"$BZPY" compress gzip "$2" "$T/$1.gz" && "$BZPY" put "$BZ686" "$T/$1.gz" "$T/$1.bz"
	}
	bz oldproto && bzset oldproto $((0x206)) 2 0x0207
	expect_fail "bzImage: boot protocol 2.07" "boot protocol 2.07 is too old: kslide needs 2.08" \
		"$T/oldproto.bz"
	bz fixed && bzset fixed $((0x234)) 1 0
	expect_fail "bzImage: not relocatable" \
		"not a relocatable kernel (relocatable_kernel is 0): build Linux with CONFIG_RELOCATABLE" \
		"$T/fixed.bz"
	# memtest86+ has the header too, and no Linux release in its version string.
	cp "$T/fixed.bz" "$T/memtest.bz"
	printf 'Memtest86+ v6.10\0' | dd of="$T/memtest.bz" bs=1 conv=notrunc status=none \
		seek=$((0x200 + $(u16 "$T/memtest.bz" $((0x20e)))))
	expect_fail "bzImage: not relocatable and not Linux" \
		"not a relocatable kernel (relocatable_kernel is 0), and not Linux (its version string is \"Memtest86+ v6.10\"): kslide cannot move it" \
		"$T/memtest.bz"
	bz zimage && bzset zimage $((0x211)) 1 0
	expect_fail "bzImage: loaded low" "a zImage (loaded low, LOADED_HIGH clear)" "$T/zimage.bz"
	bz jump && bzset jump $((0x201)) 1 0x10
	expect_fail "bzImage: header too short for its payload fields" \
		"malformed setup header: the jump at 0x200 (eb 10)" "$T/jump.bz"
	bz codec && bzset codec $payload 2 0x1234
	expect_fail "bzImage: unknown compression" "unknown payload compression (first bytes 34 12" \
		"$T/codec.bz"
	bz lzo && bzset lzo $payload 2 0x4c89
	expect_fail "bzImage: LZO" "LZO-compressed payloads are not supported" "$T/lzo.bz"
	bz flip && "$BZPY" flip "$T/flip.bz" "$T/flip.bz" 1000000
	expect_fail "bzImage: a byte of the xz stream flipped" "corrupt xz payload: liblzma data error" \
		"$T/flip.bz"
	head -c $((payload + 1000000)) "$BZ686" >"$T/cut.bz"
	expect_fail "bzImage: the file cut inside its payload" \
		"truncated: the payload ($(u32 "$BZ686" $((0x24c))) bytes at $(printf 0x%x $payload)) runs past the end of the file" \
		"$T/cut.bz"
	# A consistent header and size trailer around an xz stream that stops early.
	size=$(wc -c <"$T/686.xz")
	{ head -c $((size - 1004)) "$T/686.xz" && tail -c 4 "$T/686.xz"; } >"$T/short.xz"
	"$BZPY" put "$BZ686" "$T/short.xz" "$T/short.bz"
	expect_fail "bzImage: the xz stream cut before its end" "truncated xz payload: the stream ends" \
		"$T/short.bz"
	"$BZPY" set "$T/686.xz" "$T/trailer.xz" $((size - 4)) 4 $(($(u32 "$T/686.xz" $((size - 4))) + 4096))
	"$BZPY" put "$BZ686" "$T/trailer.xz" "$T/trailer.bz"
	expect_fail "bzImage: the size trailer 4 KiB too large" \
		"corrupt xz payload: it decodes to fewer bytes than the" "$T/trailer.bz"
	head -c 65536 /dev/urandom >"$T/random.raw" && raw_bz notelf "$T/random.raw"
	expect_fail "bzImage: a payload that is no ELF" "the decompressed payload is not an ELF file" \
		"$T/notelf.bz"
	"$BZPY" set "$T/686.raw" "$T/noterm.raw" "$extent" 4 1 && raw_bz noterm "$T/noterm.raw"
	expect_fail "bzImage: the relocation list without its terminator" \
		"malformed relocation lists: the 32-bit list has no terminating zero" "$T/noterm.bz"
	"$BZPY" insert "$T/686.raw" "$T/gap.raw" "$extent" 00000000 && raw_bz gap "$T/gap.raw"
	expect_fail "bzImage: 4 bytes between vmlinux and its lists" \
		"malformed relocation lists: 4 bytes lie between the vmlinux ELF and them" "$T/gap.bz"
	"$BZPY" insert "$T/686.raw" "$T/odd.raw" "$extent" 0000 && raw_bz odd "$T/odd.raw"
	expect_fail "bzImage: lists of no whole entries" "are not whole 32-bit entries" "$T/odd.bz"
	last=$(($(wc -c <"$T/686.raw") - 4))
	entries=$("$BZPY" lists "$T/686.raw" | sed 's/^32=\([0-9]*\) .*/\1/')
	"$BZPY" set "$T/686.raw" "$T/below.raw" $last 4 0xc0000004 && raw_bz below "$T/below.raw"
	expect_fail "bzImage: a relocation entry below the kernel" \
		"32-bit relocation entry $((entries - 1)) (0xc0000004) points outside the kernel's loaded segments" \
		"$T/below.bz"
	"$BZPY" compress gzip "$T/686.raw" "$T/686.gz" && "$BZPY" put "$BZ64" "$T/686.gz" "$T/arch.bz"
	expect_fail "bzImage: an x86-64 header around an i386 vmlinux" \
		"the setup header describes a 64-bit (XLF_KERNEL_64) kernel but the payload's ELF is i386" \
		"$T/arch.bz"
	expect_fail "bzImage: --handoff kslide" \
		"a Linux bzImage is entered by Linux's boot protocol (--handoff linux), not --handoff kslide" \
		--handoff kslide "$BZ686"
	expect_fail "an ELF kernel with --handoff linux" \
		"--handoff linux needs a Linux bzImage, whose setup header the zero page is built around" \
		--handoff linux "$KERNEL"
	expect_fail "bzImage: --align below min_alignment" \
		"--align 0x1000 is below the kernel's min_alignment (0x2000)" --align 4K "$BZ686"
else
	not_ok "Linux bzImages" "$BZ686 or $BZ64 is missing: run make linux-kernels"
fi

#### options ####
G=$T/good.elf
expect_fail "--align not a power of two" "--align must be a power of two" --align 0x3000 "$G"
expect_fail "--align below 4K" "--align must be a power of two of at least 4K" --align 2K "$G"
expect_fail "--min above --max" "--min must be below --max" --min 32M --max 16M "$G"
expect_fail "--min equal to --max" "--min must be below --max" --min 16M --max 16M "$G"
expect_fail "--min not a number" "invalid number 'sixteen' for --min" --min sixteen "$G"
expect_fail "--max negative" "invalid number '-1' for --max" --max -1 "$G"
expect_fail "--align with a bad suffix" "invalid number '2X' for --align" --align 2X "$G"
expect_fail "--max overflowing with a suffix" "invalid number '0x40000000000G' for --max" \
	--max 0x40000000000G "$G"
expect_fail "--max past 4 GiB" "--max is beyond the 4 GiB an i386 kernel can address" \
	--max 5G "$G"
expect_fail "kernel larger than the range" \
	"good.elf: kernel (22 bytes) does not fit between --min and --max" \
	--min 16M --max 0x1000010 "$G"
expect_fail "unknown option" "unrecognized option '--frobnicate'" --frobnicate "$G"

#### Multiboot kernels: their headers' requests (tools/pack/multiboot_header.c) ####
# mbkernel NAME HEADER: the good tiny kernel with HEADER (assembly) in a .multiboot section
# that the linker script puts first, where loaders look for it.
LDS_MB='
ENTRY(_start)
SECTIONS {
	. = 0x1000000;
	.multiboot : { *(.multiboot) }
	.text : { *(.text) }
	.data : { *(.data) }
}
'
mbkernel() {
	kernel "$1" "$ASM_GOOD
	.section .multiboot, \"a\"
	.p2align 3
$2" "$LDS_MB" --emit-relocs
}
MB1='.long 0x1BADB002, MB1F, -(0x1BADB002 + MB1F)'
mb1() { echo "$MB1" | sed "s/MB1F/$1/g"; } # mb1 FLAGS: a Multiboot 1 header
# mb2 TAGS...: a Multiboot 2 header (magic, arch 0, length, checksum) with these tags, then end.
mb2() {
	printf '0: .long 0xE85250D6, 0, 1f - 0b, -(0xE85250D6 + (1f - 0b))\n'
	for t in "$@"; do printf '.p2align 3\n%s\n' "$t"; done
	printf '.p2align 3\n.short 0, 0\n.long 8\n1:\n'
}
FRAMEBUFFER_TAG='.short 5, 0
.long 20, 1024, 768, 32'
mbkernel mb1-plain "$(mb1 3)"
if "$PACK" -v -o "$out" "$T/mb1-plain.elf" 2>"$T/stderr" &&
	grep -q '^handoff: multiboot (the kernel has a Multiboot header and no kslide note)' "$T/stderr"; then
	ok "a Multiboot kernel gets the pass-through by default: $(grep ^handoff "$T/stderr")"
else
	not_ok "a Multiboot kernel gets the pass-through by default" "no such -v line"
fi
# The image's own Multiboot 2 header must be gone: the kernel has none.
if ! head -c 32768 "$out" | od -An -v -tx1 | tr -d ' \n' | grep -q 'd65052e8'; then
	ok "a Multiboot 1 kernel's image has no Multiboot 2 header either"
else
	not_ok "a Multiboot 1 kernel's image" "still has a Multiboot 2 header"
fi
kernel_note='	.pushsection .kslide.note, "", @note
	.balign 4
	.long 7, 8, 1
	.asciz "kslide"
	.balign 4
	.long 1, 1
	.popsection'
mbkernel mb1-note "$(mb1 3)
$kernel_note"
if "$PACK" -v -o "$out" "$T/mb1-note.elf" 2>"$T/stderr" &&
	grep -q "^handoff: kslide (as the kernel's kslide note asks)" "$T/stderr"; then
	ok "a kslide note wins over the Multiboot header: $(grep ^handoff "$T/stderr")"
else
	not_ok "a kslide note wins over the Multiboot header" "no such -v line"
fi
# MB1 flags bit 2 and its four graphics fields (offsets 32..44) must reach the image's header.
mbkernel mb1-video "$(mb1 7)
.long 0, 0, 0, 0, 0, 1, 800, 600, 32"
if "$PACK" -o "$out" "$T/mb1-video.elf" 2>"$T/stderr" &&
	[ "$(od -An -tu4 -j4 -N4 "$out" | tr -d ' ')" = 65543 ] &&
	[ "$(od -An -tu4 -j32 -N16 "$out" | tr -s ' ')" = " 1 800 600 32" ]; then
	ok "a Multiboot 1 video mode request is asked again by the image"
else
	not_ok "a Multiboot 1 video mode request" "flags or graphics fields not in the image's header"
fi
mbkernel mb2-fb "$(mb2 "$FRAMEBUFFER_TAG")"
if "$PACK" -o "$out" "$T/mb2-fb.elf" 2>"$T/stderr" &&
	head -c 32768 "$out" | od -An -v -tx4 | tr -s ' \n' ' ' | grep -q '00000005 00000014 00000400 00000300 00000020' &&
	[ "$(od -An -tx4 -N4 "$out" | tr -d ' ')" = 1badb002 ]; then
	ok "a Multiboot 2 framebuffer tag is asked again; the Multiboot 1 header kept, for QEMU -kernel"
else
	not_ok "a Multiboot 2 framebuffer tag" "not in the image's header, or no MB1 header"
fi
# A Multiboot 1-only kernel's image carries only that header: a Multiboot 2 loader could not
# start the kernel, and the stub does not translate that way (docs/kernel-authors.md).
if "$PACK" -o "$out" "$T/mb1-plain.elf" 2>"$T/stderr" &&
	! head -c 32768 "$out" | od -An -v -tx4 -w8 | grep -q '^ e85250d6 '; then
	ok "a Multiboot 1-only kernel's image has no Multiboot 2 header"
else
	not_ok "a Multiboot 1-only kernel's image" "has a Multiboot 2 header"
fi
# A relocatable tag (type 10: min_addr, max_addr, align, preference) bounds the placement.
mbkernel mb2-reloc "$(mb2 '.short 10, 0
.long 24, 0x4000000, 0x8000000, 0x400000, 0')"
if "$PACK" -v -o "$out" "$T/mb2-reloc.elf" 2>"$T/stderr" &&
	grep -q '^image: .* base in \[0x4000000, 0x8000000) aligned to 0x400000$' "$T/stderr" &&
	grep -q 'its relocatable tag bounds the base' "$T/stderr"; then
	ok "a Multiboot 2 relocatable tag bounds the base: $(grep '^image:' "$T/stderr")"
else
	not_ok "a Multiboot 2 relocatable tag bounds the base" "-v shows another window"
fi
if "$PACK" --min 16M -o "$out" "$T/mb2-reloc.elf" 2>"$T/stderr" &&
	grep -q "warning: .*--min 0x1000000 overridden by the kernel's Multiboot2 relocatable tag: 0x4000000" "$T/stderr"; then
	ok "an explicit --min the relocatable tag overrides is named"
else
	not_ok "an explicit --min the relocatable tag overrides" "no warning"
fi
mbkernel mb2-optional "$(mb2 '.short 42, 1
.long 8')"
if "$PACK" -o "$out" "$T/mb2-optional.elf" 2>"$T/stderr" &&
	grep -q "warning: .*1 optional Multiboot2 tag of the kernel's header left out of the image, which relocation cannot honour: type 42" "$T/stderr"; then
	ok "an optional Multiboot 2 tag left out is named: $(grep -o 'type 42.*' "$T/stderr")"
else
	not_ok "an optional Multiboot 2 tag left out is named" "no warning"
fi
kernel mb2-dataentry "$ASM_GOOD
	.section .multiboot, \"a\"
	.p2align 3
$(mb2 '.short 3, 0
.long 12, value')" "$LDS_SPLIT" --emit-relocs
expect_fail "a Multiboot 2 entry address in data" \
	"is not in the file bytes of an executable segment: an entry point must be code" \
	"$T/mb2-dataentry.elf"
mbkernel mb1-aout "$(mb1 0x10003)"
expect_fail "Multiboot 1 a.out kludge" "fixed addresses (flags bit 16, the a.out kludge)" \
	"$T/mb1-aout.elf"
mbkernel mb1-bit3 "$(mb1 0xb)"
expect_fail "Multiboot 1 flag kslide does not know" "requires flags bit 3" "$T/mb1-bit3.elf"
mbkernel mb2-address "$(mb2 '.short 2, 0
.long 24, 0, 0, 0, 0')"
expect_fail "Multiboot 2 address tag" "has an address tag" "$T/mb2-address.elf"
mbkernel mb2-unknown "$(mb2 '.short 42, 0
.long 8')"
expect_fail "Multiboot 2 required tag kslide does not know" "requires tag type 42" \
	"$T/mb2-unknown.elf"
mbkernel mb2-mips "0: .long 0xE85250D6, 4, 1f - 0b, -(0xE85250D6 + 4 + (1f - 0b))
.short 0, 0
.long 8
1:"
expect_fail "Multiboot 2 header for another architecture" "for architecture 4, not i386" \
	"$T/mb2-mips.elf"
mbkernel mb2-noend "0: .long 0xE85250D6, 0, 1f - 0b, -(0xE85250D6 + (1f - 0b))
.short 4, 0
.long 12, 0
1:"
expect_fail "Multiboot 2 header without an end tag" "has no end tag" "$T/mb2-noend.elf"
if "$PACK" -v --handoff multiboot -o "$out" "$KERNEL" 2>"$T/stderr" &&
	grep -q '^multiboot: the kernel has no Multiboot header: the image answers Multiboot 1 and 2' "$T/stderr" &&
	head -c 8192 "$out" | od -An -v -tx1 | tr -d ' \n' | grep -q "$magic_le"; then
	ok "--handoff multiboot without a header of the kernel's own: both loaders' headers stay"
else
	not_ok "--handoff multiboot without a header of the kernel's own" "refused, or a header gone"
fi
expect_fail "--handoff multiboot for an x86-64 kernel without a Multiboot entry" \
	"--handoff multiboot enters an x86-64 kernel at a 32-bit Multiboot entry, which this kernel has no header for; an entry in long mode takes --handoff kslide" \
	--handoff multiboot "$B/x86_64/kernel.elf"
expect_fail "--handoff of an unknown name" "unknown handoff 'linus' for --handoff (known:" \
	--handoff linus "$G"
expect_fail "--format of an unknown name" \
	"unknown container 'pe' for --format (known: multiboot, pvh, efi)" --format pe "$G"
expect_fail "--format efi for an i386 kernel: no EFI entry in its stub" \
	"the i386 stub has no EFI entry: --format efi is for x86-64 kernels" --format efi "$G"
# --format efi: objdump (binutils) must read a PE32+ EFI application (subsystem 10) whose one
# section puts the image at the stub's link address (1 MiB) from one page into the file, with
# 4 KiB section and 512-byte file alignment, SizeOfImage the section's end rounded up to a page,
# the entry inside the section; osslsigncode must find the PE checksum it computes itself.
if "$PACK" --format efi -o "$T/k.efi" "$B/x86_64/kernel.elf" 2>"$T/stderr" &&
	objdump -x "$T/k.efi" >"$T/efi.x" && osslsigncode verify -in "$T/k.efi" >"$T/efi.v" 2>&1;
	grep -q 'file format pei-x86-64' "$T/efi.x" && grep -Eq '^Magic[[:space:]]+020b' "$T/efi.x" &&
	grep -Eq '^Subsystem[[:space:]]+0000000a[[:space:]]+\(EFI application\)' "$T/efi.x" &&
	grep -Eq '^SectionAlignment[[:space:]]+00001000' "$T/efi.x" &&
	grep -Eq '^FileAlignment[[:space:]]+00000200' "$T/efi.x" &&
	sect=$(objdump -h "$T/k.efi" | awk '$2 == ".text" { print $3, $4, $6 }') &&
	set -- $sect && [ $((0x$2)) -eq $((0x100000)) ] && [ $((0x$3)) -eq 4096 ] &&
	[ $(stat -c %s "$T/k.efi") -eq $((4096 + 0x$1)) ] && [ $((0x$1 % 512)) -eq 0 ] &&
	base=$(awk '$1 == "ImageBase" { print $2 }' "$T/efi.x") &&
	size=$(awk '$1 == "SizeOfImage" { print $2 }' "$T/efi.x") &&
	[ $((0x$size)) -eq $(((0x$2 + 0x$1 - 0x$base + 4095) / 4096 * 4096)) ] &&
	entry=$(sed -n 's/^start address 0x\([0-9a-f]*\)$/\1/p' "$T/efi.x") &&
	[ $((0x$entry)) -gt $((0x$2)) ] && [ $((0x$entry)) -lt $((0x$2 + 0x$1)) ] &&
	grep -q '^PE checksum *: ' "$T/efi.v" && ! grep -qi 'invalid PE checksum' "$T/efi.v"; then
	ok "--format efi: a PE32+ EFI application that loads the image at 1 MiB, entered at 0x$entry, its checksum right"
else
	not_ok "--format efi" "refused, or not the PE described: $(grep -i checksum "$T/efi.v" | tr '\n' ' ')"
fi
# --sign KEY --cert CERT (tools/pack/signer.c): refused before packing, each with its file
# named, no output written: a missing key, one that is not PEM, an encrypted one without
# --key-pass or with the wrong passphrase, a key that is not the certificate's, and --sign
# without a PE or without its other half. What it signs is judged in tests/pack/sign.sh.
X=$B/x86_64/kernel.elf
for who in a b; do
	openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=kslide-$who -days 1 \
		-keyout "$T/$who.key" -out "$T/$who.crt" 2>/dev/null
done
openssl pkey -in "$T/a.key" -aes256 -passout pass:kslide -out "$T/enc.key" 2>/dev/null
echo kslide >"$T/pass" && echo wrong >"$T/wrong"
expect_fail "--sign with a missing key" "$T/none.key: No such file or directory" \
	--format efi --sign "$T/none.key" --cert "$T/a.crt" "$X"
expect_fail "--sign with a key that is not PEM" "$T/good.elf: not a PEM private key" \
	--format efi --sign "$G" --cert "$T/a.crt" "$X"
expect_fail "--cert that is not a PEM certificate" "$T/a.key: not a PEM X.509 certificate" \
	--format efi --sign "$T/a.key" --cert "$T/a.key" "$X"
expect_fail "--sign with another certificate's key" \
	"$T/b.key: not the key of the certificate $T/a.crt" \
	--format efi --sign "$T/b.key" --cert "$T/a.crt" "$X"
expect_fail "--sign with an encrypted key and no --key-pass" \
	"$T/enc.key: the key is encrypted: give its passphrase with --key-pass FILE" \
	--format efi --sign "$T/enc.key" --cert "$T/a.crt" "$X"
expect_fail "--sign with an encrypted key and the wrong passphrase" \
	"$T/enc.key: cannot decrypt the key with the passphrase --key-pass gave" \
	--format efi --sign "$T/enc.key" --cert "$T/a.crt" --key-pass "$T/wrong" "$X"
expect_fail "--sign without --format efi" \
	"--sign makes an Authenticode signature, which only a PE carries: it needs --format efi" \
	--sign "$T/a.key" --cert "$T/a.crt" "$X"
expect_fail "--sign with --format pvh" "it needs --format efi" \
	--format pvh --sign "$T/a.key" --cert "$T/a.crt" "$X"
expect_fail "--sign without --cert" "--sign needs --cert CERT, the key's certificate" \
	--format efi --sign "$T/a.key" "$X"
expect_fail "--cert without --sign" "--cert without --sign KEY: nothing to sign" \
	--format efi --cert "$T/a.crt" "$X"
if "$PACK" --format efi --sign "$T/enc.key" --cert "$T/a.crt" --key-pass "$T/pass" \
	-o "$T/enc.efi" "$X" 2>"$T/stderr" && sbverify --cert "$T/a.crt" "$T/enc.efi" >/dev/null 2>&1; then
	ok "--sign with an encrypted key and --key-pass: signed, sbverify accepts it"
else
	not_ok "--sign with an encrypted key and --key-pass" "refused, or sbverify refuses it"
fi
expect_fail "--format pvh for an i386 kernel: no PVH entry in its stub" \
	"the i386 stub has no PVH entry: --format pvh is for x86-64 kernels" --format pvh "$G"
# --format pvh: readelf (binutils, not ours) must read an ELF64 whose PT_LOAD puts the image at
# the stub's link address (1 MiB) from one page into the file, and whose Xen note (type 18)
# names an entry inside what it loads; no Multiboot header may be in the first 32 KiB, where
# GRUB looks (QEMU: 8 KiB), or QEMU would load the file as a Multiboot image.
mb1_le=02b0ad1b mb2_le=d65052e8
if "$PACK" --format pvh -o "$T/pvh.img" "$B/x86_64/kernel.elf" 2>"$T/stderr" &&
	readelf -hW "$T/pvh.img" | grep -q 'Class: *ELF64' &&
	readelf -lW "$T/pvh.img" | grep -Eq '^ *LOAD +0x0*1000 0x0*100000 0x0*100000 ' &&
	readelf -nW "$T/pvh.img" | grep -Eq '^ *Xen +0x00000008.*\(0x00000012\)' &&
	entry=$(readelf -nW "$T/pvh.img" |
		sed -n 's/.*description data: \(..\) \(..\) \(..\) \(..\) .*/\4\3\2\1/p') &&
	[ -n "$entry" ] && [ $((0x$entry)) -gt $((0x100000)) ] &&
	[ $((0x$entry)) -lt $((0x100000 + $(stat -c %s "$T/pvh.img") - 4096)) ] &&
	! head -c 32768 "$T/pvh.img" | od -An -v -tx1 | tr -d ' \n' | grep -Eq "$mb1_le|$mb2_le"; then
	ok "--format pvh: an ELF64 that loads the image at 1 MiB, a Xen note entering it at 0x$entry, no Multiboot header"
else
	not_ok "--format pvh" "refused, or not the ELF described, or a Multiboot header left"
fi
# Uncompressed unless --compress says otherwise, also where auto would compress (a bzImage):
# the same bytes as the Multiboot image packed --compress none, one page of headers longer.
# LZ4 stands for every codec here: zstd at level 22 spends 25 s of CPU on this kernel.
if "$PACK" --format pvh -o "$T/pvh-bz.img" "$BZ64" 2>/dev/null &&
	"$PACK" --compress none -o "$T/none-bz.img" "$BZ64" 2>/dev/null &&
	[ $(stat -c %s "$T/pvh-bz.img") -eq $(($(stat -c %s "$T/none-bz.img") + 4096)) ] &&
	"$PACK" --format pvh --compress lz4 -o "$T/pvh-bz-lz4.img" "$BZ64" 2>/dev/null &&
	[ $(stat -c %s "$T/pvh-bz-lz4.img") -lt $(($(stat -c %s "$T/none-bz.img") * 3 / 4)) ]; then
	ok "--format pvh stores the payload as it is by default; --compress lz4 still compresses"
else
	not_ok "--format pvh and --compress" "compressed by default, or --compress ignored"
fi
if "$PACK" --format multiboot -o "$T/format.img" "$G" 2>"$T/stderr" &&
	"$PACK" -o "$T/default.img" "$G" 2>/dev/null && cmp -s "$T/format.img" "$T/default.img" &&
	"$PACK" --help | grep -q -- '--format NAME .*(default multiboot)' &&
	"$PACK" --help | grep -q '^  *multiboot  flat, for Multiboot 1 and 2 loaders'; then
	ok "--format multiboot is the default, and --help names it"
else
	not_ok "--format multiboot" "refused, not the default's bytes, or missing from --help"
fi
if "$PACK" "$G" >/dev/null 2>"$T/stderr"; [ $? -eq 1 ] && grep -q 'no output file: give -o OUT' "$T/stderr"; then
	ok "no -o: $(head -n 1 "$T/stderr")"
else
	not_ok "no -o" "expected exit 1 and \"no output file\""
fi
if "$PACK" -o "$out" >/dev/null 2>"$T/stderr"; [ $? -eq 1 ] && grep -q 'no input kernel' "$T/stderr"; then
	ok "no input: $(head -n 1 "$T/stderr")"
else
	not_ok "no input" "expected exit 1 and \"no input kernel\""
fi
# The warning names every way out this kernel has: booting without nokaslr, compressing (it
# is packed uncompressed) and relinking (it is not Linux).
if "$PACK" -o "$out" "$G" 2>"$T/stderr" &&
	grep -q 'warning: .*linked at 0x100000, inside the packed image.s own load range' "$T/stderr" &&
	grep -qF 'boot it without nokaslr, or pack it compressed (--compress zstd)' "$T/stderr" &&
	grep -q 'or link it at 0x[0-9a-f]*00000 or above$' "$T/stderr"; then
	ok "a kernel linked at 1 MiB packs with a warning naming the ways out: $(cut -c1-100 "$T/stderr")..."
else
	not_ok "a kernel linked at 1 MiB" "no warning that nokaslr cannot boot it, naming no nokaslr, --compress and relinking"
fi

#### what is not a kernel (tools/pack/kernel_shape.c, kernel_elf.c) ####
objcopy --only-keep-debug "$T/good.elf" "$T/good.debug"
expect_fail "a separate debug-info file" \
	"good.debug: a separate debug-info file: its code (.text) holds no bytes (SHT_NOBITS); pack the kernel itself" \
	"$T/good.debug"
# The system's own debug files, the issue's 273 (all of them: make chaos runs every ELF).
dbg=$(find /usr/lib/debug -type f -name '*.debug' 2>/dev/null | head -n 3)
for f in $dbg; do
	expect_fail "a debug file of the system: ${f#/usr/lib/debug/}" "a separate debug-info file" "$f"
done
kernel nocode "$ASM_GOOD" '
ENTRY(_start)
PHDRS { all PT_LOAD FLAGS(6); }
SECTIONS { . = 0x1000000; .text : { *(.text) } :all .data : { *(.data) } :all }' --emit-relocs
expect_fail "no executable segment" \
	"no executable segment holds bytes of the file (a PT_LOAD with PF_X and a file size): a kernel has code" \
	"$T/nocode.elf"
kernel dataentry "$ASM_GOOD
	.globl value" "$LDS_SPLIT" --emit-relocs -e value
expect_fail "the entry point in data" \
	"is not in the file bytes of an executable segment: the ELF header's e_entry must point at code" \
	"$T/dataentry.elf"
printf 'int main(void) { return 0; }\n' >"$T/prog.c"
gcc -O2 -o "$T/prog" "$T/prog.c" || exit 1
expect_fail "a program for the dynamic loader" \
	"prog: a program for a dynamic loader (it has PT_INTERP), not a kernel" "$T/prog"
# A static program (the sweep's one acceptance: a static x86-64 tool with 0 relocations).
if gcc -O2 -static -o "$T/prog-static" "$T/prog.c" 2>/dev/null; then
	expect_fail "a static user program" \
		"prog-static: a user program for an operating system (it has a GNU ABI tag, .note.ABI-tag), not a kernel" \
		"$T/prog-static"
else
	not_ok "a static user program" "gcc -static cannot link one (libc6-dev's libc.a?)"
fi
printf '#include <stdio.h>\nint tiny(void) { return puts("tiny"); }\n' >"$T/lib.c"
gcc -O2 -fpic -shared -nostdlib -Wl,-soname,libtiny.so.1 -o "$T/libtiny.so" "$T/lib.c" || exit 1
expect_fail "a shared library" "a shared library (DT_SONAME libtiny.so.1), not a kernel" \
	"$T/libtiny.so"
# It calls puts: the linker keeps libc.so.6 as needed (--as-needed drops an unused one).
gcc -O2 -fpic -shared -o "$T/needs.so" "$T/lib.c" || exit 1
expect_fail "a shared object that needs libc" \
	"it needs a shared library (DT_NEEDED libc.so.6): a kernel is linked static" "$T/needs.so"
# A plugin: no soname, nothing needed, but a symbol its host program must supply (the sweep's
# 49 Python, PostgreSQL and QEMU modules, once refused as a misplaced per-CPU segment).
printf 'extern int host_call(void);\nint plugin(void) { return host_call(); }\n' >"$T/plugin.c"
gcc -O2 -fpic -shared -nostdlib -o "$T/plugin.so" "$T/plugin.c" || exit 1
expect_fail "a plugin importing its host's symbol" \
	"plugin.so: a plugin (a shared object whose loader must supply host_call, undefined in .dynsym), not a kernel" \
	"$T/plugin.so"
# The C library carries both a soname and the ABI tag: it is named for what it is.
libc=$(gcc -print-file-name=libc.so.6)
expect_fail "the system's C library is a shared library, not a user program" \
	"a shared library (DT_SONAME libc.so.6), not a kernel: a kernel is a static executable" \
	"$(readlink -f "$libc")"

#### the limits a kernel declares (include/kslide/kernel.h, tools/pack/kernel_limits.c) ####
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# kernel_cpp NAME ASM: the good tiny kernel plus ASM, preprocessed with kslide's headers and
# linked at 16 MiB.
LDS16=$(echo "$LDS_GOOD" | sed 's/0x100000/0x1000000/')
kernel_cpp() {
	printf '#include "include/kslide/kernel.h"\n%s\n' "$2" >"$T/$1-note.S"
	gcc -m32 -I"$ROOT" -c "$T/$1-note.S" -o "$T/$1-note.o" &&
		ld -m elf_i386 -nostdlib -z noexecstack --no-warn-rwx-segments -T "$T/good.ld.16" \
			--emit-relocs -o "$T/$1.elf" "$T/good.o" "$T/$1-note.o" ||
		{ echo "pack-errors: cannot build $1" >&2; exit 1; }
}
printf '%s\n' "$LDS16" >"$T/good.ld.16"
# -v's window line for a pack of ARGS...
window() { "$PACK" -v -o "$out" "$@" 2>&1 | sed -n 's/^image: [0-9]* bytes; //p'; }
kernel_cpp limits 'KSLIDE_KERNEL_NOTE_LIMITS KSLIDE_HANDOFF_KSLIDE, 0x4000000, 0x400000, 0, 0'
got=$(window "$T/limits.elf")
if [ "$got" = "base in [0x1000000, 0x4000000) aligned to 0x400000" ]; then
	ok "a note's end and alignment are the defaults (.S macro): $got"
else
	not_ok "a note's end and alignment are the defaults (.S macro)" "-v says: $got"
fi
expect_fail "--max beyond the note's end" \
	"--max 0x8000000 is beyond the kernel's own limit: its kslide note says it must end at or below 0x4000000 (64 MiB)" \
	--max 128M "$T/limits.elf"
expect_fail "--align below the note's" \
	"--align 0x200000 is below the alignment the kernel's kslide note asks for (0x400000)" \
	--align 2M "$T/limits.elf"
printf '#include "include/kslide/kernel.h"\nKSLIDE_KERNEL_NOTE_LIMITS(KSLIDE_HANDOFF_KSLIDE, 0x2000000, 0, 0, 0);\n' >"$T/cnote.c"
gcc -m32 -I"$ROOT" -c "$T/cnote.c" -o "$T/cnote.o" &&
	ld -m elf_i386 -nostdlib -z noexecstack -T "$T/good.ld.16" --emit-relocs \
		-o "$T/cnote.elf" "$T/good.o" "$T/cnote.o" || exit 1
got=$(window "$T/cnote.elf")
if [ "$got" = "base in [0x1000000, 0x2000000) aligned to 0x200000" ]; then
	ok "a note from the C macro bounds the window: $got"
else
	not_ok "a note from the C macro bounds the window" "-v says: $got"
fi
kernel_cpp ivirt 'KSLIDE_KERNEL_NOTE_LIMITS KSLIDE_HANDOFF_KSLIDE, 0, 0, 0xc0000000, 0'
expect_fail "an i386 note with a virtual window" \
	"its kslide note declares a virtual window, but an i386 kernel's virtual base follows its physical one" \
	"$T/ivirt.elf"
kernel_cpp below 'KSLIDE_KERNEL_NOTE_LIMITS KSLIDE_HANDOFF_KSLIDE, 0x1000000, 0, 0, 0'
expect_fail "a kernel linked beyond its own declared end" \
	"beyond the end its own kslide note declares (0x1000000): it could not run at its link address" \
	"$T/below.elf"
# note_of_version V: a kslide note header of version V with no more fields.
note_of_version() {
	printf '.pushsection .kslide.note, "", @note\n.balign 4\n.long 7, 8, KSLIDE_NOTE_KERNEL\n'
	printf '.asciz "kslide"\n.balign 4\n.long %s, 0\n.popsection\n' "$1"
}
kernel_cpp v3 "$(note_of_version 3)"
expect_fail "a note of a version to come" \
	"its kslide note is version 3; this kslide-pack reads 1 and 2" "$T/v3.elf"
kernel_cpp v2short "$(note_of_version 2)"
expect_fail "a version 2 note without its limits" \
	"its kslide note (version 2) is 8 bytes; that version has 40" "$T/v2short.elf"
# x86-64: a declared virtual window narrows the default one; an option cannot widen it.
printf '#include "include/kslide/kernel.h"\nKSLIDE_KERNEL_NOTE_LIMITS KSLIDE_HANDOFF_KSLIDE, 0, 0x400000, 0xffffffff80000000, 0xffffffffc0000000\n' >"$T/x64note.S"
gcc -m64 -I"$ROOT" -c "$T/x64note.S" -o "$T/x64note.o" &&
	ld -m elf_x86_64 -nostdlib -z noexecstack --no-warn-rwx-segments -T "$T/x64.ld" \
		--emit-relocs -o "$T/x64note.elf" "$T/x64.o" "$T/x64note.o" || exit 1
got=$("$PACK" -v -o "$out" "$T/x64note.elf" 2>&1 | grep '^image: virtual')
if [ "$got" = "image: virtual base in [0xffffffff80000000, 0xffffffffbfffffff] (last byte) aligned to 0x400000" ]; then
	ok "an x86-64 note narrows the virtual window: $got"
else
	not_ok "an x86-64 note narrows the virtual window" "-v says: $got"
fi
expect_fail "--virt-range beyond the note's window" \
	"--virt-range ends at 0xffffffffff000000, beyond the kernel's own limit: its kslide note says its virtual range ends at or below 0xffffffffc0000000" \
	--virt-range 0xffffffff80000000:0xffffffffff000000 "$T/x64note.elf"
expect_fail "--virt-align below the note's alignment" \
	"--virt-align 0x200000 is below the alignment the kernel's kslide note asks for (0x400000)" \
	--virt-align 2M "$T/x64note.elf"
# The reference kernels' own notes (kernel/boot_entry.c).
expect_fail "i386 reference kernel, --max 2G: its 896 MiB direct map" \
	"--max 0x80000000 is beyond the kernel's own limit: its kslide note says it must end at or below 0x38000000 (896 MiB)" \
	--max 2G "$KERNEL"
expect_fail "i386 reference kernel, --max 4G" "must end at or below 0x38000000 (896 MiB)" \
	--max 4G "$KERNEL"
expect_fail "x86-64 reference kernel, --max 65G: its 64 GiB direct map" \
	"--max 0x1040000000 is beyond the kernel's own limit: its kslide note says it must end at or below 0x1000000000 (64 GiB)" \
	--max 65G "$B/x86_64/kernel.elf"
expect_fail "x86-64 PIE, --virt-range over the direct map's window" \
	"--virt-range starts at 0xffff87ffffe00000, below the kernel's own limit: its kslide note says its virtual range starts at or above 0xffff880000000000" \
	--virt-range 0xffff87ffffe00000:0 "$B/x86_64/kernel-pie.elf"
if "$PACK" --virt-range 0xffff880000000000:0xffffffffff000000 -o "$out" "$B/x86_64/kernel-pie.elf" 2>"$T/stderr"; then
	ok "x86-64 PIE: the whole declared window may be asked for"
else
	not_ok "x86-64 PIE: the whole declared window" "refused"
fi
# Without its note the i386 kernel's fields still bound the window: its pointers into itself
# (0xc1...) pass 2^32 for bases around 1 GiB.
objcopy -R .kslide.note "$KERNEL" "$T/nonote.elf"
for max in 2G 4G; do
	expect_fail "i386 reference kernel without its note, --max $max: a field overflows" \
		"would overflow for the physical bases [0x40000000, " --max $max "$T/nonote.elf"
done
head -n 1 "$T/stderr" | grep -q 'a 32-bit field at payload offset 0x[0-9a-f]* (link address 0xc1[0-9a-f]*, holding 0xc1[0-9a-f]*).*lower --max to 0x3f[0-9a-f]*$' &&
	ok "... naming the field, its value and the bound: $(grep -o 'lower --max to .*' "$T/stderr")" ||
	not_ok "the field overflow message" "does not name the field, its value and the bound"

#### options kslide-pack cannot honour are named, not dropped ####
if "$PACK" --virt-align 4K --virt-range 0xffffffff80000000:0 -o "$out" "$G" 2>"$T/stderr" &&
	grep -q "warning: .*good.elf: --virt-align and --virt-range ignored: an i386 kernel's virtual base follows its physical one" "$T/stderr"; then
	ok "i386: --virt-align and --virt-range are named as ignored"
else
	not_ok "i386: --virt-align and --virt-range are named as ignored" "no warning"
fi
# expect_warning NAME WARNING ARGS...: the pack succeeds and stderr names what was not honoured.
expect_warning() {
	_name=$1 _warning=$2
	shift 2
	if "$PACK" -o "$out" "$@" >/dev/null 2>"$T/stderr" && grep -qF -- "$_warning" "$T/stderr"; then
		ok "$_name: $(grep -F -- "$_warning" "$T/stderr" | cut -c1-110)..."
	else
		not_ok "$_name" "no warning \"$_warning\""
	fi
}
expect_warning "an option given twice: the first value is named as dropped" \
	"warning: --min given more than once: the last, '32M', is used" --min 16M --min 32M "$G"
rm -f "$T/first.img" "$T/last.img"
if "$PACK" -o "$T/first.img" -o "$T/last.img" "$G" 2>"$T/stderr" &&
	grep -qF "warning: -o given more than once: the last, '$T/last.img', is used" "$T/stderr" &&
	[ -s "$T/last.img" ] && [ ! -e "$T/first.img" ]; then
	ok "-o given twice: the last path is written, the first named as dropped"
else
	not_ok "-o given twice" "no warning, or not the last path alone written"
fi
# The tiny kernel's few bytes grow in a zstd or LZ4 frame: asked for, done, and said.
for codec in zstd lz4; do
	expect_warning "--compress $codec on a kernel it cannot shrink" \
		"--compress $codec stored the" --compress "$codec" "$G"
done
if "$PACK" --compress zstd -o "$out" "$B/i386/kernel.elf" 2>"$T/stderr" && [ ! -s "$T/stderr" ]; then
	ok "--compress zstd that shrinks the reference kernel draws no warning"
else
	not_ok "--compress zstd on the reference kernel" "a warning or failure"
fi
kernel_cpp mbnote 'KSLIDE_KERNEL_NOTE_LIMITS KSLIDE_HANDOFF_MULTIBOOT, 0, 0, 0, 0'
expect_warning "--handoff overriding the kernel's kslide note is named" \
	"warning: the kernel's kslide note asks for --handoff multiboot; --handoff kslide overrides it" \
	--handoff kslide "$T/mbnote.elf"

#### Multiboot kernels as they are: the tutorial examples (make check builds them) ####
MB1_EXAMPLE=$B/examples/multiboot1/kernel-relocs.elf
MB64_EXAMPLE=$B/examples/multiboot2-x86_64/kernel-relocs.elf
# The x86-64 example: a low 32-bit entry and a higher half, two offsets, one delta.
if "$PACK" -v -o "$out" "$MB64_EXAMPLE" 2>"$T/stderr" &&
	grep -q '^image: single slide: the virtual base moves with the physical one; entered by the i386 stub' "$T/stderr" &&
	grep -q '^image: [0-9]* bytes; base in \[0x1000000, 0x40000000) aligned to 0x200000$' "$T/stderr"; then
	ok "x86-64 Multiboot kernel: one slide, by the i386 stub, in the 1 GiB it maps"
else
	not_ok "x86-64 Multiboot kernel" "not packed single-slide in [16 MiB, 1 GiB)"
fi
# --format efi: the x86-64 stub runs it (its EFI entry), leaving long mode to enter it.
if "$PACK" -v --format efi -o "$out" "$MB64_EXAMPLE" 2>"$T/stderr" &&
	grep -q '^image: single slide: the virtual base moves with the physical one; the x86-64 stub leaves long mode to enter it in 32-bit protected mode$' "$T/stderr" &&
	[ "$(head -c 2 "$out")" = MZ ]; then
	ok "x86-64 Multiboot kernel, --format efi: a PE, one slide, the x86-64 stub leaving long mode for it"
else
	not_ok "x86-64 Multiboot kernel, --format efi" "refused, or not a single-slide PE on the x86-64 stub"
fi
expect_fail "x86-64 Multiboot kernel with --format pvh" \
	"a Multiboot kernel starts from a Multiboot loader or UEFI firmware, not from a PVH monitor: --format multiboot or --format efi" \
	--format pvh "$MB64_EXAMPLE"
expect_fail "x86-64 Multiboot kernel with --handoff kslide" \
	"--handoff kslide enters an x86-64 kernel in long mode, but this one has a Multiboot header and no kslide note: its entry is 32-bit code for a Multiboot loader. Leave --handoff out" \
	--handoff kslide "$MB64_EXAMPLE"
# -v says what it found before the refusal: the kernel, its fixups, its segments' offsets.
"$PACK" -v --handoff kslide -o "$out" "$MB64_EXAMPLE" 2>"$T/stderr"
if [ $? -eq 1 ] && sed -n '1p' "$T/stderr" | grep -q '^kernel: link phys 0x200000 virt 0x200000,' &&
	grep -q '^fixups: [0-9]* 32-bit, [1-9][0-9]* 32-bit signed, [1-9][0-9]* 64-bit' "$T/stderr" &&
	grep -q '^segments: segments 0 and 1 have different virtual-to-physical offsets' "$T/stderr" &&
	tail -n 1 "$T/stderr" | grep -q '^kslide-pack: .*--handoff kslide enters an x86-64 kernel'; then
	ok "-v before a refusal: what kslide-pack found, then why it refuses"
else
	not_ok "-v before a refusal" "not the kernel's lines, then the refusal"
fi
# A Multiboot entry runs with paging off: a segment without PF_X (nasm's section without
# "exec", as in Dreamos64) is said, not refused.
kernel mbdataentry "$ASM_GOOD
	.globl value
	.section .multiboot, \"a\"
	.p2align 3
$(mb1 3)" "$LDS_SPLIT" --emit-relocs -e value
expect_warning "a Multiboot entry in a segment without PF_X" \
	"is not in the file bytes of an executable segment, only of one without PF_X; a Multiboot entry runs with paging off, where that mark means nothing: packed" \
	"$T/mbdataentry.elf"
expect_warning "i386 Multiboot kernel with --handoff kslide" \
	"--handoff kslide enters the kernel with EAX = KSLIDE_BOOT_MAGIC and kslide's boot info, but it has a Multiboot header and no kslide note" \
	--handoff kslide "$MB1_EXAMPLE"
# Its higher half lies at KERNEL_VMA + physical: 2 GiB is as far as it can go.
expect_fail "x86-64 Multiboot kernel with --max past 2 GiB" \
	"its segment at virtual 0xffffffff80201000 would end past the top of the address space at the highest base, 0xbfe00000: one slide moves it with the physical base; lower --max to 0x" \
	--max 3G "$MB64_EXAMPLE"
expect_warning "--kslide-tag with a handoff that passes no Multiboot 2 information" \
	"--kslide-tag ignored: only --handoff multiboot passes Multiboot 2 information on" \
	--kslide-tag "$G"
expect_warning "x86-64 Multiboot kernel: --virt-range means nothing" \
	"--virt-range ignored: a single-slide (Multiboot) kernel's virtual base follows its physical one" \
	--virt-range 0xffffffff80000000:0 "$MB64_EXAMPLE"

#### the output ####
mkdir "$T/outdir"
if "$PACK" -o "$T/outdir" "$G" 2>"$T/stderr"; [ $? -eq 1 ] &&
	grep -qF "kslide-pack: $T/outdir: cannot write: Is a directory" "$T/stderr" &&
	[ -d "$T/outdir" ] && [ -z "$(ls -A "$T/outdir")" ] && [ -z "$(ls -d "$T/outdir".tmp* 2>/dev/null)" ]; then
	ok "a directory as output: $(cat "$T/stderr")"
else
	not_ok "a directory as output" "expected exit 1 and \"cannot write: Is a directory\", nothing left"
fi
if "$PACK" -o "$T/no/such/dir/k.img" "$G" 2>"$T/stderr"; [ $? -eq 1 ] &&
	grep -qF "cannot create a temporary file beside it: No such file or directory" "$T/stderr"; then
	ok "output in a missing directory: $(cat "$T/stderr")"
else
	not_ok "output in a missing directory" "expected exit 1 and \"cannot create a temporary file\""
fi

# Only regular files are replaced: a device or a FIFO at the path is refused and stays.
# A device node of our own (the /dev/full numbers, 1:7, where mknod may make one): a packer
# that replaced it must not take the system's /dev/full with it.
dev=$T/full
mknod "$dev" c 1 7 2>/dev/null || dev=/dev/full
if "$PACK" -o "$dev" "$G" 2>"$T/stderr"; [ $? -eq 1 ] && [ -c "$dev" ] &&
	grep -qF "kslide-pack: $dev: a character device, not a regular file: kslide-pack replaces only regular files (-o - writes to standard output)" "$T/stderr" &&
	[ -z "$(ls -d "$dev".tmp* 2>/dev/null)" ]; then
	ok "-o a character device: refused, the device stays: $(cat "$T/stderr")"
else
	not_ok "-o a character device ($dev)" "not refused, or the device was replaced"
fi
mkfifo "$T/fifo-out"
if "$PACK" -o "$T/fifo-out" "$G" 2>"$T/stderr"; [ $? -eq 1 ] && [ -p "$T/fifo-out" ] &&
	grep -qF "fifo-out: a FIFO, not a regular file" "$T/stderr" &&
	[ -z "$(ls -d "$T/fifo-out".tmp* 2>/dev/null)" ]; then
	ok "-o FIFO: refused, the FIFO stays"
else
	not_ok "-o FIFO" "not refused, or the FIFO was replaced"
fi
"$PACK" -o "$T/file.img" "$G" 2>/dev/null
if "$PACK" --stats -o - "$G" >"$T/stdout.img" 2>"$T/stderr" && cmp -s "$T/file.img" "$T/stdout.img" &&
	grep -q 'bytes/relocation' "$T/stderr"; then
	ok "-o - writes the image to standard output, --stats to standard error"
else
	not_ok "-o -" "standard output differs from -o FILE, or the statistics are in it"
fi
if "$PACK" -o - "$G" >/dev/full 2>"$T/stderr"; [ $? -eq 1 ] &&
	grep -qF "kslide-pack: cannot write to standard output: No space left on device" "$T/stderr"; then
	ok "-o - onto a full device: $(cat "$T/stderr")"
else
	not_ok "-o - onto a full device" "expected exit 1 and the error"
fi
head -c 100 /dev/urandom >"$T/target.img"
ln -s target.img "$T/link.img"
if "$PACK" -o "$T/link.img" "$G" 2>"$T/stderr" && [ -L "$T/link.img" ] &&
	cmp -s "$T/file.img" "$T/target.img"; then
	ok "-o a symbolic link: the link stays, its target gets the image"
else
	not_ok "-o a symbolic link" "the link was replaced or its target not written"
fi
ln -s nowhere.img "$T/dangling.img"
if "$PACK" -o "$T/dangling.img" "$G" 2>"$T/stderr"; [ $? -eq 1 ] && [ -L "$T/dangling.img" ] &&
	[ ! -e "$T/nowhere.img" ] && grep -qF "a symbolic link to nothing" "$T/stderr"; then
	ok "-o a dangling symbolic link: refused"
else
	not_ok "-o a dangling symbolic link" "not refused, or something was written"
fi

#### --shuffle: function sections that cannot be proven safe to move are refused ####
# Two function sections (16-byte aligned, as gcc's): the entry in .text calls a, a calls b, b
# takes a's address, .data holds b's.
ASM_UNITS='
	.text
	.globl _start
_start:	call a
1:	hlt
	jmp 1b
	.section .text.a,"ax",@progbits
	.p2align 4
	.globl a
a:	call b
	ret
	.section .text.b,"ax",@progbits
	.p2align 4
	.globl b
b:	movl $a, %eax
	ret
	.data
	.long b
'
# ld --unique=.text.* puts them after .text; .data a page further on, in the same segment,
# leaves room.
LDS_UNITS='
ENTRY(_start)
PHDRS { all PT_LOAD FLAGS(7); }
SECTIONS {
	. = 0x100000;
	.text : { *(.text) } :all
	.data ALIGN(0x1000) + 0x1000 : { *(.data) } :all
}'
kernel shuffle-ok "$ASM_UNITS" "$LDS_UNITS" --emit-relocs --unique=.text.*
if "$PACK" --shuffle -o "$T/shuffle-ok.img" "$T/shuffle-ok.elf" 2>"$T/stderr"; then
	ok "--shuffle packs a kernel with two function sections and room after them"
else
	not_ok "--shuffle on a good kernel" "refused"
fi
expect_fail "--shuffle without function sections" "no separate function sections" \
	--shuffle "$T/good.elf"
kernel shuffle-one '
	.text
	.globl _start
_start:	call a
	.section .text.a,"ax",@progbits
	.globl a
a:	ret
' "$LDS_UNITS" --emit-relocs --unique=.text.*
expect_fail "--shuffle with one function section" "only one separate function section" \
	--shuffle "$T/shuffle-one.elf"
# .data right after them: no room for the worst order (each unit's padding up to 15 bytes).
kernel shuffle-cramped "$ASM_UNITS" "
ENTRY(_start)
SECTIONS { . = 0x100000; .text : { *(.text) } .data : { *(.data) } }" \
	--emit-relocs --unique=.text.*
expect_fail "--shuffle with no room after the function sections" \
	"in the worst order (each one's size plus its alignment less one)" \
	--shuffle "$T/shuffle-cramped.elf"
kernel shuffle-among "$ASM_UNITS" "
ENTRY(_start)
SECTIONS {
	. = 0x100000;
	.text : { *(.text) }
	.text.a : { *(.text.a) }
	.data : { *(.data) }
	.text.b : { *(.text.b) }
	. = . + 0x1000;
	.bss : { *(.bss) }
}" --emit-relocs
expect_fail "--shuffle with .data between function sections" \
	"section .data lies among the function sections" --shuffle "$T/shuffle-among.elf"
kernel shuffle-split "$ASM_UNITS" "
ENTRY(_start)
PHDRS { one PT_LOAD FLAGS(5); two PT_LOAD FLAGS(5); rw PT_LOAD FLAGS(6); }
SECTIONS {
	. = 0x100000;
	.text : { *(.text) } :one
	.text.a : { *(.text.a) } :one
	.text.b ALIGN(0x1000) : { *(.text.b) . += 0x1000; } :two
	.data ALIGN(0x1000) : { *(.data) } :rw
}" --emit-relocs
expect_fail "--shuffle with function sections in two segments" \
	"the function sections span more than one segment" --shuffle "$T/shuffle-split.elf"
# A 16-bit PC-relative reference to a function section: no type the shuffle (or the base
# relocation) can follow.
kernel shuffle-pc16 "$ASM_UNITS
	.word b - ." "$LDS_UNITS" --emit-relocs --unique=.text.*
expect_fail "--shuffle with an R_386_PC16 to a function section" \
	"unsupported relocation type R_386_PC16" --shuffle "$T/shuffle-pc16.elf"
# x86-64: the same two function sections in the higher half (R_X86_64_PLT32, _32S, _64), with
# a virtual base of its own, which the packer cannot bound from the physical window: refused
# once everything else is proven, from every container.
ASM_UNITS64='
	.text
	.globl _start
_start:	call a
1:	hlt
	jmp 1b
	.section .text.a,"ax",@progbits
	.p2align 4
	.globl a
a:	call b
	ret
	.section .text.b,"ax",@progbits
	.p2align 4
	.globl b
b:	movq $a, %rax
	ret
	.data
	.quad b
'
LDS_UNITS64='
ENTRY(_start)
PHDRS { all PT_LOAD FLAGS(7); }
SECTIONS {
	. = 0xffffffff81000000;
	.text : AT(0x1000000) { *(.text) } :all
	.data ALIGN(0x1000) + 0x1000 : AT(ADDR(.data) - 0xffffffff80000000) { *(.data) } :all
}'
kernel64 shuffle64 "$ASM_UNITS64" "$LDS_UNITS64" --emit-relocs --unique=.text.*
expect_fail "--shuffle on an x86-64 kernel with its own virtual base" \
	"an x86-64 kernel with a virtual base of its own is not shuffled" \
	--shuffle "$T/shuffle64.elf"
for f in efi pvh; do
	expect_fail "--shuffle --format $f on an x86-64 kernel with its own virtual base" \
		"an x86-64 kernel with a virtual base of its own is not shuffled" \
		--shuffle --format "$f" "$T/shuffle64.elf"
done
# A 64-bit PC-relative reference to a function section: the base relocation takes it (it
# names the kernel), the shuffle does not.
kernel64 shuffle64-pc64 "$ASM_UNITS64
	.quad b - ." "$LDS_UNITS64" --emit-relocs --unique=.text.*
expect_fail "--shuffle with an R_X86_64_PC64 to a function section" \
	"relocation type 24 at .data+0x8 names a function section; only R_X86_64_64, R_X86_64_32, R_X86_64_32S, R_X86_64_PC32 and R_X86_64_PLT32 are known" \
	--shuffle "$T/shuffle64-pc64.elf"
# A PC-relative field from fixed code that fits as linked but not once b moves up the page of
# room after it.
kernel64 shuffle64-far "$ASM_UNITS64
	.text
	.long b - . + 0x7ffff000" "$LDS_UNITS64" --emit-relocs --unique=.text.*
expect_fail "--shuffle with a PC-relative field some order overflows" \
	"could overflow 32 bits in some order of the function sections" \
	--shuffle "$T/shuffle64-far.elf"

# Each --format with each kernel the examples hold (make check builds them): only the i386
# stub's Multiboot image and the x86-64 stub's PE shuffle, and only a kernel that moves by
# one slide; every other pairing is refused before anything is written.
SHUFFLE32=$B/examples/shuffle-i386/kernel.elf SHUFFLE64=$B/examples/shuffle-x86_64/kernel.elf
if "$PACK" -v --shuffle --format efi -o "$out" "$SHUFFLE64" 2>"$T/stderr" &&
	grep -q '^image: single slide: .*the x86-64 stub leaves long mode' "$T/stderr" &&
	grep -q "^shuffle: [0-9]* function sections" "$T/stderr" && [ "$(head -c 2 "$out")" = MZ ]; then
	ok "--shuffle --format efi on examples/shuffle-x86_64: a PE for the x86-64 stub, one slide"
else
	not_ok "--shuffle --format efi on examples/shuffle-x86_64" "refused, or not a one-slide PE"
fi
expect_fail "--shuffle --format pvh on a one-slide x86-64 Multiboot kernel" \
	"a Multiboot kernel starts from a Multiboot loader or UEFI firmware, not from a PVH monitor" \
	--shuffle --format pvh "$SHUFFLE64"
for f in efi pvh; do
	expect_fail "--shuffle --format $f on an i386 kernel" \
		"the i386 stub has no $(echo "$f" | tr a-z A-Z) entry" --shuffle --format "$f" "$SHUFFLE32"
done
for f in multiboot efi pvh; do
	expect_fail "--shuffle --format $f on a static PIE" "--shuffle: static PIEs are not supported" \
		--shuffle --format "$f" "$B/x86_64/kernel-pie.elf"
done
if [ -e "$BZ64" ]; then
	expect_fail "--shuffle --format efi on a Linux bzImage" \
		"--shuffle: Linux's bzImage is not built with separate function sections" \
		--shuffle --format efi "$BZ64"
fi

echo "pack-errors: $passed passed, $failed failed"
[ $failed -eq 0 ]
