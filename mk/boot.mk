# The stubs (boot/): one flat binary per arch, embedded in kslide-pack.

# The stub's objects, found by glob: boot/*.c (policy, the ways in and out, tabled in
# protocols.c) and the Multiboot headers in boot/x86/ for both arches, each arch's own folder
# (its entry, mapping and way into 32-bit mode; x86-64's PVH header) first. The PVH and UEFI
# ways in exist only on x86-64.
STUB_I386_ONLY :=
STUB_X86_64_ONLY := boot/loader_pvh.c boot/loader_uefi.c boot/efi_main.c boot/efi_exit.c \
	boot/efi_rng.c boot/efi_cmdline.c boot/efi_initrd.c \
	boot/efi_secure_boot.c boot/efi_measure.c boot/efi_trial.c
STUB_ARCH_ONLY := $(STUB_I386_ONLY) $(STUB_X86_64_ONLY)
STUB_COMMON_OBJS := $(patsubst %.S,%.o,$(wildcard boot/x86/*.S)) \
	$(patsubst %.c,%.o,$(filter-out $(STUB_ARCH_ONLY),$(wildcard boot/*.c))) \
	arch/x86/arch_ops.o arch/x86/serial.o
stub_arch_objs = $(patsubst %.c,%.o,$(patsubst %.S,%.o,$(wildcard boot/$(1)/*.S boot/$(1)/*.c)))
STUB_I386_OBJS := $(addprefix $(BUILD)/i386/obj/, $(call stub_arch_objs,i386) \
	$(STUB_I386_ONLY:%.c=%.o) $(STUB_COMMON_OBJS))
STUB_X86_64_OBJS := $(addprefix $(X86_64)/stub-obj/, $(call stub_arch_objs,x86_64) \
	$(STUB_X86_64_ONLY:%.c=%.o) $(STUB_COMMON_OBJS))

# One linker script for both stubs: the arch (i386, x86_64: the build directory's name) picks
# the output format; -undef keeps gcc's own i386 macro from eating the word.
$(BUILD)/%/stub.ld: boot/stub.ld.S $(BUILD_RULES)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) -E -P -undef -x assembler-with-cpp -DSTUB_ARCH_$* -o $@ $<

# Each stub links twice, with --emit-relocs: with an empty table of its own relocations, then
# with the table of that link (kslide-stub-relocs; boot/stub.ld.S says why the second link
# moves nothing), and the build checks that the table inside is the last link's own.
# STUB_LDFLAGS links a copy elsewhere for the oracle (mk/tests.mk).
STUB_RELOCS := $(BUILD)/bin/kslide-stub-relocs
STUB_I386_LINK = $(I386_LD) $(STUB_LDFLAGS) -T $(BUILD)/i386/stub.ld --gc-sections --emit-relocs \
	-o $@ $(STUB_I386_OBJS) $(BUILD)/i386/obj/libkslide.a
STUB_X86_64_LINK = $(X86_64_LD) $(STUB_LDFLAGS) -T $(X86_64)/stub.ld --gc-sections --emit-relocs \
	-o $@ $(STUB_X86_64_OBJS) $(X86_64)/stub-obj/libkslide.a
STUB_I386_DEPS := $(STUB_I386_OBJS) $(BUILD)/i386/obj/libkslide.a $(BUILD)/i386/stub.ld \
	$(BUILD_RULES)
STUB_X86_64_DEPS := $(STUB_X86_64_OBJS) $(X86_64)/stub-obj/libkslide.a $(X86_64)/stub.ld \
	$(BUILD_RULES)

$(BUILD)/%/stub-relocs0.S: $(STUB_RELOCS)
	@mkdir -p $(dir $@)
	$(Q)$(STUB_RELOCS) --empty -o $@
$(BUILD)/%/stub-relocs1.S: $(BUILD)/%/stub.pass1.elf $(STUB_RELOCS)
	$(Q)$(STUB_RELOCS) -o $@ $<
$(BUILD)/i386/stub-relocs%.o: $(BUILD)/i386/stub-relocs%.S
	$(Q)$(HOSTCC) $(I386_ASFLAGS) -c $< -o $@
$(X86_64)/stub-relocs%.o: $(X86_64)/stub-relocs%.S
	$(Q)$(HOSTCC) $(X86_64_ASFLAGS) -c $< -o $@

$(BUILD)/i386/stub.pass1.elf: $(STUB_I386_DEPS) $(BUILD)/i386/stub-relocs0.o
	$(Q)$(STUB_I386_LINK) $(BUILD)/i386/stub-relocs0.o
$(X86_64)/stub.pass1.elf: $(STUB_X86_64_DEPS) $(X86_64)/stub-relocs0.o
	$(Q)$(STUB_X86_64_LINK) $(X86_64)/stub-relocs0.o
# The first link is at the link address even when a moved oracle copy asks for it first.
$(BUILD)/i386/stub.pass1.elf $(X86_64)/stub.pass1.elf: STUB_LDFLAGS :=
$(BUILD)/i386/stub%elf: $(STUB_I386_DEPS) $(BUILD)/i386/stub-relocs1.o $(STUB_RELOCS)
	$(Q)$(STUB_I386_LINK) $(BUILD)/i386/stub-relocs1.o
	$(Q)$(STUB_RELOCS) --check $@ || { rm -f $@; exit 1; }
$(X86_64)/stub%elf: $(STUB_X86_64_DEPS) $(X86_64)/stub-relocs1.o $(STUB_RELOCS)
	$(Q)$(STUB_X86_64_LINK) $(X86_64)/stub-relocs1.o
	$(Q)$(STUB_RELOCS) --check $@ || { rm -f $@; exit 1; }

$(BUILD)/%/stub.bin: $(BUILD)/%/stub.elf
	$(Q)$(OBJCOPY) -O binary $< $@
