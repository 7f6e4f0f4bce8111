#!/bin/bash
# The leak test, judged from the host: boot selftest=leak at several bases, with UMIP on
# (-cpu max) and off (i386: qemu32, x86-64: qemu64), on a machine of several CPUs (-smp 4),
# each boot running every process on the next CPU in turn (ring3_cpu=N: boot i on CPU i mod
# CPUS, which the kernel names with the APIC ID that CPU read of itself, QEMU's number for
# it), and require of the unprivileged process's view (its "leak:" lines) that
#   - it is byte for byte the same at every base and on every CPU (nothing in it depends on
#     the slide or the CPU; SGDT without UMIP shows the CPU's own GDT alias, checked against
#     what the kernel says it is and then compared as "the CPU's GDT"),
#   - no number in it lies in the kernel image at that boot, virtually or physically, or
#     equals the slide, nor (x86-64, where its base is drawn) in the direct map or equals the
#     direct map's offset in its window (the base the kernel prints, "direct map ADDR"),
#   - its unslid kallsyms are exactly the symbols of nm on kernel.elf,
#   - the %p hashes it sees are equal for equal pointers, new at every boot, and no address;
# and of the privileged reader that its raw kallsyms are nm's addresses plus the slide. With
# UMIP on and off the views may differ only where the five instructions are concerned.
# The entry area (kernel/secrecy/entry_area.h) moves at every boot: it must lie in its window, clear
# of the image, at distinct addresses across the boots, and the stubs' template in the ELF
# must hold no relocation (so no copy of it can hold an image address). Addresses inside
# it are written entry+OFFSET in the views before they are compared: SIDT shows it without
# UMIP, and the kernel's probe of it shows up in the syslog.
# One TAP line per check, then "leak: N passed, M failed".
#
# bash, not sh: x86-64 addresses exceed 2^63, which dash clamps and bash wraps; every
# comparison below is of a difference, which wrapping keeps right.
# usage: leak.sh [-a i386|x86_64] [-k KERNEL] [-S CPUS] [-c CODEC] BUILD_DIR [BOOTS_PER_CPU_MODEL]
#   -k KERNEL  which build of the arch: BUILD_DIR/ARCH/KERNEL.elf and its images KERNEL.img
#              and KERNEL-4k.img (default kernel; x86-64 also has kernel-pie)
#   -S CPUS    the machine's CPUs (default 4); BOOTS_PER_CPU_MODEL of at least CPUS runs
#              processes on each of them
#   -c CODEC   boot the compressed copies KERNEL-CODEC.img and KERNEL-4k-CODEC.img (zstd,
#              lz4; mk/compress.mk) instead: the same kernel, decoded by the stub
set -u
here=$(cd "$(dirname "$0")" && pwd)
arch=i386 kernel=kernel smp=4
[ "${1:-}" = -a ] && { arch=$2; shift 2; }
[ "${1:-}" = -k ] && { kernel=$2; shift 2; }
[ "${1:-}" = -S ] && { smp=$2; shift 2; }
codec=""
[ "${1:-}" = -c ] && { codec=-$2; shift 2; }
B=$1
boots=${2:-4}
elf=$B/$arch/$kernel.elf
cpus="max qemu32"
window_start=0xffc00000 window_end=0xfffff000 # kernel/i386/layout.h ENTRY_WINDOW_*
# x86-64's direct map: its window's start and its span (kernel/x86_64/layout.h DIRECT_MAP_*);
# i386's is fixed, its addresses no secret.
dmap_window=""
dmap_span=0x1000000000
# At 1G QEMU's ACPI tables lie above the i386 kernel's 896 MiB direct map: the APs are found
# through its physical-memory window (kernel/mm/phys_map.c).
mem=1G
if [ "$arch" = x86_64 ]; then
	cpus="max qemu64"
	window_start=0xffffffffff000000 window_end=0xfffffffffffff000
	dmap_window=0xffff800000000000
	mem=1G
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-leak.XXXXXX")
trap 'rm -rf "$work"' EXIT
: >"$work/hashes"
: >"$work/ring3-cpus"
: >"$work/entries"
: >"$work/dmaps"
passed=0 failed=0 n=0

