# One macro per kind of build output, instantiated once per variant of the sources.

# $(call object_variant,OUT_DIR,CFLAGS_VAR[,ASFLAGS_VAR[,SRC_PREFIX]]): OUT_DIR/x.o from
# SRC_PREFIXx.c (and x.S when ASFLAGS_VAR is given). The flags are passed by variable name so
# that target-specific additions (TOOL_CFLAGS += ...) still apply.
define object_variant
$(1)/%.o: $(4)%.c
	@mkdir -p $$(dir $$@)
	$$(Q)$$(HOSTCC) $$($(2)) -MMD -MP -c $$< -o $$@
$(if $(3),$(1)/%.o: $(4)%.S
	@mkdir -p $$(dir $$@)
	$$(Q)$$(HOSTCC) $$($(3)) -MMD -MP -c $$< -o $$@)
endef

# $(call library_variant,OUT_DIR): OUT_DIR/libkslide.a, every lib/ file built for that variant.
define library_variant
$(1)/libkslide.a: $(LIB_ALL:%.c=$(1)/%.o)
	$$(Q)rm -f $$@ && ar rcs $$@ $$^
endef

LIB_ALL := $(wildcard lib/*.c)
# lib/string.c replaces libc inside the stub and kernel only.
LIB_SRCS := $(filter-out lib/string.c,$(LIB_ALL))

X86_64 := $(BUILD)/x86_64

$(eval $(call object_variant,$(BUILD)/host,HOST_CFLAGS,HOST_ASFLAGS))
$(eval $(call object_variant,$(BUILD)/tool,TOOL_CFLAGS))
$(eval $(call object_variant,$(BUILD)/i386/obj,I386_CFLAGS,I386_ASFLAGS))
$(eval $(call object_variant,$(X86_64)/stub-obj,X86_64_STUB_CFLAGS,X86_64_ASFLAGS))
$(eval $(call object_variant,$(X86_64)/obj,X86_64_KERNEL_CFLAGS,X86_64_ASFLAGS))
$(eval $(call object_variant,$(X86_64)/pie-obj,X86_64_PIE_CFLAGS,X86_64_PIE_ASFLAGS))
$(eval $(call object_variant,$(X86_64)/user-obj,X86_64_STUB_CFLAGS,X86_64_ASFLAGS))

$(foreach v,$(BUILD)/i386/obj $(X86_64)/stub-obj $(X86_64)/obj $(X86_64)/pie-obj, \
	$(eval $(call library_variant,$(v))))
