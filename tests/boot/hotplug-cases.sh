# selftest=hotplug boot cases (for matrix.sh, which sets $B): every AP of 4 offline (INIT) and
# online (the boot path) 100 times, and after each time back, the leak program's processes on
# it: with UMIP (the descriptor instructions must fault) and without (they must print the
# aliases). About 300 ring-3 views a boot: the time limit is generous for a shared host.
# The stage passes this file after matrix.sh's --plain: each boot costs about 20 s of CPU
# under TCG, and what it runs is the kernel's own code long after the stub's work; the smp
# cases already show the compressed copies' kernels to be the same kernel.
for kernel in i386/kernel x86_64/kernel x86_64/kernel-pie; do
	case $kernel in
	i386/*) arch=i386 plain=qemu32 ;;
	*) arch=x86_64 plain=qemu64 ;;
	esac
	for cpu in max $plain; do
		printf '%s -cpu %s -smp 4 selftest=hotplug\t-a %s -c %s -S 4 -t 300 -A selftest=hotplug -e "^kslide-selftest: 2 passed, 0 failed" %s\n' \
			"$kernel" "$cpu" "$arch" "$cpu" "$B/$kernel.img"
	done
done
