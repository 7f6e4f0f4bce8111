# i386 boot cases: one per line, "name<TAB>qemu-boot.sh arguments". Sourced by matrix.sh,
# which sets $B (the build directory), $PAYLOAD_FLIPPED and $TABLE_FLIPPED (the image with one
# byte of its payload or of its relocation table flipped) and $MODULE, $BIG_MODULE (QEMU
# -initrd arguments: a module file and its crc32=).
img=$B/i386/kernel.img
img4k=$B/i386/kernel-4k.img
for cpu in 486 pentium qemu32 max; do
	for mem in 32M 128M 1G 3G; do
		printf 'cpu=%s mem=%s\t-c %s -m %s -e ^kernel:.self-check.passed %s\n' \
			"$cpu" "$mem" "$cpu" "$mem" "$img"
	done
done
cat <<CASES
selftest=wx, max: text and rodata read-only, SMEP and SMAP on, each fault raised	-c max -A selftest=wx -e ^kslide-selftest:.5.passed,.0.failed -e '^# smep=on smap=on' $img
selftest=wx, qemu32: text and rodata read-only, no SMEP or SMAP	-c qemu32 -A selftest=wx -e ^kslide-selftest:.5.passed,.0.failed -e '^# smep=off smap=off' $img
4 KiB alignment, 128M	-c qemu32 -m 128M -e align=0x1000. $img4k
4 KiB alignment, 1G, max	-c max -m 1G -e align=0x1000. $img4k
nokaslr keeps the link address	-m 1G -A nokaslr -e ^kslide:.nokaslr -e phys=0x1000000. -e not.randomized $img
no entropy source: boots, says predictable	-A kslide.entropy=none -e PREDICTABLE -e entropy=none.credited=0 $img
486 has no TSC or RDRAND	-c 486 -e entropy=pit,rtc.credited= $img
max answers RDRAND	-c max -A kslide.entropy=rdrand -e 'entropy=rdrand credited=[1-9]' $img
timing sources only (jitter not allowed), 17+ bits of bases: warned, kernel told	-c qemu32 -m 1G -A kslide.entropy=rdtsc,pit,rtc -e 'warning: [0-9]+ bits of entropy credited, fewer than the 17\.[0-9]+ bits of the possible bases' -e '^kernel: low entropy: [0-9]+ bits credited for [0-9]+ x 1 possible bases' $img4k
RDRAND's credit above the bits of the bases: no warning	-c max -m 1G -A kslide.entropy=rdrand -e 'slots=440 .*entropy=rdrand credited=64( |$)' -N 'bits of entropy credited' -N 'low entropy' $img
timing sources only, 8.78 bits of bases: warned exactly when short (credit-rule.py)	-c qemu32 -m 1G -e 'slots=440 .*entropy=rdtsc,pit,rtc(,jitter)? credited=' $img
SandyBridge has XSAVE but no RDRAND: RDRAND not tried	-c SandyBridge -e 'entropy=rdtsc,pit,rtc(,jitter)? credited=' $img
no RDRAND, 17+ bits of bases: jitter tops the credit up or says how far short (credit-rule.py)	-c qemu32 -m 1G -e 'entropy=rdtsc,pit,rtc,jitter credited=' $img4k
qemu64, jitter alone: collected from nothing up to the 8.78 bits of the bases or short by what it says (credit-rule.py)	-c qemu64 -m 1G -A kslide.entropy=jitter -e 'slots=440 .*entropy=jitter credited=' $img
selftest=reloc runs only that suite	-A selftest=reloc -e ^kslide-selftest:.7.passed,.0.failed $img
selftest=bootinfo runs only that suite	-A selftest=bootinfo -e ^kslide-selftest:.8.passed,.0.failed $img
selftest=leak: every secrecy check, from ring 3	-c max -A selftest=leak -e ^kslide-selftest:.17.passed,.0.failed -e '^kernel: umip=on kptr_restrict=1 dmesg_restrict=1 idt=0xff[c-f][0-9a-f]{2}000$' $img
selftest=leak at 1G: the ACPI tables mapped above lowmem for the kernel alone	-c max -m 1G -A selftest=leak -e ^kslide-selftest:.17.passed,.0.failed $img
selftest=leak without UMIP	-c qemu32 -A selftest=leak -e ^kslide-selftest:.17.passed,.0.failed -e '^kernel: umip=off kptr_restrict=1 dmesg_restrict=1 idt=0xff[c-f][0-9a-f]{2}000$' $img
nokaslr: kptr_restrict=0 dmesg_restrict=0, leak checks still hold	-A 'nokaslr selftest=leak' -e 'kptr_restrict=0 dmesg_restrict=0' -e ^kslide-selftest:.17.passed,.0.failed $img
nopti: ring 3 on the kernel's tables, and the closure and the audit say so	-F -A 'nopti selftest=leak' -e 'page-table isolation off' -e '^not ok 14 - leak: closure' -e '^not ok 15 - leak: user page-table audit' -e ^kslide-selftest:.15.passed,.2.failed $img
selftest=syscall_bench	-A 'selftest=syscall_bench syscall_bench.calls=100' -e 'syscall_bench: 100 getpid round trips, exit status 0x0' $img
panic_on_oops=1: the first guess at the kernel panics	-F -A selftest=panic_on_oops -e 'kernel panic: oops in pid [0-9]+ with panic_on_oops set' $img
oops_limit=2: the second guess panics, not the first	-F -A selftest=oops_limit -e 'one oops: still running' -e 'kernel panic: oops limit reached .2.' $img
unknown selftest fails the run	-F -A selftest=nosuch -e no.suite.named $img
module survives the move	-m 128M -I '$MODULE' -e 'module 0 at .* intact' $img
40 MiB module at -m 64M survives	-m 64M -c max -I '$BIG_MODULE' -e 'module 0 at .* intact' $img4k
kslide.phys= on an image packed with --debug-placement: that base	-m 1G -A kslide.phys=0x2a400000 -e '^kslide: debug placement: phys=0x2a400000, slot 330 of 440' -e '^kslide: base=0xea400000 phys=0x2a400000 slots=440 ' -e ^kernel:.self-check.passed -e not.randomized $B/i386/kernel-debug.img
kslide.phys= on an ordinary image: named, ignored, the base drawn	-m 1G -A kslide.phys=0x2a400000 -e '^kslide: kslide.phys= ignored: this image was not packed with --debug-placement' -N 'debug placement' -N 'not randomized' -e ^kernel:.self-check.passed $img
kslide.phys= that is no slot: refused, naming the slots	-H -m 1G -A kslide.phys=0x2a401000 -e 'kslide.phys=0x2a401000 is not a slot: the 440 slots are 0x200000-aligned bases in \[0x1000000, ' $B/i386/kernel-debug.img
payload byte flipped is refused	-H -e 'image rejected: checksum mismatch' $PAYLOAD_FLIPPED
relocation table byte flipped is refused	-H -e 'image rejected: checksum mismatch' $TABLE_FLIPPED
CASES
