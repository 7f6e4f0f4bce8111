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
