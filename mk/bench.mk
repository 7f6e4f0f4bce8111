# `make bench` (bench/, docs/results.md): relocation speed, slot search growth, boot cost in
# instructions, image size. Host programs at -O2 without sanitizers, over the tools' lib/ objects.

BENCH_BINS := $(BUILD)/bench/reloc-bench $(BUILD)/bench/slots-bench

$(BUILD)/bench/reloc-bench: $(BUILD)/tool/bench/reloc_bench.o $(PACK_LIB_OBJS) $(LIB_TOOL_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $^ $(TOOL_LIBS) -o $@

$(BUILD)/bench/slots-bench: $(BUILD)/tool/bench/slots_bench.o $(LIB_TOOL_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $^ -lm -o $@

$(BUILD)/bench/tbcount: bench/tbcount.c
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(TOOL_CFLAGS) $< -o $@

# bench/uefi-cost.sh's counter, a QEMU TCG plugin: no sanitizers inside QEMU.
$(BUILD)/bench/insncount.so: bench/insncount.c
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(TOOL_CFLAGS) -fPIC -shared -fvisibility=hidden $< -o $@

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
	$(Q)$(HOSTCC) $(X86_64_ASFLAGS) $(PAD_BYTES) -c $< -o $@
# Only the stub is measured, so the kernels link with an empty kallsyms table (one pass).
$(BUILD)/bench/i386/kernel-%m.elf: $(KERNEL_I386_OBJS) $(BUILD)/bench/i386/pad-%m.o \
		$(BUILD)/i386/kallsyms0.o $(BUILD)/i386/obj/libkslide.a kernel/i386/kernel.ld
	$(Q)$(I386_LD) --defsym=link_phys_override=0x4000000 -T kernel/i386/kernel.ld \
		--emit-relocs -o $@ $(KERNEL_I386_OBJS) $(BUILD)/bench/i386/pad-$*m.o \
		$(BUILD)/i386/kallsyms0.o $(BUILD)/i386/obj/libkslide.a
$(BUILD)/bench/x86_64/kernel-%m.elf: $(KERNEL_X86_64_OBJS) $(BUILD)/bench/x86_64/pad-%m.o \
		$(X86_64)/kernel.kallsyms0.o $(X86_64)/obj/libkslide.a kernel/x86_64/kernel.ld
	$(Q)$(X86_64_LD) --defsym=phys_override=0x4000000 -T kernel/x86_64/kernel.ld \
		--emit-relocs -o $@ $(KERNEL_X86_64_OBJS) $(BUILD)/bench/x86_64/pad-$*m.o \
		$(X86_64)/kernel.kallsyms0.o $(X86_64)/obj/libkslide.a
$(BUILD)/bench/%.img: $(BUILD)/bench/%.elf $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack --compress none -o $@ $<

# Recursive: mk/decoders.mk, included later, adds decode-bench to BENCH_BINS.
# bench/shuffle-cost.sh packs the shuffle examples' kernel.elf itself.
BENCH_DEPS = $(BENCH_BINS) $(BUILD)/bench/tbcount $(BUILD)/bench/insncount.so $(BENCH_IMAGES) \
	$(BUILD)/examples/shuffle-i386/kernel.img $(BUILD)/examples/shuffle-x86_64/kernel.img
