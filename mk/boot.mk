# The stubs (boot/): one flat binary per arch, embedded in kslide-pack.

# The stub's objects, found by glob: boot/*.c (policy, the ways in and out, tabled in
# protocols.c) and the Multiboot headers in boot/x86/ for both arches, each arch's own folder
# (its entry and mapping) first. The Multiboot handoff exists only on i386 so far.
STUB_ARCH_ONLY := boot/handoff_multiboot.c
STUB_COMMON_OBJS := $(patsubst %.S,%.o,$(wildcard boot/x86/*.S)) \
	$(patsubst %.c,%.o,$(filter-out $(STUB_ARCH_ONLY),$(wildcard boot/*.c))) \
	arch/x86/arch_ops.o arch/x86/serial.o
stub_arch_objs = $(patsubst %.c,%.o,$(patsubst %.S,%.o,$(wildcard boot/$(1)/*.S boot/$(1)/*.c)))
STUB_I386_OBJS := $(addprefix $(BUILD)/i386/obj/, $(call stub_arch_objs,i386) \
	boot/handoff_multiboot.o $(STUB_COMMON_OBJS))
STUB_X86_64_OBJS := $(addprefix $(X86_64)/stub-obj/, $(call stub_arch_objs,x86_64) \
	$(STUB_COMMON_OBJS))

# One linker script for both stubs: the arch (i386, x86_64: the build directory's name) picks
# the output format; -undef keeps gcc's own i386 macro from eating the word.
$(BUILD)/%/stub.ld: boot/stub.ld.S $(BUILD_RULES)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) -E -P -undef -x assembler-with-cpp -DSTUB_ARCH_$* -o $@ $<

$(BUILD)/i386/stub.elf: $(STUB_I386_OBJS) $(BUILD)/i386/obj/libkslide.a $(BUILD)/i386/stub.ld \
		$(BUILD_RULES)
	$(Q)$(I386_LD) -T $(BUILD)/i386/stub.ld --gc-sections -o $@ $(STUB_I386_OBJS) \
		$(BUILD)/i386/obj/libkslide.a

$(X86_64)/stub.elf: $(STUB_X86_64_OBJS) $(X86_64)/stub-obj/libkslide.a $(X86_64)/stub.ld \
		$(BUILD_RULES)
	$(Q)$(X86_64_LD) -T $(X86_64)/stub.ld --gc-sections -o $@ $(STUB_X86_64_OBJS) \
		$(X86_64)/stub-obj/libkslide.a

$(BUILD)/%/stub.bin: $(BUILD)/%/stub.elf
	$(Q)$(OBJCOPY) -O binary $< $@
