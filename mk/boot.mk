# The stubs (boot/): one flat binary per arch, embedded in kslide-pack.

# The parts of the stub both arches share; each adds its entry code and handoff.
# The ways in (loader_*) and out (handoff_*), tabled in protocols.o.
STUB_PROTOCOL_OBJS := boot/protocols.o boot/loader_multiboot1.o boot/loader_multiboot2.o \
	boot/handoff_kslide.o boot/handoff_linux.o
STUB_COMMON_OBJS := boot/x86/multiboot1_header.o boot/x86/multiboot2_header.o boot/stub.o \
	boot/stub_options.o boot/stub_slots.o boot/stub_choose.o boot/stub_relocate.o \
	boot/stub_report.o boot/stub_image.o boot/placement.o \
	boot/console.o boot/bootenv.o boot/multiboot1.o boot/multiboot2.o boot/random_dump.o \
	$(STUB_PROTOCOL_OBJS) arch/x86/arch_ops.o arch/x86/serial.o
STUB_I386_OBJS := $(addprefix $(BUILD)/i386/obj/, boot/i386/entry.o boot/i386/mapping.o \
	boot/handoff_multiboot.o $(STUB_COMMON_OBJS))
STUB_X86_64_OBJS := $(addprefix $(X86_64)/stub-obj/, boot/x86_64/entry.o boot/x86_64/mapping.o \
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
