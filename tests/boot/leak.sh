#!/bin/sh
# The leak test, judged from the host: boot selftest=leak at several bases, with UMIP on
# (-cpu max) and off (-cpu qemu32), and require of the unprivileged process's view (its
# "leak:" lines) that
#   - it is byte for byte the same at every base (nothing in it depends on the slide),
#   - no number in it lies in the kernel image at that boot, virtual or physical, or equals
#     the slide,
#   - its unslid kallsyms are exactly the symbols of nm on kernel.elf,
#   - the %p hashes it sees are equal for equal pointers, new at every boot, and no address;
# and of the privileged reader that its raw kallsyms are nm's addresses plus the slide.
# One TAP line per check, then "leak: N passed, M failed".
# usage: leak.sh BUILD_DIR [BOOTS_PER_CPU]
set -u
here=$(cd "$(dirname "$0")" && pwd)
B=$1
boots=${2:-3}
elf=$B/i386/kernel.elf
work=$(mktemp -d "${TMPDIR:-/tmp}/kslide-leak.XXXXXX")
trap 'rm -rf "$work"' EXIT
: >"$work/hashes"
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

hex() { printf '%d' "$1"; } # 0x... to decimal (dash and bash both read 0x in $(( )))

in_image() { # in_image VALUE VIRT PHYS: VALUE lies in the image, virtually or physically
	v=$(hex "$1")
	{ [ "$v" -ge "$2" ] && [ "$v" -lt $(($2 + size)) ]; } ||
		{ [ "$v" -ge "$3" ] && [ "$v" -lt $(($3 + size)) ]; }
}

# nm's view of the image: every symbol inside [_kernel_start, _kernel_end], as the kernel
# prints them ("0xADDR T name"), sorted.
nm --defined-only "$elf" >"$work/nm.raw" || exit 2
start=$(awk '$3 == "_kernel_start" { print "0x" $1 }' "$work/nm.raw")
end=$(awk '$3 == "_kernel_end" { print "0x" $1 }' "$work/nm.raw")
[ -n "$start" ] && [ -n "$end" ] || { echo "leak: $elf: no _kernel_start/_kernel_end" >&2; exit 2; }
size=$(($(hex "$end") - $(hex "$start")))
while read -r addr type name; do
	case $type in [TtDdRrBb]) ;; *) continue ;; esac
	a=$(hex "0x$addr")
	[ "$a" -ge "$(hex "$start")" ] && [ "$a" -le "$(hex "$end")" ] || continue
	printf '0x%x %s %s\n' "$a" "$type" "$name"
done <"$work/nm.raw" | sort >"$work/nm"

# boot CPU INDEX: one boot into $work/CPU.INDEX.log; prints "virt phys" of the kslide line.
boot() {
	log=$work/$1.$2.log
	img=$B/i386/kernel.img
	[ "$2" = 0 ] && img=$B/i386/kernel-4k.img # one boot at 4 KiB alignment per CPU
	"$here/qemu-boot.sh" -c "$1" -m 1G -A selftest=leak -l "$log" \
		-e '^kslide-selftest: [0-9]+ passed, 0 failed' "$img" >/dev/null 2>"$work/err" ||
		{ cat "$work/err" >&2; return 1; }
	sed -n 's/^kslide: base=\(0x[0-9a-f]*\) phys=\(0x[0-9a-f]*\) .*/\1 \2/p' "$log" | tr -d '\r'
}

