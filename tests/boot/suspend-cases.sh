# selftest=suspend boot cases (for matrix.sh, which sets $B): every reference kernel (i386,
# the x86-64 kernel model and PIE) on both chipsets QEMU's SeaBIOS resumes from S3 (`pc`,
# PIIX4; `q35`, ICH9), at 1 and 2 CPUs with UMIP (-cpu max) and at 2 without (qemu32,
# qemu64), and once at 4. QEMU 7.2 offers S3 by default; the global says so anyway. The host
# wakes the guest through QMP each time QEMU reports it suspended (qemu-boot.sh -W) and
# requires 3 wake-ups, one kslide line (no reboot on the way) and the suite's pass; a hang
# anywhere is a timeout. Without UMIP, ring 3's SIDT, SGDT, SLDT and STR are printed at boot
# and after each wake: the four views must be the same, SIDT the announced alias (-R 4).
# The third wake reached the kernel. That every AP online before each sleep is back after it
# the suite checks; how many the boot started is boot-smp's to judge (an AP that misses its
# start on a loaded host is not this stage's failure).
WOKE='^suspend: cycle 3: woke, '
for kernel in i386/kernel x86_64/kernel x86_64/kernel-pie; do
	case $kernel in
	i386/*) arch=i386 plain=qemu32 ;;
	*) arch=x86_64 plain=qemu64 ;;
	esac
	for machine in pc q35; do
		case $machine in
		pc) s3=PIIX4_PM.disable_s3=0 ;;
		q35) s3=ICH9-LPC.disable_s3=0 ;;
		esac
		for run in "max 1" "max 2" "$plain 2 -R 4"; do
			set -- $run
			printf '%s -M %s -cpu %s -smp %s selftest=suspend\t-a %s -M %s -g %s -c %s -S %s -t 90 -W 3 %s -A selftest=suspend -e "^kslide-selftest: 5 passed, 0 failed" -e "%s" %s\n' \
				"$kernel" "$machine" "$1" "$2" "$arch" "$machine" "$s3" "$1" "$2" \
				"${3:-} ${4:-}" "$WOKE" "$B/$kernel.img"
		done
	done
done
printf 'x86_64/kernel-pie -M q35 -smp 4 selftest=suspend\t-a x86_64 -M q35 -g ICH9-LPC.disable_s3=0 -c max -S 4 -t 90 -W 3 -A selftest=suspend -e "^kslide-selftest: 5 passed, 0 failed" -e "%s" %s\n' \
	"$WOKE" "$B/x86_64/kernel-pie.img"
# At -m 1G the FADT, FACS and DSDT lie above the i386 kernel's lowmem, in its physical-memory
# window (kernel/mm/phys_map.h), where the FACS's waking vector is written before every sleep:
# the suite prints their addresses, each at or above 0x38000000.
ABOVE_LOWMEM='0x(3[89a-f]|[4-9a-f][0-9a-f])[0-9a-f]{6} '
for machine in pc:PIIX4_PM q35:ICH9-LPC; do
	printf 'i386/kernel -M %s -m 1G -smp 2 selftest=suspend: the tables above lowmem\t-a i386 -M %s -g %s.disable_s3=0 -c max -m 1G -S 2 -t 90 -W 3 -A selftest=suspend -e "^kslide-selftest: 5 passed, 0 failed" -e "%s" -e "^# fadt %sfacs %sdsdt %s" %s\n' \
		"${machine%%:*}" "${machine%%:*}" "${machine#*:}" "$WOKE" "$ABOVE_LOWMEM" \
		"$ABOVE_LOWMEM" "$ABOVE_LOWMEM" "$B/i386/kernel.img"
done
# With S3 disabled the firmware's DSDT has no \_S3: the suite must say so and fail, having
# never slept.
for machine in pc:PIIX4_PM q35:ICH9-LPC; do
	printf 'x86_64/kernel -M %s, S3 disabled: the suite fails\t-a x86_64 -M %s -g %s.disable_s3=1 -c max -F -A selftest=suspend -e "^# no ._S3 package in the DSDT" -e "^kslide-selftest: 0 passed, 5 failed" -N "^suspend: cycle 1: woke" %s\n' \
		"${machine%%:*}" "${machine%%:*}" "${machine#*:}" "$B/x86_64/kernel.img"
done
