# kslide: a randomized kernel base at every boot. `make run` and `make check` are the front door;
# see README.md.

BUILD ?= build
HOSTCC ?= cc
LD ?= ld
OBJCOPY ?= objcopy
Q ?= @
VERSION := 0.1
BOOTSTRAP_STAMP := $(BUILD)/.bootstrap-ok

WARN := -Wall -Wextra -Werror

# Host unit tests: lib/ built natively under ASan and UBSan.
HOST_CFLAGS := -std=c11 -O1 -g $(WARN) -I. -D_DEFAULT_SOURCE \
	-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
HOST_LDFLAGS := -fsanitize=address,undefined

# Host tools: ordinary optimized programs.
TOOL_CFLAGS := -std=c11 -O2 -g $(WARN) -I. -D_DEFAULT_SOURCE -DKSLIDE_VERSION='"$(VERSION)"'
TOOL_LIBS := -lelf

# Freestanding i386 code (stub, kernel, lib/). i486 because QEMU's 486 and pentium models
# lack CMOV, which gcc's default i686 target would emit.
I386_CFLAGS := -std=c11 -O2 -g $(WARN) -I. -m32 -march=i486 -ffreestanding -fno-pic -fno-pie \
	-fno-stack-protector -mgeneral-regs-only -fno-asynchronous-unwind-tables \
	-fcf-protection=none -ffunction-sections -fdata-sections
I386_ASFLAGS := -m32 -I. -fno-pic -fno-pie
I386_LD := $(LD) -m elf_i386 -nostdlib -z noexecstack --no-warn-rwx-segments

