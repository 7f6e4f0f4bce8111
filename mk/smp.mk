# The SMP boot stage on its own: `make check-smp` boots every reference kernel at 1, 2, 4 and
# 8 CPUs with selftest=smp (tests/boot/smp-cases.sh, through scripts/check.sh); `make
# check-suspend` runs selftest=suspend on pc and q35 (tests/boot/suspend-cases.sh).
.PHONY: check-smp check-suspend
#: the boot-smp stage: every reference kernel at 1, 2, 4 and 8 CPUs
check-smp: all
	$(Q)scripts/check.sh $(BUILD) boot-smp
#: the boot-suspend stage: suspend to RAM and back, pc and q35
check-suspend: all
	$(Q)scripts/check.sh $(BUILD) boot-suspend
