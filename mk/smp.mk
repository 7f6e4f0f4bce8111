# The SMP boot stage on its own: `make check-smp` boots every reference kernel at 1, 2, 4 and
# 8 CPUs with selftest=smp (tests/boot/smp-cases.sh, through scripts/check.sh).
.PHONY: check-smp
check-smp: all
	$(Q)scripts/check.sh $(BUILD) boot-smp
