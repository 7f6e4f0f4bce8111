# The reference kernels (kernel/): i386, and x86-64 twice (-mcmodel=kernel and PIE), each
# linked three times for kallsyms, plus the user programs they embed.

#### i386 ####
KERNEL_I386_OBJS := $(addprefix $(BUILD)/i386/obj/, kernel/i386/head.o kernel/probes.o \
	kernel/main.o kernel/boot_entry.o kernel/console.o kernel/qemu_exit.o kernel/selftest.o \
	kernel/reloc_check.o kernel/bootinfo_check.o kernel/report.o arch/x86/serial.o)
# The secrecy half: the entry area, user mode, printk policy, kallsyms (docs/security.md).
# Each arch adds its own half (cpu_tables, entry, vectors, space).
KERNEL_SECRECY_SRCS := kernel/page_pool.o kernel/printk.o kernel/kptr.o kernel/syslog.o \
	kernel/sysctl.o kernel/kallsyms.o kernel/proc.o kernel/oops.o kernel/syscall.o \
	kernel/leak_test.o kernel/user_programs.o arch/x86/arch_ops.o kernel/cpu_tables.o \
	kernel/trap.o kernel/try_write.o kernel/space.o kernel/walk.o kernel/leak_cpu.o \
	kernel/entry_area.o kernel/frames.o kernel/seed_random.o kernel/leak_closure.o
KERNEL_SECRECY_SRCS += kernel/acpi.o kernel/phys_map.o kernel/smp.o kernel/smp_test.o \
	kernel/trampoline.o
# Ring 3 on every CPU: work handed to an AP, and what ring 3 sees on each.
KERNEL_SECRECY_SRCS += kernel/smp_call.o kernel/smp_view.o
# Suspend to RAM (ACPI S3) and resume.
KERNEL_SECRECY_SRCS += kernel/acpi_aml.o kernel/acpi_sleep.o kernel/pci_state.o kernel/suspend.o \
	kernel/suspend_test.o
KERNEL_I386_OBJS += $(addprefix $(BUILD)/i386/obj/, kernel/i386/cpu_tables.o \
	kernel/i386/entry.o kernel/i386/vectors.o kernel/i386/space.o kernel/i386/smp.o \
	kernel/i386/phys_map.o kernel/i386/trampoline.o kernel/i386/wakeup.o $(KERNEL_SECRECY_SRCS))

# User programs: linked at USER_BASE, embedded in the kernel as flat images.
USER_I386_OBJS := $(addprefix $(BUILD)/i386/obj/, kernel/user/i386/crt0.o kernel/user/leak.o \
	kernel/user/ulib.o lib/format.o lib/string.o)

$(BUILD)/i386/user/leak.elf: $(USER_I386_OBJS) kernel/user/user.ld
	@mkdir -p $(dir $@)
	$(Q)$(I386_LD) -T kernel/user/user.ld -o $@ $(USER_I386_OBJS)

$(BUILD)/i386/obj/kernel/user_programs.o: kernel/user_programs.S $(BUILD)/i386/user/leak.bin
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(I386_ASFLAGS) -DUSER_LEAK_BIN='"$(BUILD)/i386/user/leak.bin"' -c $< -o $@

# kallsyms, as Linux builds it: link with an empty table, then with the table of that link
# (the right size), then with the table of the second link; the last table must describe
# the last link exactly, or the build fails.
KALLSYMS := $(BUILD)/bin/kslide-kallsyms

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
KERNEL_I386_DEPS := $(KERNEL_I386_OBJS) $(BUILD)/i386/obj/libkslide.a kernel/i386/kernel.ld \
	$(BUILD_RULES)
KERNEL_I386_LINK = $(I386_LD) $(KERNEL_LDFLAGS) -T kernel/i386/kernel.ld --emit-relocs -o $@ \
	$(KERNEL_I386_OBJS) $(BUILD)/i386/obj/libkslide.a
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

#### x86-64 ####
KERNEL_X86_64_SRCS := kernel/x86_64/head.o kernel/probes.o \
	kernel/x86_64/paging.o kernel/x86_64/paging_check.o \
	kernel/main.o kernel/boot_entry.o kernel/console.o kernel/qemu_exit.o kernel/selftest.o \
	kernel/reloc_check.o kernel/bootinfo_check.o kernel/report.o arch/x86/serial.o
