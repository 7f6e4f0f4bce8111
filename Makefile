# kslide: randomized kernel base at every boot. `make run` and `make check` are the front door.

BUILD ?= build
HOSTCC ?= cc
Q ?= @

WARN := -Wall -Wextra -Werror
HOST_CFLAGS := -std=c11 -O1 -g $(WARN) -I. -Iinclude -D_DEFAULT_SOURCE \
	-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
HOST_LDFLAGS := -fsanitize=address,undefined

# lib/ files that build for the host; string.c replaces libc inside the stub and kernel only.
LIB_SRCS := $(filter-out lib/string.c,$(wildcard lib/*.c))
LIB_HOST_OBJS := $(LIB_SRCS:%.c=$(BUILD)/host/%.o)

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
# Fakes and helpers shared by unit tests (the fake arch_ops, for instance).
UNIT_SUPPORT_OBJS := $(patsubst %.c,$(BUILD)/host/%.o,$(wildcard tests/unit/support/*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/host/tests/%)

.PHONY: all unit check run clean bootstrap
all:

$(BUILD)/host/%.o: %.c
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/host/tests/test_%: $(BUILD)/host/tests/unit/test_%.o $(UNIT_SUPPORT_OBJS) $(LIB_HOST_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(HOST_LDFLAGS) $^ -lcmocka -o $@

unit: $(UNIT_BINS)
	$(Q)scripts/run-unit.sh $(UNIT_BINS)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
