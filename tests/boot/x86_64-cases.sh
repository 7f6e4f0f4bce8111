# x86-64 boot cases, in the format of i386-cases.sh (sourced by matrix.sh, which also sets
# $PAYLOAD_FLIPPED64 and $TABLE_FLIPPED64, the -mcmodel=kernel image with one byte of its
# payload or of its relocation table flipped, and $PVH_PAYLOAD_FLIPPED and $PVH_STUB_FLIPPED,
# its PVH image with a byte of its payload or of its stub flipped). Both layouts: the
# -mcmodel=kernel kernel in the top 2 GiB and the PIE anywhere in the upper half.
img=$B/x86_64/kernel.img
pie=$B/x86_64/kernel-pie.img
a="-a x86_64"
pass="-e ^kernel:.self-check.passed -e vslots=[1-9]"
for cpu in qemu64 max; do
	for mem in 128M 1G 6G; do
		printf 'kernel model, cpu=%s mem=%s\t%s -c %s -m %s %s -e base=0xffffffff %s\n' \
			"$cpu" "$mem" "$a" "$cpu" "$mem" "$pass" "$img"
		printf 'PIE, cpu=%s mem=%s\t%s -c %s -m %s %s -e base=0xffff[89a-f] %s\n' \
			"$cpu" "$mem" "$a" "$cpu" "$mem" "$pass" "$pie"
	done
done
# PVH (kslide-pack --format pvh): QEMU finds no Multiboot header and loads the ELF by its PVH
# note, under pc (its PVH option ROM) and microvm (qboot), and the stub reads the map from the
# hvm_start_info (map=memmap).
microvm="-M microvm,x-option-roms=off,isa-serial=on,rtc=on"
pvh_pass="$pass -e ^kslide:.loader=.*.map=memmap"
for machine in pc microvm; do
	m=""
	[ $machine = microvm ] && m=$microvm
	printf 'PVH, %s, kernel model\t%s -c max -m 1G %s %s -e base=0xffffffff %s\n' \
		"$machine" "$a" "$m" "$pvh_pass" "$B/x86_64/kernel-pvh.img"
	printf 'PVH, %s, PIE at 6G\t%s -c max -m 6G %s %s -e base=0xffff[89a-f] %s\n' \
		"$machine" "$a" "$m" "$pvh_pass" "$B/x86_64/kernel-pie-pvh.img"
	printf 'PVH, %s, PIE stored with --compress zstd\t%s -m 1G %s %s %s\n' \
		"$machine" "$a" "$m" "$pvh_pass" "$B/x86_64/kernel-pie-pvh-zstd.img"
