# The reference kernels (kernel/): i386, and x86-64 twice (-mcmodel=kernel and PIE), each
# linked three times for kallsyms, plus the user programs they embed.

# Objects by glob, one folder at a time (as Limine finds its sources): a new file in a folder
# needs no edit here. kernel/ holds the core (entry, console, the verdict); its folders group by
# concern, and kernel/<arch>/ holds each arch's half (its head.S goes first by its section,
# .text.head, in the linker script, not by the order here).
#   selftest/  the in-guest suites: selftest=NAME is selftest/NAME.c (an arch's own suite,
#              kernel/<arch>/selftest_NAME.c), their helpers selftest/NAME_*.c
#   cpu/       descriptor tables, traps        mm/      frames, pools, address spaces, walks
#   proc/      processes, system calls         secrecy/ entry area, %p, kallsyms, syslog, oops
#   smp/       starting and calling APs        acpi/    the MADT, S3 suspend and PCI state
KERNEL_FOLDERS := kernel kernel/selftest kernel/cpu kernel/mm kernel/proc kernel/secrecy \
	kernel/smp kernel/acpi
kernel_objs = $(patsubst %.c,%.o,$(patsubst %.S,%.o,$(sort $(wildcard $(addsuffix /*.c,$(1)) \
	$(addsuffix /*.S,$(1))))))
# Both arches' objects: every folder's, and the x86 layer's serial port and arch_ops.
KERNEL_SHARED_OBJS := $(call kernel_objs,$(KERNEL_FOLDERS)) arch/x86/serial.o arch/x86/arch_ops.o

#### i386 ####
KERNEL_I386_OBJS := $(addprefix $(BUILD)/i386/obj/, $(call kernel_objs,kernel/i386) \
	$(KERNEL_SHARED_OBJS))

# User programs: linked at USER_BASE, embedded in the kernel as flat images.
USER_I386_OBJS := $(addprefix $(BUILD)/i386/obj/, kernel/user/i386/crt0.o kernel/user/leak.o \
	kernel/user/ulib.o lib/format.o lib/string.o)

$(BUILD)/i386/user/leak.elf: $(USER_I386_OBJS) kernel/user/user.ld
	@mkdir -p $(dir $@)
	$(Q)$(I386_LD) -T kernel/user/user.ld -o $@ $(USER_I386_OBJS)

$(BUILD)/i386/obj/kernel/proc/user_programs.o: kernel/proc/user_programs.S $(BUILD)/i386/user/leak.bin
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
KERNEL_X86_64_SRCS := $(call kernel_objs,kernel/x86_64) $(KERNEL_SHARED_OBJS)
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
$(X86_64)/obj/kernel/proc/user_programs.o $(X86_64)/pie-obj/kernel/proc/user_programs.o: \
		kernel/proc/user_programs.S $(X86_64)/user/leak.bin
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(X86_64_ASFLAGS) -DUSER_LEAK_BIN='"$(X86_64)/user/leak.bin"' -c $< -o $@

$(BUILD)/%/user/leak.bin: $(BUILD)/%/user/leak.elf
	$(Q)$(OBJCOPY) -O binary $< $@

#### packed images ####
$(BUILD)/i386/kernel.img $(X86_64)/kernel.img $(X86_64)/kernel-pie.img: $(BUILD)/%.img: \
		$(BUILD)/%.elf $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack -o $@ $<
IMAGES := $(BUILD)/i386/kernel.img $(X86_64)/kernel.img $(X86_64)/kernel-pie.img
