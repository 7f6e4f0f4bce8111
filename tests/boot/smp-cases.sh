# selftest=smp boot cases (for matrix.sh, which sets $B): every reference kernel (i386, the
# x86-64 kernel model and PIE) at 1, 2, 4 and 8 CPUs, with UMIP (-cpu max) and without
# (qemu32, qemu64). The kernel is told the -smp count (smp_expect=) and checks the MADT lists
# that many CPUs, that every AP started and that each sees only the aliases, in ring 0 and
# from ring 3 (the leak program's processes run on every CPU and print what the boot CPU's
# print); the log must say how many APs started (none at 1 CPU, when the kernel does not try).
for kernel in i386/kernel x86_64/kernel x86_64/kernel-pie; do
	case $kernel in
	i386/*) arch=i386 plain=qemu32 ;;
	*) arch=x86_64 plain=qemu64 ;;
	esac
	for cpu in max $plain; do
		for cpus in 1 2 4 8; do
			started="-N ^smp:"
			[ "$cpus" -gt 1 ] &&
				started="-e '^smp: $cpus CPUs listed, $((cpus - 1)) APs started$'"
			printf '%s -cpu %s -smp %s\t-a %s -c %s -S %s -A "selftest=smp smp_expect=%s" -e "^kslide-selftest: 6 passed, 0 failed" %s %s\n' \
				"$kernel" "$cpu" "$cpus" "$arch" "$cpu" "$cpus" "$cpus" "$started" \
				"$B/$kernel.img"
		done
	done
done
# From 896 MiB of RAM on, SeaBIOS puts the ACPI tables (at the top of RAM below 4 GiB) above
# the i386 kernel's lowmem, which it reaches through its physical-memory window
# (kernel/mm/phys_map.h): at -m 1G and 3G the MADT must be found there (its address, printed by
# the suite, at or above 0x38000000) and every AP started. x86-64 reaches all RAM through its
# direct map, with tables below 4 GiB and RAM above it at -m 6G.
ABOVE_LOWMEM='0x(3[89a-f]|[4-9a-f][0-9a-f])[0-9a-f]{6} '
for mem in 1G 3G; do
	for cpus in 2 4; do
		printf 'i386/kernel -m %s -smp %s: the MADT above lowmem\t-a i386 -c max -m %s -S %s -A "selftest=smp smp_expect=%s" -e "^kslide-selftest: 6 passed, 0 failed" -e "^smp: %s CPUs listed, %s APs started$" -e "^# rsdp .* madt %s" %s\n' \
			"$mem" "$cpus" "$mem" "$cpus" "$cpus" "$cpus" "$((cpus - 1))" "$ABOVE_LOWMEM" \
			"$B/i386/kernel.img"
	done
done
for kernel in x86_64/kernel x86_64/kernel-pie; do
	printf '%s -m 6G -smp 4: the MADT below 4 GiB, RAM above\t-a x86_64 -c max -m 6G -S 4 -A "selftest=smp smp_expect=4" -e "^kslide-selftest: 6 passed, 0 failed" -e "^smp: 4 CPUs listed, 3 APs started$" %s\n' \
		"$kernel" "$B/$kernel.img"
done
# CPUs the MADT lists as neither enabled nor online-capable are not the machine's: QEMU lists
# maxcpus entries and marks the ones beyond -smp absent.
printf 'x86_64/kernel -smp 2,maxcpus=4: absent CPUs not counted\t-a x86_64 -c max -S 2,maxcpus=4 -A "selftest=smp smp_expect=2" -e "^kslide-selftest: 6 passed, 0 failed" -e "^smp: 2 CPUs listed, 1 APs started$" %s\n' "$B/x86_64/kernel.img"