done
cat <<CASES
PVH, pc: the initrd (the start info's module) is avoided	$a -m 128M -I '$MODULE_FILE' -A selftest=bootinfo -e '^ok [0-9]+ - bootinfo: kernel overlaps neither the stub, the command line nor a module' -e ^kslide-selftest:.8.passed,.0.failed $pvh_pass $B/x86_64/kernel-pie-pvh.img
PVH, pc: the command line arrives	$a -m 1G -A nokaslr -e base=0xffffffff81000000. -e not.randomized $pvh_pass $B/x86_64/kernel-pvh.img
PVH, pc: payload byte flipped is refused, and the machine reset	$a -m 1G -H -e 'image rejected: checksum mismatch' $PVH_PAYLOAD_FLIPPED
PVH, microvm: a stub byte flipped is refused by the self-check, and the machine reset	$a -m 1G $microvm -H -e 'the stub is corrupt' $PVH_STUB_FLIPPED
kernel model, 4 KiB alignment	$a -c max -m 1G $pass -e align=0x1000. $B/x86_64/kernel-4k.img
PIE, 4 KiB alignment	$a -m 1G $pass -e align=0x1000. $B/x86_64/kernel-pie-4k.img
kernel above 4 GiB (packed with --min 4G)	$a -m 6G $pass -e 'phys=0x1[0-9a-f]{8} ' $B/x86_64/kernel-high.img
kernel model: nokaslr keeps both link addresses	$a -m 1G -A nokaslr -e base=0xffffffff81000000. -e phys=0x1000000. -e not.randomized $img
PIE: nokaslr keeps both link addresses	$a -m 1G -A nokaslr -e base=0xffffffff81000000. -e phys=0x1000000. -e not.randomized $pie
no entropy source: boots, says predictable	$a -A kslide.entropy=none -e PREDICTABLE -e entropy=none.credited=0 $pie
qemu64: no RDRAND, timer jitter tops the credit up to the 18.96 bits of the bases or says how far short (credit-rule.py)	$a -c qemu64 -m 1G -e 'slots=504 vslots=1016 .*entropy=rdtsc,pit,rtc,jitter credited=' $img
qemu64, timing sources only (jitter not allowed), 18.96 bits of bases: warned	$a -c qemu64 -m 1G -A kslide.entropy=rdtsc,pit,rtc -e 'warning: [0-9]+ bits of entropy credited, fewer than the 18\.96 bits of the possible bases' -e '^kernel: low entropy: [0-9]+ bits credited for 504 x 1016 possible bases' $img
qemu64, jitter alone: collected from nothing, judged the same	$a -c qemu64 -m 1G -A kslide.entropy=jitter -e 'slots=504 vslots=1016 .*entropy=jitter credited=' $img
max: jitter allowed but RDRAND answered, so none collected	$a -c max -m 1G -A kslide.entropy=rdrand,jitter -e 'entropy=rdrand credited=64( |$)' $img
max: RDRAND's credit covers the bases, no warning	$a -c max -m 1G -e 'entropy=rdrand,[a-z,]* credited=' -N 'bits of entropy credited' -N 'low entropy' $img
selftest=reloc, kernel model	$a -A selftest=reloc -e ^kslide-selftest:.7.passed,.0.failed $img
selftest=reloc, PIE	$a -A selftest=reloc -e ^kslide-selftest:.7.passed,.0.failed $pie
selftest=paging, kernel model	$a -A selftest=paging -e ^kslide-selftest:.4.passed,.0.failed $img
selftest=paging, PIE at 6G	$a -m 6G -A selftest=paging -e ^kslide-selftest:.4.passed,.0.failed $pie
selftest=wx, kernel model, max: W^X, SMEP and SMAP on, each fault raised	$a -c max -A selftest=wx -e ^kslide-selftest:.7.passed,.0.failed -e '^# smep=on smap=on' $img
selftest=wx, PIE at 6G, qemu64: W^X, no SMEP or SMAP	$a -c qemu64 -m 6G -A selftest=wx -e ^kslide-selftest:.7.passed,.0.failed -e '^# smep=off smap=off' $pie
selftest=leak, kernel model: every secrecy check, from ring 3	$a -c max -A selftest=leak -e ^kslide-selftest:.16.passed,.0.failed -e '^kernel: umip=on kptr_restrict=1 dmesg_restrict=1 idt=0xffffffffff[0-9a-f]{3}000$' $img
selftest=leak, PIE, no UMIP	$a -c qemu64 -A selftest=leak -e ^kslide-selftest:.16.passed,.0.failed -e '^kernel: umip=off kptr_restrict=1 dmesg_restrict=1 idt=0xffffffffff[0-9a-f]{3}000$' $pie
nokaslr: kptr_restrict=0 dmesg_restrict=0, leak checks still hold	$a -A 'nokaslr selftest=leak' -e 'kptr_restrict=0 dmesg_restrict=0' -e ^kslide-selftest:.16.passed,.0.failed $pie
nopti: ring 3 on the kernel's tables, and the closure and the audit say so	$a -F -A 'nopti selftest=leak' -e 'page-table isolation off' -e '^not ok 14 - leak: closure' -e '^not ok 15 - leak: user page-table audit' -e ^kslide-selftest:.14.passed,.2.failed $img
selftest=syscall_bench, PIE	$a -A 'selftest=syscall_bench syscall_bench.calls=100' -e 'syscall_bench: 100 getpid round trips, exit status 0x0' $pie
panic_on_oops=1: the first guess at the kernel panics	$a -F -A selftest=panic_on_oops -e 'kernel panic: oops in pid [0-9]+ with panic_on_oops set' $img
oops_limit=2: the second guess panics, not the first	$a -F -A selftest=oops_limit -e 'one oops: still running' -e 'kernel panic: oops limit reached .2.' $pie
selftest=bootinfo	$a -A selftest=bootinfo -e ^kslide-selftest:.8.passed,.0.failed $pie
module survives the move	$a -m 128M -I '$MODULE' -e 'module 0 at .* intact' $pie
40 MiB module at -m 64M survives	$a -m 64M -c max -I '$BIG_MODULE' -e 'module 0 at .* intact' $B/x86_64/kernel-4k.img
kslide.phys= and kslide.virt= on an image packed with --debug-placement: those bases	$a -m 1G -A 'kslide.phys=0x2a400000 kslide.virt=0xffffffff90000000' -e '^kslide: debug placement: phys=0x2a400000, slot' -e '^kslide: debug placement: virt=0xffffffff90000000, slot' -e '^kslide: base=0xffffffff90000000 phys=0x2a400000 ' $pass $B/x86_64/kernel-debug.img
kslide.phys= alone: the virtual base still drawn	$a -m 1G -A kslide.phys=0x2a400000 -e '^kslide: base=0xffffffff[0-9a-f]{8} phys=0x2a400000 ' -N 'debug placement: virt=' $pass $B/x86_64/kernel-debug.img
kslide.virt= alone: the physical base drawn, the boot a debug placement	$a -m 1G -A kslide.virt=0xffffffff90000000 -e '^kslide: debug placement: virt=0xffffffff90000000, slot' -N 'debug placement: phys=' -e '^kslide: base=0xffffffff90000000 phys=' $pass -e 'not randomized' $B/x86_64/kernel-debug.img
kslide.phys= and kslide.virt= on an ordinary image: named, ignored	$a -m 1G -A 'kslide.phys=0x2a400000 kslide.virt=0xffffffff90000000' -e '^kslide: kslide.phys= ignored: this image was not packed' -e '^kslide: kslide.virt= ignored: this image was not packed' -N 'debug placement' $pass $img
payload byte flipped is refused	$a -H -e 'image rejected: checksum mismatch' $PAYLOAD_FLIPPED64
relocation table byte flipped is refused	$a -H -e 'image rejected: checksum mismatch' $TABLE_FLIPPED64
a CPU without long mode gets a message	$a -c qemu32 -H -e no.long.mode $img
CASES
