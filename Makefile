# kslide: a randomized kernel base at every boot. `make run` and `make check` are the front door
# (README.md); `make help` lists every target, from the `#:` lines above its rule. The rules
# live in mk/, one file per part of the tree:
#
#   mk/flags.mk     compilers and flags of every build variant
#   mk/variants.mk  one macro per kind of output (objects, libkslide.a), one line per variant
#   mk/boot.mk      the stubs (boot/)
#   mk/kernel.mk    the reference kernels (kernel/) and their packed images
#   mk/tools.mk     kslide-pack, kslide-stat, kslide-kallsyms (tools/)
#   mk/tests.mk     unit tests, relocation oracle, test images, GRUB ISOs, fuzzing (tests/)
#   mk/bench.mk     benchmarks (bench/)
#   mk/linux.mk     Debian's kernels, the Linux tests' initramfs and images (tests/linux/)
#   mk/decoders.mk  the zstd and LZ4 decoders' unit tests, oracles and i386 build
#   mk/robust.mk    the packer sweep and the corruption campaign (docs/reliability.md)
#   mk/compress.mk  the compressed reference images
#   mk/mutate.mk    make mutate (tests/mutations/)
#   mk/smp.mk       make check-smp, check-suspend; a few unit tests' extra objects

BUILD ?= build
Q ?= @
VERSION := 0.1
BOOTSTRAP_STAMP := $(BUILD)/.bootstrap-ok
# make check STAGE="unit boot-i386": only those stages (scripts/check.sh --list names them).
STAGE ?=

.PHONY: all check check-busy check-no-ia32 run bench iso bootstrap clean help tools images
#: tools and the packed reference images (the default)
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

#: kslide-pack and kslide-stat in $(BUILD)/bin
tools: $(TOOLS)
#: the packed reference images (i386, x86-64, x86-64 PIE)
images: $(IMAGES)

#### the front door ####
# Missing Debian packages are installed (as root) or named before anything is built.
$(BOOTSTRAP_STAMP): scripts/bootstrap.sh
	$(Q)scripts/bootstrap.sh
	@mkdir -p $(dir $@) && touch $@

#: install (as root) or name the Debian packages the build needs
bootstrap:
	$(Q)scripts/bootstrap.sh

# `all` first and on its own: its recursive make must not race the targets below for the
# stubs and the packer under -j. The rest is built a job per core unless make was given -j
# (its packs of Debian's kernels alone are a minute of CPU).
CHECK_BUILD_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc 2>/dev/null || echo 2))
#: every test stage; STAGE="name ..." runs only those
#: (scripts/check.sh --describe lists them)
check: $(BOOTSTRAP_STAMP)
	$(Q)$(MAKE) -s --no-print-directory all
	$(Q)$(MAKE) -s --no-print-directory $(CHECK_BUILD_JOBS) $(CHECK_DEPS)
	$(Q)scripts/check.sh $(BUILD) $(STAGE)

HOGS ?= 2
#: check with HOGS (default 2) CPU hogs running beside it
#: (docs/reliability.md, "Fresh machines and busy ones")
check-busy:
	$(Q)scripts/check-busy.sh $(HOGS) -- --no-print-directory BUILD=$(BUILD) STAGE="$(STAGE)"

CHECK ?= check
#: CHECK (check, or check-busy) as on a machine whose kernel refuses 32-bit programs:
#: each start of an i386 program fails (tests/harness/no_ia32.c, preloaded)
check-no-ia32: $(BUILD)/harness/no_ia32.so
	$(Q)scripts/check-no-ia32.sh $(BUILD) $< $(CHECK) -- --no-print-directory BUILD=$(BUILD) \
		STAGE="$(STAGE)" HOGS=$(HOGS)

#: build, boot each reference kernel in QEMU a few times, show the bases
run: $(BOOTSTRAP_STAMP)
	$(Q)$(MAKE) -s --no-print-directory all
	$(Q)scripts/run.sh $(BUILD)/i386/kernel.img 4
	$(Q)scripts/run.sh -a x86_64 $(X86_64)/kernel.img 4
	$(Q)scripts/run.sh -a x86_64 $(X86_64)/kernel-pie.img 4 6G

# make gdb IMAGE=build/x86_64/kernel-pie.img BREAK=function (scripts/gdb.sh).
IMAGE ?= $(BUILD)/i386/kernel.img
BREAK ?= kernel_main
.PHONY: gdb
#: IMAGE (default $(BUILD)/i386/kernel.img) under QEMU's gdbstub; gdb loads the
#: kernel's symbols at the stub's base and stops at BREAK (default kernel_main)
gdb: $(BOOTSTRAP_STAMP)
	$(Q)$(MAKE) -s --no-print-directory all
	$(Q)scripts/gdb.sh -b $(BREAK) $(IMAGE)

#: GRUB ISOs of the reference kernels (BIOS and UEFI)
iso: $(BOOTSTRAP_STAMP)
	$(Q)$(MAKE) -s --no-print-directory tools images $(ISOS)

# all first, on its own: it is a recursive make, which must not race this one for the stubs.
#: benchmarks recorded in docs/results.md
bench: $(BOOTSTRAP_STAMP)
	$(Q)$(MAKE) -s --no-print-directory all
	$(Q)$(MAKE) -s --no-print-directory $(BENCH_DEPS)
	$(Q)bench/run.sh $(BUILD)

# The stub's generator output from many boots through rngtest and ent (docs/results.md).
ENTROPY_BOOTS ?= 100
ENTROPY_BYTES ?= 8192
.PHONY: entropy-quality
#: the stub's generator output through rngtest and ent
#: (ENTROPY_BOOTS boots, ENTROPY_BYTES bytes each)
entropy-quality: $(BOOTSTRAP_STAMP)
	$(Q)$(MAKE) -s --no-print-directory all
	$(Q)nice -n 10 scripts/entropy-quality.sh $(BUILD) $(BUILD)/i386/kernel.img $(ENTROPY_BOOTS) \
		$(ENTROPY_BYTES)

#: this list (the #: lines above each rule in Makefile and mk/*.mk)
help:
	@awk -v build=$(BUILD) -f scripts/help.awk $(filter Makefile mk/%.mk,$(MAKEFILE_LIST))

# Keep objects that only pattern chains produce.
.SECONDARY:

#: remove $(BUILD)/
clean:
	rm -rf $(BUILD)

include mk/mutate.mk
include mk/smp.mk

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
