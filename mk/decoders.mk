# The zstd and LZ4 decoders (lib/zstd_*.c, lib/lz4.c, lib/xxhash.c): their unit tests link the
# real libraries as oracles, and the host benchmark times both against them.
DECODER_ORACLE_LIBS := -lzstd -llz4 -lxxhash

DECODER_UNIT_BINS := $(BUILD)/host/tests/test_zstd $(BUILD)/host/tests/test_lz4 \
	$(BUILD)/host/tests/test_xxhash
$(DECODER_UNIT_BINS): $(BUILD)/host/tests/test_%: $(BUILD)/host/tests/unit/test_%.o \
		$(UNIT_SUPPORT_OBJS) $(LIB_HOST_OBJS) $(UNIT_BOOT_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(HOST_LDFLAGS) $^ -lcmocka $(DECODER_ORACLE_LIBS) -o $@

BENCH_BINS += $(BUILD)/bench/decode-bench
$(BUILD)/bench/decode-bench: $(BUILD)/tool/bench/decode_bench.o $(LIB_TOOL_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $^ -lzstd -llz4 -o $@

# The decoders as i386 code (the stub's -m32 -march=i486), run by the unit tests above through
# scripts/run32.sh: natively, or under qemu-i386 where the kernel refuses 32-bit programs.
DECODE_CHECK_I386 := $(BUILD)/host32/decode-check-i386
$(DECODE_CHECK_I386): tests/unit/i386/decode_check.c $(wildcard lib/zstd_*.c) lib/lz4.c \
		lib/xxhash.c $(wildcard lib/*.h)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) -std=c11 -O2 $(WARN) -I. -m32 -march=i486 -fsanitize=undefined \
		-fno-sanitize-recover=all $(filter %.c,$^) -o $@
$(BUILD)/host/tests/test_zstd $(BUILD)/host/tests/test_lz4: | $(DECODE_CHECK_I386)

# Where i386 programs run natively, the i386 cases once more under qemu-i386: the way a kernel
# that refuses 32-bit programs runs them (CI's does) is then proven on every machine.
.PHONY: unit-i386-emulated
#: the i386 decoder cases again under qemu-i386 (part of unit)
unit-i386-emulated: $(BUILD)/host/tests/test_zstd $(BUILD)/host/tests/test_lz4 $(DECODE_CHECK_I386)
	$(Q)if grep -q '^native' $(BUILD)/host32/way; then \
		echo "unit: the i386 decoder cases again under qemu-i386"; \
		HOST32=qemu-i386 $(BUILD)/host/tests/test_zstd '*i386*' && \
		HOST32=qemu-i386 $(BUILD)/host/tests/test_lz4 '*i386*'; \
	fi