LIB_ALL := $(wildcard lib/*.c)
# lib/string.c replaces libc inside the stub and kernel only.
LIB_SRCS := $(filter-out lib/string.c,$(LIB_ALL))

.PHONY: all unit check run clean bootstrap images tools
all: $(BOOTSTRAP_STAMP)
	$(Q)$(MAKE) -s --no-print-directory tools images

#### host unit tests ####
LIB_HOST_OBJS := $(LIB_SRCS:%.c=$(BUILD)/host/%.o)
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
# Fakes and helpers shared by unit tests (the fake arch_ops, for instance).
UNIT_SUPPORT_OBJS := $(patsubst %.c,$(BUILD)/host/%.o,$(wildcard tests/unit/support/*.c))
# Freestanding-pure boot code that host tests exercise (boot-info parsing).
UNIT_BOOT_SRCS := boot/bootenv.c boot/multiboot1.c boot/multiboot2.c
UNIT_BOOT_OBJS := $(UNIT_BOOT_SRCS:%.c=$(BUILD)/host/%.o)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/host/tests/%)

$(BUILD)/host/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/host/tests/test_%: $(BUILD)/host/tests/unit/test_%.o $(UNIT_SUPPORT_OBJS) $(LIB_HOST_OBJS) \
		$(UNIT_BOOT_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(HOST_LDFLAGS) $^ -lcmocka -o $@

# The packer's instruction check is pure, so host tests link it too.
$(BUILD)/host/tests/test_gotpcrelx: $(BUILD)/host/tools/pack/gotpcrelx.o
# So is the kernel's secrecy policy (pointers, sysctls, the syslog ring).
$(BUILD)/host/tests/test_kernel_policy: $(addprefix $(BUILD)/host/kernel/, kptr.o sysctl.o syslog.o)
# As are kslide-stat's line parser and slot recount.
$(BUILD)/host/tests/test_stat_lines: $(BUILD)/host/tools/stat/lines.o
$(BUILD)/host/tests/test_stat_layout: $(BUILD)/host/tools/stat/layout.o

unit: $(UNIT_BINS)
	$(Q)scripts/run-unit.sh $(UNIT_BINS)

#### freestanding i386 objects ####
$(BUILD)/i386/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(I386_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/i386/obj/%.o: %.S
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(I386_ASFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/i386/libkslide.a: $(LIB_ALL:%.c=$(BUILD)/i386/obj/%.o)
	$(Q)rm -f $@ && ar rcs $@ $^

# The parts of the stub both arches share; each adds its entry code and handoff.
STUB_COMMON_OBJS := boot/x86/multiboot1_header.o boot/x86/multiboot2_header.o boot/stub.o \
	boot/console.o boot/bootenv.o boot/multiboot1.o boot/multiboot2.o boot/random_dump.o \
	arch/x86/arch_ops.o arch/x86/serial.o
STUB_I386_OBJS := $(addprefix $(BUILD)/i386/obj/, boot/i386/entry.o boot/i386/handoff.o \
	$(STUB_COMMON_OBJS))

$(BUILD)/i386/stub.elf: $(STUB_I386_OBJS) $(BUILD)/i386/libkslide.a boot/i386/stub.ld
	$(Q)$(I386_LD) -T boot/i386/stub.ld --gc-sections -o $@ $(STUB_I386_OBJS) $(BUILD)/i386/libkslide.a

$(BUILD)/i386/stub.bin: $(BUILD)/i386/stub.elf
	$(Q)$(OBJCOPY) -O binary $< $@

KERNEL_I386_OBJS := $(addprefix $(BUILD)/i386/obj/, kernel/i386/head.o kernel/i386/probes.o \
	kernel/main.o kernel/console.o kernel/qemu_exit.o kernel/selftest.o kernel/reloc_check.o \
	kernel/bootinfo_check.o kernel/report.o arch/x86/serial.o)
# The secrecy half: descriptor aliases, user mode, printk policy, kallsyms (docs/security.md).
# Each arch adds its own half (cpu_tables, vectors, trap, space, leak_arch, try_write).
KERNEL_SECRECY_SRCS := kernel/page_pool.o kernel/printk.o kernel/kptr.o kernel/syslog.o \
	kernel/sysctl.o kernel/kallsyms.o kernel/proc.o kernel/oops.o kernel/syscall.o \
	kernel/leak_test.o kernel/user_programs.o arch/x86/arch_ops.o
KERNEL_I386_OBJS += $(addprefix $(BUILD)/i386/obj/, kernel/i386/cpu_tables.o \
	kernel/i386/vectors.o kernel/i386/trap.o kernel/i386/space.o kernel/i386/leak_arch.o \
	kernel/i386/try_write.o $(KERNEL_SECRECY_SRCS))

# User programs: linked at USER_BASE, embedded in the kernel as flat images.
USER_I386_OBJS := $(addprefix $(BUILD)/i386/obj/, kernel/user/i386/crt0.o kernel/user/leak.o \
	kernel/user/ulib.o lib/format.o lib/string.o)

$(BUILD)/i386/user/leak.elf: $(USER_I386_OBJS) kernel/user/user.ld
	@mkdir -p $(dir $@)
	$(Q)$(I386_LD) -T kernel/user/user.ld -o $@ $(USER_I386_OBJS)

$(BUILD)/i386/user/%.bin: $(BUILD)/i386/user/%.elf
	$(Q)$(OBJCOPY) -O binary $< $@

$(BUILD)/i386/obj/kernel/user_programs.o: kernel/user_programs.S $(BUILD)/i386/user/leak.bin
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(I386_ASFLAGS) -DUSER_LEAK_BIN='"$(BUILD)/i386/user/leak.bin"' -c $< -o $@

# kallsyms, as Linux builds it: link with an empty table, then with the table of that link
# (the right size), then with the table of the second link; the last table must describe
# the last link exactly, or the build fails.
KALLSYMS := $(BUILD)/bin/kslide-kallsyms
$(KALLSYMS): $(BUILD)/tool/tools/kslide-kallsyms.o
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $^ $(TOOL_LIBS) -o $@

$(BUILD)/i386/kallsyms0.S: $(KALLSYMS)
	$(Q)$(KALLSYMS) --empty -o $@
$(BUILD)/i386/kallsyms1.S: $(BUILD)/i386/kernel.pass1.elf $(KALLSYMS)
	$(Q)$(KALLSYMS) -o $@ $<
$(BUILD)/i386/kallsyms2.S: $(BUILD)/i386/kernel.pass2.elf $(KALLSYMS)
	$(Q)$(KALLSYMS) -o $@ $<
$(BUILD)/i386/kallsyms%.o: $(BUILD)/i386/kallsyms%.S
	$(Q)$(HOSTCC) $(I386_ASFLAGS) -c $< -o $@

# --emit-relocs keeps the relocations the packer needs. LINK_PHYS_OVERRIDE links a second
# copy elsewhere for the relocation oracle test; it must come before -T, because the script's
# DEFINED(link_phys_override) only sees symbols defined before it.
# Link flags live here too, so every link depends on this Makefile.
KERNEL_I386_DEPS := $(KERNEL_I386_OBJS) $(BUILD)/i386/libkslide.a kernel/i386/kernel.ld Makefile
KERNEL_I386_LINK = $(I386_LD) $(KERNEL_LDFLAGS) -T kernel/i386/kernel.ld --emit-relocs -o $@ \
	$(KERNEL_I386_OBJS) $(BUILD)/i386/libkslide.a
$(BUILD)/i386/kernel.pass1.elf: $(KERNEL_I386_DEPS) $(BUILD)/i386/kallsyms0.o
	$(Q)$(KERNEL_I386_LINK) $(BUILD)/i386/kallsyms0.o
$(BUILD)/i386/kernel.pass2.elf: $(KERNEL_I386_DEPS) $(BUILD)/i386/kallsyms1.o
	$(Q)$(KERNEL_I386_LINK) $(BUILD)/i386/kallsyms1.o
# The passes link at the default base even when a moved oracle copy asks for them first.
$(BUILD)/i386/kernel.pass1.elf $(BUILD)/i386/kernel.pass2.elf: KERNEL_LDFLAGS :=
$(BUILD)/i386/kernel%elf: $(KERNEL_I386_DEPS) $(BUILD)/i386/kallsyms2.o $(KALLSYMS)
	$(Q)$(KERNEL_I386_LINK) $(BUILD)/i386/kallsyms2.o
	$(Q)$(KALLSYMS) -o $@.kallsyms.S $@ && cmp -s $@.kallsyms.S $(BUILD)/i386/kallsyms2.S || \
		{ echo "kallsyms: $@: symbols moved between links" >&2; rm -f $@; exit 1; }

#### freestanding x86-64 objects ####
# Three builds of the same sources: the stub (linked at 1 MiB, small code model), the
# -mcmodel=kernel reference kernel and the PIE one.
X86_64_CFLAGS := -std=c11 -O2 -g $(WARN) -I. -m64 -ffreestanding -mno-red-zone \
	-fno-stack-protector -mgeneral-regs-only -fno-asynchronous-unwind-tables \
	-fcf-protection=none -ffunction-sections -fdata-sections
X86_64_STUB_CFLAGS := $(X86_64_CFLAGS) -fno-pic -fno-pie -mcmodel=small
X86_64_KERNEL_CFLAGS := $(X86_64_CFLAGS) -fno-pic -fno-pie -mcmodel=kernel
X86_64_PIE_CFLAGS := $(X86_64_CFLAGS) -fpie
X86_64_LD := $(LD) -m elf_x86_64 -nostdlib -z noexecstack --no-warn-rwx-segments
X86_64 := $(BUILD)/x86_64

$(X86_64)/stub-obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(X86_64_STUB_CFLAGS) -MMD -MP -c $< -o $@
$(X86_64)/stub-obj/%.o: %.S
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) -m64 -I. -fno-pic -fno-pie -MMD -MP -c $< -o $@
$(X86_64)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(X86_64_KERNEL_CFLAGS) -MMD -MP -c $< -o $@
$(X86_64)/obj/%.o: %.S
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) -m64 -I. -fno-pic -fno-pie -MMD -MP -c $< -o $@
$(X86_64)/pie-obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(X86_64_PIE_CFLAGS) -MMD -MP -c $< -o $@
$(X86_64)/pie-obj/%.o: %.S
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) -m64 -I. -fpie -MMD -MP -c $< -o $@

$(X86_64)/stub-obj/libkslide.a: $(LIB_ALL:%.c=$(X86_64)/stub-obj/%.o)
	$(Q)rm -f $@ && ar rcs $@ $^
$(X86_64)/obj/libkslide.a: $(LIB_ALL:%.c=$(X86_64)/obj/%.o)
	$(Q)rm -f $@ && ar rcs $@ $^
$(X86_64)/pie-obj/libkslide.a: $(LIB_ALL:%.c=$(X86_64)/pie-obj/%.o)
	$(Q)rm -f $@ && ar rcs $@ $^

STUB_X86_64_OBJS := $(addprefix $(X86_64)/stub-obj/, boot/x86_64/entry.o boot/x86_64/handoff.o \
	$(STUB_COMMON_OBJS))

$(X86_64)/stub.elf: $(STUB_X86_64_OBJS) $(X86_64)/stub-obj/libkslide.a boot/x86_64/stub.ld
	$(Q)$(X86_64_LD) -T boot/x86_64/stub.ld --gc-sections -o $@ $(STUB_X86_64_OBJS) \
		$(X86_64)/stub-obj/libkslide.a

$(X86_64)/stub.bin: $(X86_64)/stub.elf
	$(Q)$(OBJCOPY) -O binary $< $@

KERNEL_X86_64_SRCS := kernel/x86_64/head.o kernel/x86_64/probes.o kernel/x86_64/walk.o \
	kernel/x86_64/paging.o kernel/x86_64/paging_check.o \
	kernel/main.o kernel/console.o kernel/qemu_exit.o kernel/selftest.o kernel/reloc_check.o \
	kernel/bootinfo_check.o kernel/report.o arch/x86/serial.o
KERNEL_X86_64_SRCS += kernel/x86_64/cpu_tables.o kernel/x86_64/vectors.o kernel/x86_64/trap.o \
	kernel/x86_64/space.o kernel/x86_64/leak_arch.o kernel/x86_64/try_write.o \
	$(KERNEL_SECRECY_SRCS)
KERNEL_X86_64_OBJS := $(addprefix $(X86_64)/obj/, $(KERNEL_X86_64_SRCS))
KERNEL_X86_64_PIE_OBJS := $(addprefix $(X86_64)/pie-obj/, $(KERNEL_X86_64_SRCS))

# The -mcmodel=kernel build keeps its relocations with --emit-relocs; the PIE carries them as
# dynamic ones, packed RELR-style (-z pack-relative-relocs); kernel-pie-rela keeps plain RELA
# for the packer's other path. The PIE's --emit-relocs copies are for the oracle only, which
# finds absolute-symbol references in them; the packer reads the dynamic ones. The -up/-down
# copies are moved for the relocation oracle.
KERNEL_X86_64_ELFS := $(addprefix $(X86_64)/, kernel.elf kernel-up.elf kernel-down.elf)
PIE_X86_64_ELFS := $(addprefix $(X86_64)/, kernel-pie.elf kernel-pie-up.elf kernel-pie-rela.elf \
	kernel-pie-rela-up.elf)
# kallsyms in three links as for i386, once per layout (kernel, kernel-pie, kernel-pie-rela:
# their dynamic sections differ in size, so their symbols do). A link takes the one table
# among its prerequisites; the -up/-down copies take their layout's last table, which fits
# them too (offsets from _kernel_start), and are checked like the real one.
X86_64_KSYMS_LAYOUTS := kernel kernel-pie kernel-pie-rela
X86_64_PASS_ELFS := $(foreach l,$(X86_64_KSYMS_LAYOUTS), \
	$(X86_64)/$(l).pass1.elf $(X86_64)/$(l).pass2.elf)
X86_64_KSYMS = $(filter %.kallsyms0.o %.kallsyms1.o %.kallsyms2.o,$^)
X86_64_KSYMS_LAST = $(patsubst %.o,%.S,$(filter %.kallsyms2.o,$^))
X86_64_KSYMS_CHECK = $(if $(X86_64_KSYMS_LAST),$(Q)$(KALLSYMS) -o $@.kallsyms.S $@ && \
	cmp -s $@.kallsyms.S $(X86_64_KSYMS_LAST) || \
	{ echo "kallsyms: $@: symbols moved between links" >&2; rm -f $@; exit 1; })
$(X86_64)/%.kallsyms0.S: $(KALLSYMS)
	$(Q)$(KALLSYMS) --empty -o $@
$(X86_64)/%.kallsyms1.S: $(X86_64)/%.pass1.elf $(KALLSYMS)
	$(Q)$(KALLSYMS) -o $@ $<
$(X86_64)/%.kallsyms2.S: $(X86_64)/%.pass2.elf $(KALLSYMS)
	$(Q)$(KALLSYMS) -o $@ $<
X86_64_KSYMS_OBJS := $(foreach l,$(X86_64_KSYMS_LAYOUTS), \
	$(foreach n,0 1 2,$(X86_64)/$(l).kallsyms$(n).o))
$(X86_64_KSYMS_OBJS): %.o: %.S
	$(Q)$(HOSTCC) -m64 -c $< -o $@
$(foreach l,$(X86_64_KSYMS_LAYOUTS),$(eval $(X86_64)/$(l).pass1.elf: $(X86_64)/$(l).kallsyms0.o))
$(foreach l,$(X86_64_KSYMS_LAYOUTS),$(eval $(X86_64)/$(l).pass2.elf: $(X86_64)/$(l).kallsyms1.o))
$(KERNEL_X86_64_ELFS): $(X86_64)/kernel.kallsyms2.o $(KALLSYMS)
$(X86_64)/kernel-pie.elf $(X86_64)/kernel-pie-up.elf: $(X86_64)/kernel-pie.kallsyms2.o $(KALLSYMS)
$(X86_64)/kernel-pie-rela.elf $(X86_64)/kernel-pie-rela-up.elf: \
	$(X86_64)/kernel-pie-rela.kallsyms2.o $(KALLSYMS)
# The passes always link at the default bases, even when an -up/-down copy asks for them first
# (a target's variables would otherwise pass down to its prerequisites).
$(X86_64_PASS_ELFS): X86_64_BASES :=

$(KERNEL_X86_64_ELFS) $(X86_64)/kernel.pass1.elf $(X86_64)/kernel.pass2.elf: \
		$(KERNEL_X86_64_OBJS) $(X86_64)/obj/libkslide.a kernel/x86_64/kernel.ld Makefile
	$(Q)$(X86_64_LD) $(X86_64_BASES) -T kernel/x86_64/kernel.ld --emit-relocs -o $@ \
		$(KERNEL_X86_64_OBJS) $(X86_64)/obj/libkslide.a $(X86_64_KSYMS)
	$(X86_64_KSYMS_CHECK)
$(PIE_X86_64_ELFS) $(filter $(X86_64)/kernel-pie%,$(X86_64_PASS_ELFS)): \
		$(KERNEL_X86_64_PIE_OBJS) $(X86_64)/pie-obj/libkslide.a kernel/x86_64/kernel-pie.ld \
		Makefile
	$(Q)$(X86_64_LD) $(X86_64_BASES) -pie --no-dynamic-linker -z text $(PIE_RELOCS) --emit-relocs \
		-T kernel/x86_64/kernel-pie.ld -o $@ $(KERNEL_X86_64_PIE_OBJS) \
		$(X86_64)/pie-obj/libkslide.a $(X86_64_KSYMS)
	$(X86_64_KSYMS_CHECK)
PIE_RELOCS := -z pack-relative-relocs
$(X86_64)/kernel-pie-rela.elf $(X86_64)/kernel-pie-rela-up.elf $(X86_64)/kernel-pie-rela.pass1.elf \
	$(X86_64)/kernel-pie-rela.pass2.elf: PIE_RELOCS := -z nopack-relative-relocs

# User programs, as for i386: small code model, linked at USER_BASE, embedded in both kernels.
$(X86_64)/user-obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(X86_64_STUB_CFLAGS) -MMD -MP -c $< -o $@
$(X86_64)/user-obj/%.o: %.S
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) -m64 -I. -fno-pic -fno-pie -MMD -MP -c $< -o $@
USER_X86_64_OBJS := $(addprefix $(X86_64)/user-obj/, kernel/user/x86_64/crt0.o \
	kernel/user/leak.o kernel/user/ulib.o lib/format.o lib/string.o)
$(X86_64)/user/leak.elf: $(USER_X86_64_OBJS) kernel/user/x86_64/user.ld
	@mkdir -p $(dir $@)
	$(Q)$(X86_64_LD) -T kernel/user/x86_64/user.ld -o $@ $(USER_X86_64_OBJS)
$(X86_64)/user/%.bin: $(X86_64)/user/%.elf
	$(Q)$(OBJCOPY) -O binary $< $@
$(X86_64)/obj/kernel/user_programs.o $(X86_64)/pie-obj/kernel/user_programs.o: \
		kernel/user_programs.S $(X86_64)/user/leak.bin
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) -m64 -I. -DUSER_LEAK_BIN='"$(X86_64)/user/leak.bin"' -c $< -o $@

#### host tools ####
LIB_TOOL_OBJS := $(LIB_SRCS:%.c=$(BUILD)/tool/%.o)
PACK_OBJS := $(addprefix $(BUILD)/tool/, tools/kslide-pack.o tools/pack/kernel_elf.o \
	tools/pack/dynamic_relocs.o tools/pack/gotpcrelx.o tools/pack/image_writer.o \
	tools/pack/stubs.o)

$(BUILD)/tool/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(TOOL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/tool/tools/pack/stubs.o: tools/pack/stubs.S $(BUILD)/i386/stub.bin $(X86_64)/stub.bin
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) -c -DSTUB_I386='"$(BUILD)/i386/stub.bin"' \
		-DSTUB_X86_64='"$(X86_64)/stub.bin"' $< -o $@

$(BUILD)/bin/kslide-pack: $(PACK_OBJS) $(LIB_TOOL_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $^ $(TOOL_LIBS) -o $@

# kslide-stat (tools/stat/): boots an image many times and measures its bases.
STAT_OBJS := $(addprefix $(BUILD)/tool/, tools/kslide-stat.o tools/stat/boots.o \
	tools/stat/lines.o tools/stat/samples.o tools/stat/layout.o tools/stat/stats.o \
	tools/stat/seed.o tools/stat/plot.o tools/stat/output.o)
STAT_LIBS := -lcairo -lgsl -lgslcblas -lm

$(BUILD)/tool/tools/stat/plot.o: TOOL_CFLAGS += $(shell pkg-config --cflags cairo 2>/dev/null)

$(BUILD)/bin/kslide-stat: $(STAT_OBJS) $(LIB_TOOL_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $^ $(STAT_LIBS) -o $@

tools: $(BUILD)/bin/kslide-pack $(BUILD)/bin/kslide-stat

#### relocation oracle: the linker judges the packer ####
# The same objects linked at other addresses; moving kernel.elf there with the packer's table
# must give exactly these bytes. 0x1234000 is 4 KiB aligned but no 2 MiB multiple.
ORACLE_I386_ELFS := $(BUILD)/i386/kernel-at-22m.elf $(BUILD)/i386/kernel-at-0x1234000.elf
$(BUILD)/i386/kernel-at-22m.elf: KERNEL_LDFLAGS = --defsym=link_phys_override=0x1600000
$(BUILD)/i386/kernel-at-0x1234000.elf: KERNEL_LDFLAGS = --defsym=link_phys_override=0x1234000
ORACLE_OBJS := $(addprefix $(BUILD)/tool/, tests/oracle/reloc_oracle.o tools/pack/kernel_elf.o \
	tools/pack/dynamic_relocs.o tools/pack/gotpcrelx.o tools/pack/image_writer.o)

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
X86_64_ORACLE_OBJS := $(X86_64_ORACLE)/obj/head.o $(X86_64_ORACLE)/obj/tables.o
X86_64_ORACLE_LDFLAGS := -nostdlib -z noexecstack --emit-relocs
X86_64_ORACLE_LD := tests/oracle/x86_64/kernel.ld

$(X86_64_ORACLE)/obj/%.o: tests/oracle/x86_64/%.c
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(X86_64_ORACLE_CFLAGS) -MMD -MP -c $< -o $@

$(X86_64_ORACLE)/obj/%.o: tests/oracle/x86_64/%.S
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) -m64 -fno-pic -fno-pie -MMD -MP -c $< -o $@

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

.PHONY: oracle
oracle: $(BUILD)/bin/reloc-oracle $(BUILD)/i386/kernel.elf $(ORACLE_I386_ELFS) \
		$(X86_64_ORACLE_ELFS) $(KERNEL_X86_64_ELFS) $(PIE_X86_64_ELFS) \
		$(BUILD)/i386/kernel.img $(X86_64)/kernel.img $(X86_64)/kernel-pie.img
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

#### packed images ####
$(BUILD)/i386/kernel.img: $(BUILD)/i386/kernel.elf $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack -o $@ $<

# x86-64: the -mcmodel=kernel and the PIE reference kernel.
$(X86_64)/kernel.img: $(X86_64)/kernel.elf $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack -o $@ $<
$(X86_64)/kernel-pie.img: $(X86_64)/kernel-pie.elf $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack -o $@ $<
$(X86_64)/kernel-4k.img $(X86_64)/kernel-pie-4k.img: $(X86_64)/%-4k.img: $(X86_64)/%.elf \
		$(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack --align 4K -o $@ $<
# Only RAM above 4 GiB allowed: the boot tests' way to place the kernel there every time.
$(X86_64)/kernel-high.img: $(X86_64)/kernel.elf $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack --min 4G -o $@ $<
# Images only the tests boot.
TEST_IMAGES := $(BUILD)/i386/kernel-4k.img $(X86_64)/kernel-4k.img $(X86_64)/kernel-pie-4k.img \
	$(X86_64)/kernel-high.img

images: $(BUILD)/i386/kernel.img $(X86_64)/kernel.img $(X86_64)/kernel-pie.img

# The reference kernel at 4 KiB alignment, for the boot tests.
$(BUILD)/i386/kernel-4k.img: $(BUILD)/i386/kernel.elf $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack --align 4K -o $@ $<

#### GRUB ISOs: multiboot2 + module2, bootable under BIOS and UEFI (scripts/mkiso.sh) ####
# The module is random bytes; GRUB hands it over with crc32=, which the kernel checks.
ISO_MODULE := $(BUILD)/iso/module.bin
$(ISO_MODULE):
	@mkdir -p $(dir $@)
	$(Q)head -c 1M /dev/urandom >$@.tmp && mv $@.tmp $@

$(BUILD)/%/kernel.iso: $(BUILD)/%/kernel.img $(ISO_MODULE) scripts/mkiso.sh
	$(Q)scripts/mkiso.sh -o $@ $< $(ISO_MODULE)

ISOS := $(BUILD)/i386/kernel.iso $(X86_64)/kernel.iso
.PHONY: iso
iso: $(BOOTSTRAP_STAMP)
	$(Q)$(MAKE) -s --no-print-directory tools images $(ISOS)

# The example kernel for kernel authors (docs/kernel-authors.md), built by its own Makefile.
EXAMPLE_I386_DIR := examples/minimal-i386
$(BUILD)/examples/minimal-i386/example.img: $(BUILD)/bin/kslide-pack include/kslide/bootinfo.h \
		$(wildcard $(EXAMPLE_I386_DIR)/*.c $(EXAMPLE_I386_DIR)/*.S $(EXAMPLE_I386_DIR)/*.ld \
		$(EXAMPLE_I386_DIR)/Makefile)
	$(Q)$(MAKE) --no-print-directory $(if $(Q),-s) -C $(EXAMPLE_I386_DIR) \
		OUT=$(abspath $(BUILD))/examples/minimal-i386 KSLIDE_PACK=$(abspath $(BUILD)/bin/kslide-pack)

#### fuzzing: libFuzzer targets for every parser (tests/fuzz/) ####
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 600
FUZZ_SMOKE_SECONDS := 10
FUZZ_CFLAGS := -std=c11 -g -O1 $(WARN) -I. -D_DEFAULT_SOURCE \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_NAMES := elf reloc image multiboot1 multiboot2 slots zstd lz4
FUZZ_BINS := $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz_%)
# What each target links besides its harness; every binary is one clang run over sources.
FUZZ_SRCS_elf := tools/pack/kernel_elf.c tools/pack/dynamic_relocs.c tools/pack/gotpcrelx.c \
	tools/pack/image_writer.c \
	$(LIB_SRCS)
FUZZ_LIBS_elf := -lelf
FUZZ_SRCS_reloc := lib/reloc.c
FUZZ_SRCS_image := lib/image.c lib/crc32.c
FUZZ_SRCS_multiboot1 := boot/multiboot1.c boot/bootenv.c
FUZZ_SRCS_multiboot2 := boot/multiboot2.c boot/bootenv.c
FUZZ_SRCS_slots := lib/slots.c
# The decoders against the real libraries (docs/compression.md).
FUZZ_SRCS_zstd := $(wildcard lib/zstd_*.c) lib/xxhash.c
FUZZ_LIBS_zstd := -lzstd
FUZZ_SRCS_lz4 := lib/lz4.c lib/xxhash.c
FUZZ_LIBS_lz4 := -llz4
FUZZ_DEPS := $(LIB_SRCS) $(UNIT_BOOT_SRCS) tools/pack/kernel_elf.c tools/pack/image_writer.c \
	tools/pack/gotpcrelx.c tools/pack/dynamic_relocs.c \
	$(wildcard lib/*.h boot/*.h tools/pack/*.h include/kslide/*.h tests/fuzz/*.h)

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_DEPS)
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $< $(FUZZ_SRCS_$*) $(FUZZ_LIBS_$*) -o $@

.PHONY: fuzz fuzz-smoke
# Long runs keep their growing corpora in $(BUILD)/fuzz/corpus/.
fuzz: $(FUZZ_BINS)
	$(Q)scripts/fuzz.sh -k $(BUILD) $(FUZZ_SECONDS) $(FUZZ_NAMES)

fuzz-smoke: $(FUZZ_BINS)
	$(Q)scripts/fuzz.sh $(BUILD) $(FUZZ_SMOKE_SECONDS) $(FUZZ_NAMES)

#### benchmarks (bench/, docs/results.md) ####
# Host programs at -O2 without sanitizers, over the same lib/ objects the tools use.
BENCH_BINS := $(BUILD)/bench/reloc-bench $(BUILD)/bench/slots-bench

$(BUILD)/bench/reloc-bench: $(BUILD)/tool/bench/reloc_bench.o \
		$(BUILD)/tool/tools/pack/image_writer.o $(LIB_TOOL_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $^ $(TOOL_LIBS) -o $@

$(BUILD)/bench/slots-bench: $(BUILD)/tool/bench/slots_bench.o $(LIB_TOOL_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $^ -lm -o $@

$(BUILD)/bench/tbcount: bench/tbcount.c
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(TOOL_CFLAGS) $< -o $@

# Boot cost: the reference kernels grown to about 8 and 32 MiB by a .data blob with one
# relocation per 256 bytes (bench/pad.S); "1m" has no blob. All are linked at 64 MiB: at the
# usual 16 MiB a 32 MiB kernel would overlap its own packed image (loaded from 1 MiB), and
# nokaslr could not boot it.
BENCH_KERNEL_MIB := 1 8 32
BENCH_IMAGES := $(BENCH_KERNEL_MIB:%=$(BUILD)/bench/i386/kernel-%m.img) \
	$(BENCH_KERNEL_MIB:%=$(BUILD)/bench/x86_64/kernel-%m.img)
PAD_BYTES = -DPAD_BYTES='(($*-1)*1024*1024)'
$(BUILD)/bench/i386/pad-%m.o: bench/pad.S
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(I386_ASFLAGS) $(PAD_BYTES) -c $< -o $@
$(BUILD)/bench/x86_64/pad-%m.o: bench/pad.S
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) -m64 -fno-pic -fno-pie $(PAD_BYTES) -c $< -o $@
# Only the stub is measured, so the kernels link with an empty kallsyms table (one pass).
$(BUILD)/bench/i386/kernel-%m.elf: $(KERNEL_I386_OBJS) $(BUILD)/bench/i386/pad-%m.o \
		$(BUILD)/i386/kallsyms0.o $(BUILD)/i386/libkslide.a kernel/i386/kernel.ld
	$(Q)$(I386_LD) --defsym=link_phys_override=0x4000000 -T kernel/i386/kernel.ld \
		--emit-relocs -o $@ $(KERNEL_I386_OBJS) $(BUILD)/bench/i386/pad-$*m.o \
		$(BUILD)/i386/kallsyms0.o $(BUILD)/i386/libkslide.a
$(BUILD)/bench/x86_64/kernel-%m.elf: $(KERNEL_X86_64_OBJS) $(BUILD)/bench/x86_64/pad-%m.o \
		$(X86_64)/kernel.kallsyms0.o $(X86_64)/obj/libkslide.a kernel/x86_64/kernel.ld
	$(Q)$(X86_64_LD) --defsym=phys_override=0x4000000 -T kernel/x86_64/kernel.ld \
		--emit-relocs -o $@ $(KERNEL_X86_64_OBJS) $(BUILD)/bench/x86_64/pad-$*m.o \
		$(X86_64)/kernel.kallsyms0.o $(X86_64)/obj/libkslide.a
$(BUILD)/bench/%.img: $(BUILD)/bench/%.elf $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack -o $@ $<

.PHONY: bench
# all first, on its own: it is a recursive make, which must not race this one for the stubs.
bench: $(BOOTSTRAP_STAMP)
	$(Q)$(MAKE) -s --no-print-directory all
	$(Q)$(MAKE) -s --no-print-directory $(BENCH_BINS) $(BUILD)/bench/tbcount $(BENCH_IMAGES)
	$(Q)bench/run.sh $(BUILD)

#### the front door ####
# Missing Debian packages are installed (as root) or named before anything is built.
$(BOOTSTRAP_STAMP): scripts/bootstrap.sh
	$(Q)scripts/bootstrap.sh
	@mkdir -p $(dir $@) && touch $@

bootstrap:
	$(Q)scripts/bootstrap.sh

$(BUILD)/host/tests/uniformity: tests/boot/uniformity.c tools/stat/stats.c tools/stat/stats.h
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) -std=c11 -O2 $(WARN) -I. tests/boot/uniformity.c tools/stat/stats.c \
		-lgsl -lgslcblas -lm -o $@

# `all` first and on its own: its recursive make must not race the targets below for the
# stubs and the packer under -j.
check: $(BOOTSTRAP_STAMP)
	$(Q)$(MAKE) -s --no-print-directory all
	$(Q)$(MAKE) -s --no-print-directory $(UNIT_BINS) $(BUILD)/host/tests/uniformity \
		$(TEST_IMAGES) $(BUILD)/examples/minimal-i386/example.img $(ISOS)
	$(Q)scripts/check.sh $(BUILD)

# The stub's generator output from many boots through rngtest and ent (docs/results.md).
ENTROPY_BOOTS ?= 100
ENTROPY_BYTES ?= 8192
.PHONY: entropy-quality
entropy-quality: $(BOOTSTRAP_STAMP)
	$(Q)$(MAKE) -s --no-print-directory all
	$(Q)nice -n 10 scripts/entropy-quality.sh $(BUILD) $(BUILD)/i386/kernel.img $(ENTROPY_BOOTS) \
		$(ENTROPY_BYTES)

run: $(BOOTSTRAP_STAMP)
	$(Q)$(MAKE) -s --no-print-directory all
	$(Q)scripts/run.sh $(BUILD)/i386/kernel.img 4
	$(Q)scripts/run.sh -a x86_64 $(X86_64)/kernel.img 4
	$(Q)scripts/run.sh -a x86_64 $(X86_64)/kernel-pie.img 4 6G

# Keep objects that only pattern chains produce.
.SECONDARY:

clean:
	rm -rf $(BUILD)

include mk/decoders.mk

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
