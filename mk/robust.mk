# Robustness (docs/reliability.md): the packer's proof that every base works is pure, so a
# host unit test runs it against the stub's own relocation code at every base.
$(BUILD)/host/tests/test_base_window: $(BUILD)/host/tools/pack/base_window.o
# --shuffle's x86-64 32-bit fields are proven against the same window.
$(BUILD)/host/tests/test_base_window: $(addprefix $(BUILD)/host/tools/pack/, shuffle_units.o fail.o)
$(BUILD)/host/tests/test_base_window: HOST_TEST_LIBS += -lelf

# kslide-pack under ASan and UBSan, for the sweep over every ELF file on the system
# (tests/chaos/pack-sweep.sh, `make pack-sweep`): the same sources as the packer.
PACK_ASAN := $(BUILD)/host/bin/kslide-pack
$(BUILD)/host/tools/kslide-pack.o: HOST_CFLAGS += -DKSLIDE_VERSION='"$(VERSION)"'
$(PACK_ASAN): $(BUILD)/host/tools/kslide-pack.o $(PACK_LIB_SRCS:%.c=$(BUILD)/host/%.o) \
		$(BUILD)/tool/tools/pack/stubs.o $(LIB_HOST_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(HOST_LDFLAGS) $^ $(TOOL_LIBS) -o $@

.PHONY: pack-sweep
#: kslide-pack under ASan/UBSan over every ELF file on the system
pack-sweep: $(PACK_ASAN)
	$(Q)nice tests/chaos/pack-sweep.sh $(PACK_ASAN)

# The corruption campaign (tests/chaos/chaos.py, docs/reliability.md): damaged copies of both
# reference images booted under QEMU, each boot classified. CHAOS_SAMPLE bytes per image
# region (0: every byte), CHAOS_TRUNCATIONS truncated files, CHAOS_SEED picks them.
CHAOS_SAMPLE ?= 100
CHAOS_TRUNCATIONS ?= 20
CHAOS_SEED ?= 1
CHAOS_RUN = tests/chaos/chaos.py -n $(CHAOS_SAMPLE) -T $(CHAOS_TRUNCATIONS) -s $(CHAOS_SEED)

.PHONY: chaos
#: the corruption campaign: damaged reference images booted and classified
#: (CHAOS_SAMPLE, CHAOS_TRUNCATIONS, CHAOS_SEED)
chaos: $(BUILD)/i386/kernel.img $(X86_64)/kernel.img
	$(Q)$(CHAOS_RUN) $(BUILD)/i386/kernel.img $(BUILD)/i386/stub.elf
	$(Q)$(CHAOS_RUN) -a x86_64 $(X86_64)/kernel.img $(X86_64)/stub.elf