result() { # result OK|FAIL description [details file]
	n=$((n + 1))
	if [ "$1" = OK ]; then
		passed=$((passed + 1))
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
		[ -n "${3:-}" ] && [ -s "$3" ] && head -n 20 "$3" | sed 's/^/#  /'
	fi
}

# in_range VALUE BASE: BASE <= VALUE < BASE + size, for any 64-bit values
in_range() {
	local d=$(($1 - $2))
	[ "$d" -ge 0 ] && [ "$d" -lt "$size" ]
}

# nm's view of the image: every symbol inside [_kernel_start, _kernel_end], as the kernel
# prints them ("0xADDR T name"), sorted.
nm --defined-only "$elf" >"$work/nm.raw" || exit 2
start=$(awk '$3 == "_kernel_start" { print "0x" $1 }' "$work/nm.raw")
end=$(awk '$3 == "_kernel_end" { print "0x" $1 }' "$work/nm.raw")
[ -n "$start" ] && [ -n "$end" ] || { echo "leak: $elf: no _kernel_start/_kernel_end" >&2; exit 2; }
size=$((end - start))
while read -r addr type name; do
	case $type in [TtDdRrBb]) ;; *) continue ;; esac
	d=$((0x$addr - start))
	[ "$d" -ge 0 ] && [ "$d" -le "$size" ] || continue
	printf '0x%x %s %s\n' "$((0x$addr))" "$type" "$name"
done <"$work/nm.raw" | sort >"$work/nm"

# The stubs' template, [entry_text_start, entry_text_end): no relocation record of the link
# (--emit-relocs keeps them all, the PIE's dynamic ones too) may fall inside it.
text_start=$(awk '$3 == "entry_text_start" { print "0x" $1 }' "$work/nm.raw")
text_end=$(awk '$3 == "entry_text_end" { print "0x" $1 }' "$work/nm.raw")
what="the entry stubs' template holds no relocation"
if [ -n "$text_start" ] && [ -n "$text_end" ]; then
	readelf -rW "$elf" | awk '/^[0-9a-f]+ +[0-9a-f]+ / { print "0x" $1 }' | while read -r off; do
		d=$((off - text_start))
		[ "$d" -ge 0 ] && [ "$d" -lt $((text_end - text_start)) ] && echo "$off"
	done >"$work/template-relocs"
	[ ! -s "$work/template-relocs" ] &&
		result OK "$what ($((text_end - text_start)) bytes)" ||
		result FAIL "$what" "$work/template-relocs"
else
	result FAIL "$what (no entry_text_start/entry_text_end in $elf)"
fi

# normalize FILE BASE BYTES: each address in [BASE, BASE + BYTES) becomes entry+0xOFFSET.
normalize() {
	local tok d
	for tok in $(grep -oE '0x[0-9a-f]+' "$1" | sort -u); do
		d=$((tok - $2))
		[ "$d" -ge 0 ] && [ "$d" -lt "$3" ] &&
			sed -i "s/\b$tok\b/entry+$(printf 0x%x "$d")/g" "$1"
	done
}

# One boot per CPU at 4 KiB alignment: a missing image is a failure, not a quiet skip.
img4k=$B/$arch/$kernel-4k$codec.img
[ -f "$img4k" ] && result OK "$img4k is there for the 4 KiB boots" ||
	result FAIL "$img4k is missing: the first boot per CPU is at 2 MiB instead (make check builds it)"

# boot CPU INDEX RING3: one boot into $work/CPU.INDEX.log, every process on CPU RING3; prints
# "virt phys vslide pslide".
boot() {
	local log=$work/$1.$2.log img=$B/$arch/$kernel$codec.img
	[ "$2" = 0 ] && [ -f "$img4k" ] && img=$img4k
	"$here/qemu-boot.sh" -a "$arch" -c "$1" -m "$mem" -S "$smp" -t 60 \
		-A "selftest=leak ring3_cpu=$3" -l "$log" \
		-e '^kslide-selftest: [0-9]+ passed, 0 failed' "$img" >/dev/null 2>"$work/err" ||
		{ cat "$work/err" >&2; return 1; }
	tr -d '\r' <"$log" >"$log.txt"
	local virt phys slide vslide
	virt=$(sed -n 's/^kslide: base=\(0x[0-9a-f]*\) .*/\1/p' "$log.txt")
	phys=$(sed -n 's/^kslide: .* phys=\(0x[0-9a-f]*\) .*/\1/p' "$log.txt")
	slide=$(sed -n 's/^kernel: running at .* slide=\(0x[0-9a-f]*\).*/\1/p' "$log.txt")
	vslide=$(sed -n 's/^kernel: running at .* vslide=\(0x[0-9a-f]*\).*/\1/p' "$log.txt")
	echo "$virt $phys ${vslide:-$slide} $slide"
}

