# Host programs (tools/): kslide-pack with both stubs embedded, kslide-stat, and the build's
# own kslide-kallsyms and kslide-stub-relocs.

LIB_TOOL_OBJS := $(LIB_SRCS:%.c=$(BUILD)/tool/%.o)
# The packer's reading and writing (tools/pack/*.c), which the oracle and benchmarks link too,
# with what every tool shares (tools/common/*.c).
TOOL_COMMON_SRCS := $(wildcard tools/common/*.c)
PACK_LIB_SRCS := $(wildcard tools/pack/*.c) $(TOOL_COMMON_SRCS)
PACK_LIB_OBJS := $(PACK_LIB_SRCS:%.c=$(BUILD)/tool/%.o)
PACK_OBJS := $(BUILD)/tool/tools/kslide-pack.o $(PACK_LIB_OBJS) $(BUILD)/tool/tools/pack/stubs.o

$(BUILD)/tool/tools/pack/stubs.o: tools/pack/stubs.S $(BUILD)/i386/stub.bin $(X86_64)/stub.bin
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) -c -DSTUB_I386='"$(BUILD)/i386/stub.bin"' \
		-DSTUB_X86_64='"$(X86_64)/stub.bin"' $< -o $@

$(BUILD)/bin/kslide-pack: $(PACK_OBJS) $(LIB_TOOL_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $^ $(TOOL_LIBS) -o $@

# kslide-stat (tools/stat/): boots an image many times and measures its bases. It reads a
# bzImage (--linux) with the packer's reader, so it links the packer's objects and libraries.
STAT_OBJS := $(patsubst %.c,$(BUILD)/tool/%.o,tools/kslide-stat.c $(wildcard tools/stat/*.c)) \
	$(PACK_LIB_OBJS)
STAT_LIBS = -lcairo -lgsl -lgslcblas -lm $(TOOL_LIBS)

$(BUILD)/tool/tools/stat/plot.o: TOOL_CFLAGS += $(shell pkg-config --cflags cairo 2>/dev/null)

$(BUILD)/bin/kslide-stat: $(STAT_OBJS) $(LIB_TOOL_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $^ $(STAT_LIBS) -o $@

$(STUB_RELOCS): $(BUILD)/tool/tools/kslide-stub-relocs.o $(TOOL_COMMON_SRCS:%.c=$(BUILD)/tool/%.o)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $^ $(TOOL_LIBS) -o $@

$(KALLSYMS): $(BUILD)/tool/tools/kslide-kallsyms.o $(TOOL_COMMON_SRCS:%.c=$(BUILD)/tool/%.o)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $^ $(TOOL_LIBS) -o $@

TOOLS := $(BUILD)/bin/kslide-pack $(BUILD)/bin/kslide-stat
