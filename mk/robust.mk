# Robustness (docs/reliability.md): the packer's proof that every base works is pure, so a
# host unit test runs it against the stub's own relocation code at every base.
$(BUILD)/host/tests/test_base_window: $(BUILD)/host/tools/pack/base_window.o