for cpu in $cpus; do
	umip=on
	[ "$cpu" = max ] || umip=off
	# Distinct bases, each moved from the link address by at least the image size, so that
	# link-time addresses (the unslid view) can never be mistaken for live ones.
	got=0 tries=0 bases="" seen=" "
	while [ "$got" -lt "$boots" ] && [ "$tries" -lt $((boots * 3)) ]; do
		tries=$((tries + 1))
		set -- $(boot "$cpu" "$got" $((got % smp)))
		[ $# -eq 4 ] || { result FAIL "$cpu: boot $got passes selftest=leak"; continue; }
		case $seen in *" $1 "*) continue ;; esac
		in_range "$start" "$1" || in_range "$1" "$start" && continue
		bases="$bases $1" seen="$seen$1 "
		echo "$@" >"$work/$cpu.$got.base"
		got=$((got + 1))
	done
	what="$cpu: $boots boots at distinct bases"
	[ "$got" -eq "$boots" ] && result OK "$what:$bases" || result FAIL "$what (got $got)"

	for ((i = 0; i < got; i++)); do
		log=$work/$cpu.$i.log
		read -r virt phys vslide pslide <"$work/$cpu.$i.base"
		view=$work/$cpu.$i.view
		grep '^leak: ' "$log.txt" >"$view.raw"
		where="base=$virt"

		# "kernel: entry area ADDR, N pages, ..." and the status line's idt=ADDR.
		entry=$(sed -n 's/^kernel: entry area \(0x[0-9a-f]*\), \([0-9]*\) pages.*/\1 \2/p' "$log.txt")
		set -- $entry
		idt=$(sed -n 's/^kernel: umip=.* idt=\(0x[0-9a-f]*\)$/\1/p' "$log.txt")
		what="$cpu boot $i: entry area in its window, clear of the image, the IDT in it"
		if [ $# -eq 2 ] && [ -n "$idt" ] && [ $((idt - $1)) -eq 0 ] &&
			[ $(($1 - window_start)) -ge 0 ] &&
			[ $((window_end - $1)) -ge $(($2 * 4096)) ] &&
			! in_range "$1" "$virt" && ! in_range "$virt" "$1"; then
			result OK "$what ($1)"
			echo "$1" >>"$work/entries"
			cp "$view.raw" "$view"
			normalize "$view" "$1" $(($2 * 4096))
		else
			result FAIL "$what (entry area '$entry', idt '$idt')"
			cp "$view.raw" "$view"
		fi

		what="kernel reports umip=$umip, restrictions on"
		grep -q "^kernel: umip=$umip kptr_restrict=1 dmesg_restrict=1 " "$log.txt" &&
			result OK "$cpu boot $i ($where): $what" ||
			result FAIL "$cpu boot $i: $what"

		# "selftest: ring 3 on cpu N, APIC ID A, gdt=ADDR": the CPU asked for, by QEMU's
		# number for it; without UMIP, SGDT in the view is its GDT, which the comparison
		# across boots (and so CPUs) then takes as "the CPU's GDT".
		ring3=$((i % smp))
		pinned=$(sed -n 's/^selftest: ring 3 on cpu \([0-9]*\), APIC ID \([0-9]*\), gdt=\(0x[0-9a-f]*\)$/\1 \2 \3/p' "$log.txt")
		set -- $pinned
		what="$cpu boot $i: every process on cpu $ring3, APIC ID $ring3"
		if [ $# -eq 3 ] && [ "$1" = "$ring3" ] && [ "$2" = "$ring3" ]; then
			result OK "$what"
			echo "$cpu $1" >>"$work/ring3-cpus"
			gdt=$3
		else
			result FAIL "$what (the kernel says '$pinned')"
			gdt=none
		fi
		sgdt=$(sed -n 's/^leak: sgdt base=\(0x[0-9a-f]*\) .*/\1/p' "$view.raw")
		what="$cpu boot $i: SGDT from ring 3 is its CPU's GDT alias, or faults under UMIP"
		if { [ "$umip" = on ] && [ -z "$sgdt" ]; } ||
			{ [ "$umip" = off ] && [ "$sgdt" = "$gdt" ]; }; then
			result OK "$what${sgdt:+ ($sgdt)}"
		else
			result FAIL "$what (SGDT '$sgdt', the kernel's '$gdt')"
		fi
		sed -i 's/^leak: sgdt base=[^ ]*/leak: sgdt base=(the CPU'"'"'s GDT)/' "$view"

		if [ "$i" -gt 0 ]; then
			what="$cpu boot $i: unprivileged view identical to boot 0"
			diff "$work/$cpu.0.view" "$view" >"$work/diff" &&
				result OK "$what ($(wc -l <"$view") lines)" ||
				result FAIL "$what" "$work/diff"
		fi

		# Every number in the view, hex or decimal, against this boot's image and slides. A
		# slide of 0 (the base drawn at the link address, physical or virtual: a slot like any)
		# is not looked for: every view holds zeros that say nothing of it.
		dmap=$(sed -n 's/^kernel: entry area .*, direct map \(0x[0-9a-f]*\)$/\1/p' "$log.txt")
		if [ -n "$dmap_window" ]; then
			what="$cpu boot $i: the kernel names its direct map's base"
			[ -n "$dmap" ] && result OK "$what ($dmap)" || result FAIL "$what"
			echo "$dmap" >>"$work/dmaps"
		fi
		grep -oE '0x[0-9a-f]+|[0-9]+' "$view.raw" | sort -u | while read -r tok; do
			case $tok in 0x*) ;; *) tok=$((10#$tok)) ;; esac
			if in_range "$tok" "$virt" || in_range "$tok" "$phys" ||
				{ [ $((vslide)) -ne 0 ] && [ $((tok - vslide)) -eq 0 ]; } ||
				{ [ $((pslide)) -ne 0 ] && [ $((tok - pslide)) -eq 0 ]; } ||
				{ [ -n "$dmap_window" ] && [ -n "$dmap" ] &&
					{ { [ $((tok - dmap)) -ge 0 ] && [ $((tok - dmap)) -lt $((dmap_span)) ]; } ||
						{ [ $((dmap - dmap_window)) -ne 0 ] &&
							[ $((tok - (dmap - dmap_window))) -eq 0 ]; }; }; }; then
				echo "$tok"
			fi
		done >"$work/hits"
		what="$cpu boot $i: no kernel address or slide in the view${dmap_window:+, nothing of the direct map}"
		[ ! -s "$work/hits" ] && result OK "$what" || result FAIL "$what" "$work/hits"

		sed -n 's/^leak: ksym-unslid //p' "$view" | sort >"$work/unslid"
		what="$cpu boot $i: unslid kallsyms = nm $kernel.elf"
		diff "$work/nm" "$work/unslid" >"$work/diff" &&
			result OK "$what ($(wc -l <"$work/nm") symbols)" ||
			result FAIL "$what" "$work/diff"

		# The privileged reader's raw view: nm plus the slide, every symbol once.
		while read -r a t name; do
			printf '0x%x %s %s\n' $((a + vslide)) "$t" "$name"
		done <"$work/nm" | sort >"$work/nm-slid"
		sed -n 's/^priv: ksym \(0x\)/\1/p' "$log.txt" | grep -v '^0x0 ' | sort >"$work/priv"
		diff "$work/nm-slid" "$work/priv" >"$work/diff" &&
			result OK "$cpu boot $i: privileged kallsyms = nm + slide" ||
			result FAIL "$cpu boot $i: privileged kallsyms = nm + slide" "$work/diff"

		# "ptrhash: kernel_main=H again=H oops_count=H" as printed by the kernel.
		h=$(sed -n 's/^leak-hash: syslog ptrhash: //p' "$log.txt" | tr '=' ' ')
		set -- $h
		[ $# -eq 6 ] && set -- "$2" "$4" "$6"
		# No address: neither hash is its pointer (virtual or physical), and they do not both
		# lie inside the kernel, as hashes that keep a pointer's high bits would. One of them
		# may, by chance: a 32-bit hash lands in a 2 MiB kernel once in 2,000 draws, which says
		# nothing of the pointer.
		kmain=$(awk '$3 == "kernel_main" { print $1 }' "$work/nm-slid")
		oops=$(awk '$3 == "oops_count" { print $1 }' "$work/nm-slid")
		in_kernel() { in_range "$1" "$virt" || in_range "$1" "$phys"; }
		if [ $# -eq 3 ] && [ "$1" = "$2" ] && [ "$1" != "$3" ] &&
			[ -n "$kmain" ] && [ -n "$oops" ] &&
			[ $(($1)) -ne $((kmain)) ] && [ $(($1)) -ne $((kmain - virt + phys)) ] &&
			[ $(($3)) -ne $((oops)) ] && [ $(($3)) -ne $((oops - virt + phys)) ] &&
			! { in_kernel "$1" && in_kernel "$3"; }; then
			result OK "$cpu boot $i: %p of kernel_main is $1: stable, no address"
			echo "$1" >>"$work/hashes"
		else
			result FAIL "$cpu boot $i: %p hash stable in the boot and no address ($h)"
		fi
	done
done

# Every CPU ran some boot's processes, under each CPU model.
for cpu in $cpus; do
	want=$(seq 0 $((smp - 1)) | tr '\n' ' ')
	ran=$(sed -n "s/^$cpu //p" "$work/ring3-cpus" | sort -un | tr '\n' ' ')
	what="$cpu: ring 3 ran on every one of the $smp CPUs (the views above agree)"
	[ "$ran" = "$want" ] && result OK "$what" || result FAIL "$what (ran on: ${ran:-none})"
done

# UMIP may change what the five instructions do and nothing else.
set -- $cpus
umip_lines='^leak: (exit )?(sidt|sgdt|sldt|str|smsw) |general protection'
what="UMIP on and off: the views differ only in the five instructions"
if [ -f "$work/$1.0.view" ] && [ -f "$work/$2.0.view" ]; then
	grep -vE "$umip_lines" "$work/$1.0.view" >"$work/on"
	grep -vE "$umip_lines" "$work/$2.0.view" >"$work/off"
	diff "$work/on" "$work/off" >"$work/diff" && result OK "$what ($(wc -l <"$work/on") lines)" ||
		result FAIL "$what" "$work/diff"
else
	result FAIL "$what: no view from the first boot with -cpu $1 or -cpu $2 to compare"
fi

total=$(wc -l <"$work/entries")
distinct=$(sort -u "$work/entries" | wc -l)
[ "$total" -gt 1 ] && [ "$distinct" -ge $((total - 1)) ] &&
	result OK "entry area at $distinct distinct addresses over $total boots" ||
	result FAIL "entry area moves between boots ($distinct distinct of $total)"

# The direct map's base is drawn at every boot too: over 8129 slots two boots of a run share
# one about once in 8129 / (boots choose 2) runs, so one repeat is allowed, no more.
if [ -n "$dmap_window" ]; then
	total=$(wc -l <"$work/dmaps")
	distinct=$(sort -u "$work/dmaps" | wc -l)
	[ "$total" -gt 1 ] && [ "$distinct" -ge $((total - 1)) ] &&
		result OK "direct map at $distinct distinct bases over $total boots" ||
		result FAIL "direct map moves between boots ($distinct distinct of $total)"
fi

total=$(wc -l <"$work/hashes")
distinct=$(sort -u "$work/hashes" | wc -l)
[ "$total" -gt 1 ] && [ "$distinct" -eq "$total" ] &&
	result OK "%p hashes differ across all $total boots (a new key each boot)" ||
	result FAIL "%p hashes differ across boots ($distinct distinct of $total)"

echo "leak: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
