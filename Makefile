# kslide: a randomized kernel base at every boot. `make run` and `make check` are the front door
# (README.md); `make help` lists every target. The rules live in mk/, one file per part of the
# tree:
#
#   mk/flags.mk     compilers and flags of every build variant
#   mk/variants.mk  one macro per kind of output (objects, libkslide.a), one line per variant
#   mk/boot.mk      the stubs (boot/)
#   mk/kernel.mk    the reference kernels (kernel/) and their packed images
#   mk/tools.mk     kslide-pack, kslide-stat, kslide-kallsyms (tools/)
#   mk/tests.mk     unit tests, relocation oracle, test images, GRUB ISOs, fuzzing (tests/)
#   mk/bench.mk     benchmarks (bench/)

BUILD ?= build
Q ?= @
VERSION := 0.1
BOOTSTRAP_STAMP := $(BUILD)/.bootstrap-ok
# make check STAGE="unit boot-i386": only those stages (scripts/check.sh --list names them).
STAGE ?=

.PHONY: all check check-busy run bench iso bootstrap clean help tools images
all: $(BOOTSTRAP_STAMP)
	$(Q)$(MAKE) -s --no-print-directory tools images

include mk/flags.mk
include mk/variants.mk
include mk/boot.mk
include mk/kernel.mk
include mk/tools.mk
include mk/tests.mk
include mk/bench.mk
include mk/linux.mk
include mk/decoders.mk
include mk/robust.mk
include mk/compress.mk

tools: $(TOOLS)
images: $(IMAGES)

#### the front door ####
# Missing Debian packages are installed (as root) or named before anything is built.
$(BOOTSTRAP_STAMP): scripts/bootstrap.sh
	$(Q)scripts/bootstrap.sh
	@mkdir -p $(dir $@) && touch $@

bootstrap:
	$(Q)scripts/bootstrap.sh

# `all` first and on its own: its recursive make must not race the targets below for the
# stubs and the packer under -j.
check: $(BOOTSTRAP_STAMP)
	$(Q)$(MAKE) -s --no-print-directory all
	$(Q)$(MAKE) -s --no-print-directory $(CHECK_DEPS)
	$(Q)scripts/check.sh $(BUILD) $(STAGE)

# make check with HOGS busy loops beside it (docs/reliability.md, "Fresh machines and busy ones").
HOGS ?= 2
check-busy:
	$(Q)scripts/check-busy.sh $(HOGS) -- --no-print-directory BUILD=$(BUILD) STAGE="$(STAGE)"

run: $(BOOTSTRAP_STAMP)
	$(Q)$(MAKE) -s --no-print-directory all
	$(Q)scripts/run.sh $(BUILD)/i386/kernel.img 4
	$(Q)scripts/run.sh -a x86_64 $(X86_64)/kernel.img 4
	$(Q)scripts/run.sh -a x86_64 $(X86_64)/kernel-pie.img 4 6G

iso: $(BOOTSTRAP_STAMP)
	$(Q)$(MAKE) -s --no-print-directory tools images $(ISOS)

# all first, on its own: it is a recursive make, which must not race this one for the stubs.
bench: $(BOOTSTRAP_STAMP)
	$(Q)$(MAKE) -s --no-print-directory all
	$(Q)$(MAKE) -s --no-print-directory $(BENCH_DEPS)
	$(Q)bench/run.sh $(BUILD)

# The stub's generator output from many boots through rngtest and ent (docs/results.md).
ENTROPY_BOOTS ?= 100
ENTROPY_BYTES ?= 8192
.PHONY: entropy-quality
entropy-quality: $(BOOTSTRAP_STAMP)
	$(Q)$(MAKE) -s --no-print-directory all
	$(Q)nice -n 10 scripts/entropy-quality.sh $(BUILD) $(BUILD)/i386/kernel.img $(ENTROPY_BOOTS) \
		$(ENTROPY_BYTES)

help:
	@echo "kslide: make TARGET (outputs in $(BUILD)/)"
	@echo "  all              tools and the packed reference images (the default)"
	@echo "  run              build, boot each reference kernel in QEMU a few times, show the bases"
	@echo "  check            every test stage; STAGE=\"name ...\" runs only those"
	@echo "                   (scripts/check.sh --list names them)"
	@echo "  check-busy       check with HOGS (default 2) CPU hogs running beside it"
	@echo "  unit             host unit tests (cmocka, ASan/UBSan)"
	@echo "  oracle           the relocation oracle: the linker judges the packer and the stub's mover"
	@echo "  fuzz             every fuzz target for FUZZ_SECONDS (default 600) each"
	@echo "  fuzz-smoke       every fuzz target for 10 s (part of check)"
	@echo "  iso              GRUB ISOs of the reference kernels (BIOS and UEFI)"
	@echo "  bench            benchmarks recorded in docs/results.md"
	@echo "  entropy-quality  the stub's generator output through rngtest and ent"
	@echo "  linux-side-by-side  Linux's own KASLR and kslide's on Debian's kernels (results.md)"
	@echo "  bootstrap        install (as root) or name the Debian packages the build needs"
	@echo "  clean            remove $(BUILD)/"

# Keep objects that only pattern chains produce.
.SECONDARY:

clean:
	rm -rf $(BUILD)

include mk/mutate.mk
include mk/smp.mk

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