link=$(hex "$start")
for cpu in max qemu32; do
	umip=on
	[ "$cpu" = qemu32 ] && umip=off
	# Distinct bases, each moved from the link address by at least the image size, so that
	# link-time addresses (the unslid view) can never be mistaken for live ones.
	got=0 tries=0 bases="" seen=" "
	while [ "$got" -lt "$boots" ] && [ "$tries" -lt $((boots * 3)) ]; do
		tries=$((tries + 1))
		set -- $(boot "$cpu" "$got") ||
			{ result FAIL "$cpu: boot $got passes selftest=leak"; continue; }
		virt=$(hex "$1") phys=$(hex "$2")
		slide=$((virt - link))
		dist=${slide#-}
		case $seen in *" $virt "*) continue ;; esac
		[ "$dist" -ge "$size" ] || continue
		bases="$bases $1" seen="$seen$virt "
		echo "$virt $phys $slide" >"$work/$cpu.$got.base"
		got=$((got + 1))
	done
	[ "$got" -eq "$boots" ] && result OK "$cpu: $boots boots at distinct bases:$bases" ||
		result FAIL "$cpu: $boots boots at distinct bases (got $got)"

	i=0
	while [ "$i" -lt "$got" ]; do
		log=$work/$cpu.$i.log
		read -r virt phys slide <"$work/$cpu.$i.base"
		tr -d '\r' <"$log" >"$log.txt"
		grep '^leak: ' "$log.txt" >"$work/$cpu.$i.view"
		view=$work/$cpu.$i.view
		printf 'virt=0x%x slide=0x%x' "$virt" "$slide" >"$work/where"
		where=$(cat "$work/where")

		what="kernel reports umip=$umip, restrictions on"
		grep -q "^kernel: umip=$umip kptr_restrict=1 dmesg_restrict=1 " "$log.txt" &&
			result OK "$cpu boot $i ($where): $what" ||
			result FAIL "$cpu boot $i: $what"

		if [ "$i" -gt 0 ]; then
			what="$cpu boot $i: unprivileged view identical to boot 0"
			diff "$work/$cpu.0.view" "$view" >"$work/diff" &&
				result OK "$what ($(wc -l <"$view") lines)" ||
				result FAIL "$what" "$work/diff"
		fi

		# Every number in the view, hex or decimal, against this boot's image and slide.
		grep -oE '0x[0-9a-f]+|[0-9]+' "$view" | sort -u | while read -r tok; do
			if in_image "$tok" "$virt" "$phys" || [ "$(hex "$tok")" -eq "$slide" ]; then
				echo "$tok"
			fi
		done >"$work/hits"
		what="$cpu boot $i: no kernel address or slide in the view"
		[ ! -s "$work/hits" ] && result OK "$what" || result FAIL "$what" "$work/hits"

		sed -n 's/^leak: ksym-unslid //p' "$view" | sort >"$work/unslid"
		what="$cpu boot $i: unslid kallsyms = nm kernel.elf"
		diff "$work/nm" "$work/unslid" >"$work/diff" &&
			result OK "$what ($(wc -l <"$work/nm") symbols)" ||
			result FAIL "$what" "$work/diff"

		# The privileged reader's raw view: nm plus the slide, every symbol once.
		while read -r a t name; do
			printf '0x%x %s %s\n' $(($(hex "$a") + slide)) "$t" "$name"
		done <"$work/nm" | sort >"$work/nm-slid"
		sed -n 's/^priv: ksym \(0x\)/\1/p' "$log.txt" | grep -v '^0x0 ' | sort >"$work/priv"
		diff "$work/nm-slid" "$work/priv" >"$work/diff" &&
			result OK "$cpu boot $i: privileged kallsyms = nm + slide" ||
			result FAIL "$cpu boot $i: privileged kallsyms = nm + slide" "$work/diff"

		# "ptrhash: kernel_main=H again=H oops_count=H" as printed by the kernel.
		h=$(sed -n 's/^leak-hash: syslog ptrhash: //p' "$log.txt" | tr '=' ' ')
		set -- $h
		[ $# -eq 6 ] && set -- "$2" "$4" "$6"
		if [ $# -eq 3 ] && [ "$1" = "$2" ] && [ "$1" != "$3" ] &&
			! in_image "$1" "$virt" "$phys" && ! in_image "$3" "$virt" "$phys"; then
			result OK "$cpu boot $i: %p of kernel_main is $1: stable, no address"
			echo "$1" >>"$work/hashes"
		else
			result FAIL "$cpu boot $i: %p hash stable in the boot and no address ($h)"
		fi
		i=$((i + 1))
	done
done

total=$(wc -l <"$work/hashes")
distinct=$(sort -u "$work/hashes" | wc -l)
[ "$total" -gt 1 ] && [ "$distinct" -eq "$total" ] &&
	result OK "%p hashes differ across all $total boots (a new key each boot)" ||
	result FAIL "%p hashes differ across boots ($distinct distinct of $total)"

echo "leak: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