KERNEL_X86_64_SRCS += kernel/x86_64/cpu_tables.o kernel/x86_64/entry.o kernel/x86_64/vectors.o \
	kernel/x86_64/space.o kernel/x86_64/smp.o kernel/x86_64/phys_map.o kernel/x86_64/trampoline.o \
	kernel/x86_64/wakeup.o $(KERNEL_SECRECY_SRCS)
KERNEL_X86_64_OBJS := $(addprefix $(X86_64)/obj/, $(KERNEL_X86_64_SRCS))
KERNEL_X86_64_PIE_OBJS := $(addprefix $(X86_64)/pie-obj/, $(KERNEL_X86_64_SRCS))

# The -mcmodel=kernel build keeps its relocations with --emit-relocs; the PIE carries them as
# dynamic ones, packed RELR-style (-z pack-relative-relocs); kernel-pie-rela keeps plain RELA
# for the packer's other path. The PIE's --emit-relocs copies are for the oracle only, which
# finds absolute-symbol references in them; the packer reads the dynamic ones. The -up/-down
# copies are moved for the relocation oracle (mk/tests.mk).
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
	$(Q)$(HOSTCC) $(X86_64_ASFLAGS) -c $< -o $@
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
		$(KERNEL_X86_64_OBJS) $(X86_64)/obj/libkslide.a kernel/x86_64/kernel.ld $(BUILD_RULES)
	$(Q)$(X86_64_LD) $(X86_64_BASES) -T kernel/x86_64/kernel.ld --emit-relocs -o $@ \
		$(KERNEL_X86_64_OBJS) $(X86_64)/obj/libkslide.a $(X86_64_KSYMS)
	$(X86_64_KSYMS_CHECK)
$(PIE_X86_64_ELFS) $(filter $(X86_64)/kernel-pie%,$(X86_64_PASS_ELFS)): \
		$(KERNEL_X86_64_PIE_OBJS) $(X86_64)/pie-obj/libkslide.a kernel/x86_64/kernel-pie.ld \
		$(BUILD_RULES)
	$(Q)$(X86_64_LD) $(X86_64_BASES) -pie --no-dynamic-linker -z text $(PIE_RELOCS) --emit-relocs \
		-T kernel/x86_64/kernel-pie.ld -o $@ $(KERNEL_X86_64_PIE_OBJS) \
		$(X86_64)/pie-obj/libkslide.a $(X86_64_KSYMS)
	$(X86_64_KSYMS_CHECK)
PIE_RELOCS := -z pack-relative-relocs
$(X86_64)/kernel-pie-rela.elf $(X86_64)/kernel-pie-rela-up.elf $(X86_64)/kernel-pie-rela.pass1.elf \
	$(X86_64)/kernel-pie-rela.pass2.elf: PIE_RELOCS := -z nopack-relative-relocs

# User programs, as for i386: small code model, linked at USER_BASE, embedded in both kernels.
USER_X86_64_OBJS := $(addprefix $(X86_64)/user-obj/, kernel/user/x86_64/crt0.o \
	kernel/user/leak.o kernel/user/ulib.o lib/format.o lib/string.o)
$(X86_64)/user/leak.elf: $(USER_X86_64_OBJS) kernel/user/x86_64/user.ld
	@mkdir -p $(dir $@)
	$(Q)$(X86_64_LD) -T kernel/user/x86_64/user.ld -o $@ $(USER_X86_64_OBJS)
$(X86_64)/obj/kernel/user_programs.o $(X86_64)/pie-obj/kernel/user_programs.o: \
		kernel/user_programs.S $(X86_64)/user/leak.bin
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(X86_64_ASFLAGS) -DUSER_LEAK_BIN='"$(X86_64)/user/leak.bin"' -c $< -o $@

$(BUILD)/%/user/leak.bin: $(BUILD)/%/user/leak.elf
	$(Q)$(OBJCOPY) -O binary $< $@

#### packed images ####
$(BUILD)/i386/kernel.img $(X86_64)/kernel.img $(X86_64)/kernel-pie.img: $(BUILD)/%.img: \
		$(BUILD)/%.elf $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack -o $@ $<
IMAGES := $(BUILD)/i386/kernel.img $(X86_64)/kernel.img $(X86_64)/kernel-pie.img
