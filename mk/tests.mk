# What `make check` runs besides the build (scripts/check.sh lists the stages): host unit
# tests, the relocation oracle, the images and ISOs only tests boot, the example kernel, the
# fuzz targets and the uniformity checker.

#### host unit tests (tests/unit/): lib/ and the pure parts of boot/, kernel/, tools/ ####
LIB_HOST_OBJS := $(LIB_SRCS:%.c=$(BUILD)/host/%.o)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
# Fakes and helpers shared by unit tests (the fake arch_ops, for instance).
UNIT_SUPPORT_OBJS := $(patsubst %.c,$(BUILD)/host/%.o,$(wildcard tests/unit/support/*.c))
# Freestanding-pure boot code that host tests exercise (boot-info parsing).
UNIT_BOOT_SRCS := boot/bootenv.c boot/multiboot1.c boot/multiboot2.c boot/pvh.c \
	boot/acpi_rsdp.c boot/multiboot1_to_2.c boot/uefi.c boot/multiboot2_uefi.c
UNIT_BOOT_OBJS := $(UNIT_BOOT_SRCS:%.c=$(BUILD)/host/%.o)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/host/tests/%)

$(BUILD)/host/tests/test_%: $(BUILD)/host/tests/unit/test_%.o $(UNIT_SUPPORT_OBJS) $(LIB_HOST_OBJS) \
		$(UNIT_BOOT_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(HOST_LDFLAGS) $^ -lcmocka -lm $(HOST_TEST_LIBS) -o $@

# kslide-pack's packing policy, with the ELF reader it asks where code lies.
$(BUILD)/host/tests/test_pack_policy: $(addprefix $(BUILD)/host/tools/pack/, policy.o \
	single_slide.o base_window.o kernel_limits.o fail.o kernel_elf.o kernel_segments.o emit_relocs.o \
	dynamic_relocs.o kernel_shape.o gotpcrelx.o)
$(BUILD)/host/tests/test_pack_policy: HOST_TEST_LIBS += -lelf
# The stub's AVX2 copy-and-sum and zero fill, against the scalar ones.
$(BUILD)/host/tests/test_word_sums_avx2: $(addprefix $(BUILD)/host/boot/x86_64/, word_sums_avx2.o \
	word_sums_avx2_loop.o zero_avx2.o)
# The image checksum on PCLMULQDQ, against the table-driven one.
$(BUILD)/host/tests/test_crc32_pclmul: $(addprefix $(BUILD)/host/boot/x86_64/, crc32_pclmul.o \
	crc32_pclmul_rounds.o)
# The EFI exit's retry runs against a fake firmware.
$(BUILD)/host/tests/test_efi_exit: $(BUILD)/host/boot/efi_exit.o
# The load options' conversion to the command line is plain C too.
$(BUILD)/host/tests/test_efi_cmdline: $(BUILD)/host/boot/efi_cmdline.o
# The initrd's search runs against a fake firmware.
$(BUILD)/host/tests/test_efi_initrd: $(BUILD)/host/boot/efi_initrd.o
# So do the measurements (the TPM behind a fake EFI_TCG2_PROTOCOL).
$(BUILD)/host/tests/test_efi_measure: $(BUILD)/host/boot/efi_measure.o
# The packer's instruction check is pure, so host tests link it too.
$(BUILD)/host/tests/test_gotpcrelx: $(BUILD)/host/tools/pack/gotpcrelx.o
# So is the kernel's secrecy policy (pointers, sysctls, the syslog ring).
$(BUILD)/host/tests/test_kernel_policy: $(addprefix $(BUILD)/host/kernel/secrecy/, kptr.o sysctl.o \
	syslog.o seed_random.o)
# And the scan of AML for a sleep state's SLP_TYP values.
$(BUILD)/host/tests/test_acpi_aml: $(BUILD)/host/kernel/acpi/acpi_aml.o
# The Multiboot pass-through edits the loader's information with plain C.
$(BUILD)/host/tests/test_handoff_multiboot: $(BUILD)/host/boot/handoff_multiboot.o
# So does Linux's zero page.
$(BUILD)/host/tests/test_handoff_linux: $(BUILD)/host/boot/handoff_linux.o
# As are kslide-stat's line parser and slot recount.
$(BUILD)/host/tests/test_stat_lines: $(BUILD)/host/tools/stat/lines.o
# The recount finds the image's load address by its container's reader (tools/pack/).
# Every container (tools/pack/container*.c) and what they read with; one list for all three.
CONTAINER_SRCS := $(wildcard tools/pack/container*.c) tools/pack/multiboot_header.c \
	tools/pack/fail.c
STAT_CONTAINER_OBJS := $(CONTAINER_SRCS:%.c=$(BUILD)/host/%.o)
$(BUILD)/host/tests/test_stat_layout: $(BUILD)/host/tools/stat/layout.o $(STAT_CONTAINER_OBJS)
$(BUILD)/host/tests/test_stat_linux_kaslr: $(BUILD)/host/tools/stat/linux_kaslr.o \
	$(BUILD)/host/tools/stat/layout.o $(STAT_CONTAINER_OBJS)
$(BUILD)/host/tests/test_stat_linux_efi_kaslr: $(BUILD)/host/tools/stat/linux_efi_kaslr.o \
	$(BUILD)/host/tools/stat/linux_kaslr.o $(BUILD)/host/tools/stat/layout.o \
	$(STAT_CONTAINER_OBJS)

.PHONY: unit
#: host unit tests (cmocka, ASan/UBSan)
unit: $(UNIT_BINS)
	$(Q)scripts/run32.sh --way $(BUILD)
	$(Q)scripts/run-unit.sh $(UNIT_BINS)
	$(Q)$(MAKE) -s --no-print-directory unit-i386-emulated

# make check-no-ia32's preload: no sanitizers (it runs inside every process, sanitized or not).
$(BUILD)/harness/no_ia32.so: tests/harness/no_ia32.c | $(BOOTSTRAP_STAMP)
	@mkdir -p $(@D)
	$(Q)$(HOSTCC) -std=c11 -O2 $(WARN) -shared -fPIC -o $@ $< -ldl

#### relocation oracle: the linker judges the packer ####
# The same objects linked at other addresses; moving kernel.elf there with the packer's table
# must give exactly these bytes. 0x1234000 is 4 KiB aligned but no 2 MiB multiple.
ORACLE_I386_ELFS := $(BUILD)/i386/kernel-at-22m.elf $(BUILD)/i386/kernel-at-0x1234000.elf
$(BUILD)/i386/kernel-at-22m.elf: KERNEL_LDFLAGS = --defsym=link_phys_override=0x1600000
$(BUILD)/i386/kernel-at-0x1234000.elf: KERNEL_LDFLAGS = --defsym=link_phys_override=0x1234000
ORACLE_OBJS := $(BUILD)/tool/tests/oracle/reloc_oracle.o $(PACK_LIB_OBJS)

$(BUILD)/bin/reloc-oracle: $(ORACLE_OBJS) $(LIB_TOOL_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $^ $(TOOL_LIBS) -o $@

# x86-64 (tests/oracle/x86_64/): a small -mcmodel=kernel kernel, never run, linked at virtual
# 0xffffffff81000000, physical 16 MiB, and again with both bases moved independently; the
# fixups follow the virtual base. The gotpcrel variant adds GOTPCRELX references: GNU ld
# relabels what it relaxes, lld keeps the label, so the packer must read the instructions.
X86_64_ORACLE := $(BUILD)/x86_64/oracle
X86_64_ORACLE_CFLAGS := -std=c11 -O2 -g $(WARN) -I. -m64 -mcmodel=kernel -mno-red-zone -fno-pic \
	-fno-pie -ffreestanding -fno-stack-protector -mgeneral-regs-only \
	-fno-asynchronous-unwind-tables -fcf-protection=none
$(eval $(call object_variant,$(X86_64_ORACLE)/obj,X86_64_ORACLE_CFLAGS,X86_64_ASFLAGS,tests/oracle/x86_64/))
X86_64_ORACLE_OBJS := $(X86_64_ORACLE)/obj/head.o $(X86_64_ORACLE)/obj/tables.o
X86_64_ORACLE_LDFLAGS := -nostdlib -z noexecstack --emit-relocs
X86_64_ORACLE_LD := tests/oracle/x86_64/kernel.ld

# Pairs A B: B is A's objects at other bases (--defsym before -T, as for i386).
X86_64_ORACLE_PAIRS := kernel.elf:kernel-up.elf kernel.elf:kernel-down.elf \
	gotpcrel-bfd.elf:gotpcrel-bfd-up.elf gotpcrel-lld.elf:gotpcrel-lld-up.elf
X86_64_ORACLE_ELFS := $(addprefix $(X86_64_ORACLE)/, kernel.elf kernel-up.elf kernel-down.elf \
	gotpcrel-bfd.elf gotpcrel-bfd-up.elf gotpcrel-lld.elf gotpcrel-lld-up.elf)
X86_64_UP := --defsym=virt_override=0xffffffff82234000 --defsym=phys_override=0x2000000
X86_64_DOWN := --defsym=virt_override=0xffffffff80200000 --defsym=phys_override=0x1000000
$(X86_64_ORACLE)/kernel-up.elf $(X86_64_ORACLE)/gotpcrel-%-up.elf: X86_64_BASES = $(X86_64_UP)
$(X86_64_ORACLE)/kernel-down.elf: X86_64_BASES = $(X86_64_DOWN)
$(X86_64_ORACLE)/kernel%elf: $(X86_64_ORACLE_OBJS) $(X86_64_ORACLE_LD)
	$(Q)$(LD) -m elf_x86_64 $(X86_64_ORACLE_LDFLAGS) --no-warn-rwx-segments $(X86_64_BASES) \
		-T $(X86_64_ORACLE_LD) -o $@ $(X86_64_ORACLE_OBJS)
$(X86_64_ORACLE)/gotpcrel-bfd%elf: $(X86_64_ORACLE_OBJS) $(X86_64_ORACLE)/obj/gotpcrel.o \
		$(X86_64_ORACLE_LD)
	$(Q)$(LD) -m elf_x86_64 $(X86_64_ORACLE_LDFLAGS) --no-warn-rwx-segments $(X86_64_BASES) \
		-T $(X86_64_ORACLE_LD) -o $@ $(X86_64_ORACLE_OBJS) $(X86_64_ORACLE)/obj/gotpcrel.o
$(X86_64_ORACLE)/gotpcrel-lld%elf: $(X86_64_ORACLE_OBJS) $(X86_64_ORACLE)/obj/gotpcrel.o \
		$(X86_64_ORACLE_LD)
	$(Q)ld.lld $(X86_64_ORACLE_LDFLAGS) $(X86_64_BASES) -T $(X86_64_ORACLE_LD) -o $@ \
		$(X86_64_ORACLE_OBJS) $(X86_64_ORACLE)/obj/gotpcrel.o

# The x86-64 reference kernels, both layouts, moved the same way as the small ones.
$(X86_64)/kernel-up.elf $(X86_64)/kernel-pie-up.elf $(X86_64)/kernel-pie-rela-up.elf: \
	X86_64_BASES = $(X86_64_UP)
$(X86_64)/kernel-down.elf: X86_64_BASES = $(X86_64_DOWN)
X86_64_ORACLE_PAIRS += $(addprefix ../, kernel.elf:../kernel-up.elf kernel.elf:../kernel-down.elf \
	kernel-pie.elf:../kernel-pie-up.elf kernel-pie-rela.elf:../kernel-pie-rela-up.elf)

# The stubs' own tables (kslide-stub-relocs): each stub linked elsewhere, up and down, must be
# the stub moved there by its table (0x2345000: page-aligned, as the Multiboot2 tag asks).
STUB_ORACLE_ELFS := $(foreach a,$(BUILD)/i386 $(X86_64),$(a)/stub-at-0x2345000.elf \
	$(a)/stub-at-0x80000.elf)
$(BUILD)/%/stub-at-0x2345000.elf: STUB_LDFLAGS = --defsym=stub_link_override=0x2345000
$(BUILD)/%/stub-at-0x80000.elf: STUB_LDFLAGS = --defsym=stub_link_override=0x80000

.PHONY: oracle
ORACLE_DEPS := $(BUILD)/bin/reloc-oracle $(BUILD)/i386/kernel.elf $(ORACLE_I386_ELFS) \
	$(STUB_RELOCS) $(BUILD)/i386/stub.elf $(X86_64)/stub.elf $(STUB_ORACLE_ELFS) \
	$(X86_64_ORACLE_ELFS) $(KERNEL_X86_64_ELFS) $(PIE_X86_64_ELFS) $(IMAGES) \
	$(BUILD)/i386/kernel-zstd.img $(X86_64)/kernel-zstd.img $(X86_64)/kernel-pie-zstd.img
#: the relocation oracle: the linker judges the packer, the stub's mover and the stub's own table
oracle: $(ORACLE_DEPS)
	$(Q)for s in $(STUB_ORACLE_ELFS); do \
		$(STUB_RELOCS) --oracle $$(dirname $$s)/stub.elf $$s || exit 1; done
	@# The build's check can fail: the first link's empty table is not that link's relocations
	@# (the oracle's comparison: mutation stub-relocs-last-word-dropped).
	$(Q)for a in $(BUILD)/i386 $(X86_64); do \
		! $(STUB_RELOCS) --check $$a/stub.pass1.elf 2>/dev/null || \
		{ echo "kslide-stub-relocs: $$a/stub.pass1.elf: an empty table passed" >&2; \
			exit 1; }; done
	$(Q)for b in $(ORACLE_I386_ELFS); do \
		$(BUILD)/bin/reloc-oracle $(BUILD)/i386/kernel.elf $$b || exit 1; done
	$(Q)for p in $(X86_64_ORACLE_PAIRS); do \
		$(BUILD)/bin/reloc-oracle $(X86_64_ORACLE)/$${p%%:*} $(X86_64_ORACLE)/$${p#*:} \
		|| exit 1; done
	@# Through the packed images that boot: their payload and table, not a fresh encoding.
	$(Q)$(BUILD)/bin/reloc-oracle --image $(BUILD)/i386/kernel.img $(BUILD)/i386/kernel.elf \
		$(BUILD)/i386/kernel-at-22m.elf
	$(Q)$(BUILD)/bin/reloc-oracle --image $(X86_64)/kernel.img $(X86_64)/kernel.elf \
		$(X86_64)/kernel-up.elf
	$(Q)$(BUILD)/bin/reloc-oracle --image $(X86_64)/kernel-pie.img $(X86_64)/kernel-pie.elf \
		$(X86_64)/kernel-pie-up.elf
	@# And the zstd images the way the stub decodes them: early fields after their block.
	$(Q)$(BUILD)/bin/reloc-oracle --image $(BUILD)/i386/kernel-zstd.img \
		$(BUILD)/i386/kernel.elf $(BUILD)/i386/kernel-at-22m.elf
	$(Q)$(BUILD)/bin/reloc-oracle --image $(X86_64)/kernel-zstd.img $(X86_64)/kernel.elf \
		$(X86_64)/kernel-up.elf
	$(Q)$(BUILD)/bin/reloc-oracle --image $(X86_64)/kernel-pie-zstd.img \
		$(X86_64)/kernel-pie.elf $(X86_64)/kernel-pie-up.elf

#### images only the tests boot ####
$(BUILD)/i386/kernel-4k.img $(X86_64)/kernel-4k.img $(X86_64)/kernel-pie-4k.img: \
		$(BUILD)/%-4k.img: $(BUILD)/%.elf $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack --align 4K -o $@ $<
# Only RAM above 4 GiB allowed: the boot tests' way to place the kernel there every time.
$(X86_64)/kernel-high.img: $(X86_64)/kernel.elf $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack --min 4G -o $@ $<
# The i386 reference kernel through the Multiboot pass-through: it finds kslide's boot info in
# ECX or in kslide's Multiboot 2 tag (kernel/boot_entry.c), which it asks for.
$(BUILD)/i386/kernel-multiboot.img: $(BUILD)/i386/kernel.elf $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack --handoff multiboot --kslide-tag -o $@ $<
# Packed for reproducing a placement: kslide.phys= (kslide.virt=) on the command line chooses
# the base (boot/placement.h); the boot cases check it is honoured here and ignored elsewhere.
$(BUILD)/i386/kernel-debug.img $(X86_64)/kernel-debug.img: \
		$(BUILD)/%-debug.img: $(BUILD)/%.elf $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack --debug-placement -o $@ $<
# The x86-64 reference kernels as PVH ELFs (kslide-pack --format pvh), for QEMU's PVH loader
# under -M pc and -M microvm: stored as they are, as the container does by default, and one
# compressed, which --compress still gives.
PVH_IMAGES := $(X86_64)/kernel-pvh.img $(X86_64)/kernel-pie-pvh.img $(X86_64)/kernel-pie-pvh-zstd.img
$(X86_64)/kernel-pvh.img $(X86_64)/kernel-pie-pvh.img: \
		$(BUILD)/%-pvh.img: $(BUILD)/%.elf $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack --format pvh -o $@ $<
$(X86_64)/kernel-pie-pvh-zstd.img: $(X86_64)/kernel-pie.elf $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack --format pvh --compress zstd -o $@ $<
TEST_IMAGES := $(BUILD)/i386/kernel-4k.img $(X86_64)/kernel-4k.img $(X86_64)/kernel-pie-4k.img \
	$(X86_64)/kernel-high.img $(BUILD)/i386/kernel-multiboot.img \
	$(BUILD)/i386/kernel-debug.img $(X86_64)/kernel-debug.img $(PVH_IMAGES)

#### GRUB ISOs: multiboot2 + module2, bootable under BIOS and UEFI (scripts/mkiso.sh) ####
# The module is random bytes; GRUB hands it over with crc32=, which the kernel checks.
ISO_MODULE := $(BUILD)/iso/module.bin
$(ISO_MODULE):
	@mkdir -p $(dir $@)
	$(Q)head -c 1M /dev/urandom >$@.tmp && mv $@.tmp $@

$(BUILD)/%/kernel.iso: $(BUILD)/%/kernel.img $(ISO_MODULE) scripts/mkiso.sh
	$(Q)scripts/mkiso.sh -o $@ $< $(ISO_MODULE)

ISOS := $(BUILD)/i386/kernel.iso $(X86_64)/kernel.iso

#### the example kernels (docs/kernel-authors.md), each by its own Makefile ####
# minimal-i386 speaks kslide's boot info; multiboot1 and multiboot2 are tutorial kernels that
# know nothing of kslide (tests/boot/multiboot.sh); shuffle-i386's and shuffle-x86_64's functions
# move at every boot (kslide-pack --shuffle; tests/boot/shuffle.sh).
EXAMPLES := minimal-i386 multiboot1 multiboot2 multiboot2-x86_64 shuffle-i386 shuffle-x86_64
EXAMPLE_IMAGES := $(BUILD)/examples/minimal-i386/example.img \
	$(BUILD)/examples/multiboot1/kernel.img $(BUILD)/examples/multiboot2/kernel.img \
	$(BUILD)/examples/multiboot2-x86_64/kernel.img $(BUILD)/examples/shuffle-i386/kernel.img \
	$(BUILD)/examples/shuffle-x86_64/kernel.img
$(BUILD)/examples/minimal-i386/example.img: EXAMPLE := minimal-i386
$(BUILD)/examples/multiboot1/kernel.img: EXAMPLE := multiboot1
$(BUILD)/examples/multiboot2/kernel.img: EXAMPLE := multiboot2
$(BUILD)/examples/multiboot2-x86_64/kernel.img: EXAMPLE := multiboot2-x86_64
$(BUILD)/examples/shuffle-i386/kernel.img: EXAMPLE := shuffle-i386
$(BUILD)/examples/shuffle-x86_64/kernel.img: EXAMPLE := shuffle-x86_64
$(EXAMPLE_IMAGES): $(BUILD)/bin/kslide-pack include/kslide/bootinfo.h \
		$(foreach e,$(EXAMPLES) common,$(wildcard examples/$(e)/*.[chS] examples/$(e)/*.ld \
		examples/$(e)/Makefile))
	$(Q)$(MAKE) --no-print-directory $(if $(Q),-s) -C examples/$(EXAMPLE) \
		OUT=$(abspath $(BUILD))/examples/$(EXAMPLE) KSLIDE_PACK=$(abspath $(BUILD)/bin/kslide-pack)

#### fuzzing: libFuzzer targets for every parser (tests/fuzz/) ####
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 600
FUZZ_SMOKE_SECONDS := 10
FUZZ_CFLAGS := -std=c11 -g -O1 $(WARN) -I. -D_DEFAULT_SOURCE \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_NAMES := elf reloc image shuffle multiboot1 multiboot2 pvh slots zstd lz4
FUZZ_BINS = $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz_%)
# What each target links besides its harness; every binary is one clang run over sources.
FUZZ_SRCS_elf := $(PACK_LIB_SRCS) $(LIB_SRCS)
# -lcrypto: kslide-pack --sign (tools/pack/authenticode.c, signer.c).
FUZZ_LIBS_elf := -lelf -lcrypto
FUZZ_SRCS_reloc := lib/reloc.c lib/reloc_disjoint.c lib/word_sums.c
FUZZ_SRCS_image := lib/image.c lib/crc32.c lib/word_sums.c lib/shuffle.c lib/uniform.c
FUZZ_SRCS_shuffle := lib/shuffle.c lib/uniform.c
# The boot-information parsers read the input as physical memory (tests/fuzz/fake_boot_memory.h).
FUZZ_FAKE_MEMORY := tests/unit/support/fake_memory.c
FUZZ_SRCS_multiboot1 := $(FUZZ_FAKE_MEMORY) boot/multiboot1.c boot/bootenv.c boot/multiboot1_to_2.c boot/acpi_rsdp.c \
	boot/multiboot2.c lib/cmdline.c
FUZZ_SRCS_multiboot2 := $(FUZZ_FAKE_MEMORY) boot/multiboot2.c boot/bootenv.c
FUZZ_SRCS_pvh := $(FUZZ_FAKE_MEMORY) boot/pvh.c boot/bootenv.c
FUZZ_SRCS_slots := lib/slots.c
# The decoders against the real libraries (docs/compression.md).
FUZZ_SRCS_zstd := $(wildcard lib/zstd_*.c) lib/xxhash.c
FUZZ_LIBS_zstd := -lzstd
FUZZ_SRCS_lz4 := lib/lz4.c lib/xxhash.c
FUZZ_LIBS_lz4 := -llz4
FUZZ_DEPS := $(LIB_SRCS) $(UNIT_BOOT_SRCS) $(wildcard tools/pack/*.c) \
	$(wildcard lib/*.h boot/*.h tools/pack/*.h include/kslide/*.h tests/fuzz/*.h) \
	$(FUZZ_FAKE_MEMORY) tests/unit/support/fake_memory.h

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_DEPS)
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $< $(FUZZ_SRCS_$*) $(FUZZ_LIBS_$*) -o $@

.PHONY: fuzz fuzz-smoke
# Long runs keep their growing corpora in $(BUILD)/fuzz/corpus/.
#: every fuzz target for FUZZ_SECONDS (default 600) each
fuzz: $(FUZZ_BINS)
	$(Q)scripts/fuzz.sh -k $(BUILD) $(FUZZ_SECONDS) $(FUZZ_NAMES)

#: every fuzz target for 10 s (part of check)
fuzz-smoke: $(FUZZ_BINS)
	$(Q)scripts/fuzz.sh $(BUILD) $(FUZZ_SMOKE_SECONDS) $(FUZZ_NAMES)

#### the uniformity checker the boot statistics stages use ####
UNIFORMITY := $(BUILD)/host/tests/uniformity
# kslide-stat's statistics and slot recount, so the stages judge as the tool does.
$(UNIFORMITY): $(addprefix $(BUILD)/tool/, tests/boot/uniformity.o tools/stat/stats.o \
		tools/stat/layout.o tools/stat/samples.o tools/stat/lines.o \
		$(CONTAINER_SRCS:%.c=%.o)) $(LIB_TOOL_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $^ -lgsl -lgslcblas -lm -o $@

# Everything the stages need beyond `all`, the programs the unit, reloc-oracle and fuzz-smoke
# stages build included: make check runs stages side by side (scripts/check.sh), and two makes
# building in one directory at once could race for a prerequisite both need.
CHECK_DEPS = $(UNIT_BINS) $(DECODE_CHECK_I386) $(ORACLE_DEPS) $(FUZZ_BINS) $(UNIFORMITY) \
	$(TEST_IMAGES) $(EXAMPLE_IMAGES) $(ISOS)

# The packer's early relocations (tools/pack/early_relocs.c): libzstd makes the frames they
# are classified against, lib/'s decoder watched by the packer's own build decodes them.
$(BUILD)/host/tests/test_early_relocs: $(addprefix $(BUILD)/host/tools/pack/, early_relocs.o \
	zstd_observed.o image_writer.o compress.o) $(STAT_CONTAINER_OBJS)
$(BUILD)/host/tests/test_early_relocs: HOST_TEST_LIBS += -lzstd -llz4
