# Compressed reference images (kslide-pack --compress; docs/format.md): every boot case of
# the matrix stages boots them too (tests/boot/matrix.sh -z), beside the uncompressed ones.
COMPRESSED_IMAGES := $(foreach c,zstd lz4,$(BUILD)/i386/kernel-$(c).img \
	$(X86_64)/kernel-$(c).img $(X86_64)/kernel-pie-$(c).img $(BUILD)/i386/kernel-4k-$(c).img \
	$(X86_64)/kernel-4k-$(c).img $(X86_64)/kernel-pie-4k-$(c).img $(X86_64)/kernel-high-$(c).img \
	$(BUILD)/i386/kernel-multiboot-$(c).img)

$(BUILD)/%-zstd.img $(BUILD)/%-lz4.img: COMPRESS_ARGS = $(if $(findstring -4k-,$@),--align 4K) \
	$(if $(findstring -high-,$@),--min 4G) \
	$(if $(findstring -multiboot-,$@),--handoff multiboot --kslide-tag)
$(BUILD)/i386/kernel-zstd.img $(BUILD)/i386/kernel-4k-zstd.img \
	$(BUILD)/i386/kernel-multiboot-zstd.img: $(BUILD)/i386/kernel.elf
$(X86_64)/kernel-zstd.img $(X86_64)/kernel-high-zstd.img $(X86_64)/kernel-4k-zstd.img: \
	$(X86_64)/kernel.elf
$(X86_64)/kernel-pie-zstd.img $(X86_64)/kernel-pie-4k-zstd.img: $(X86_64)/kernel-pie.elf
$(BUILD)/i386/kernel-lz4.img $(BUILD)/i386/kernel-4k-lz4.img \
	$(BUILD)/i386/kernel-multiboot-lz4.img: $(BUILD)/i386/kernel.elf
$(X86_64)/kernel-lz4.img $(X86_64)/kernel-high-lz4.img $(X86_64)/kernel-4k-lz4.img: \
	$(X86_64)/kernel.elf
$(X86_64)/kernel-pie-lz4.img $(X86_64)/kernel-pie-4k-lz4.img: $(X86_64)/kernel-pie.elf
$(filter %-zstd.img,$(COMPRESSED_IMAGES)): $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack --compress zstd $(COMPRESS_ARGS) -o $@ $(filter %.elf,$^)
$(filter %-lz4.img,$(COMPRESSED_IMAGES)): $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack --compress lz4 $(COMPRESS_ARGS) -o $@ $(filter %.elf,$^)

CHECK_DEPS += $(COMPRESSED_IMAGES)

# Boot cost of compressed images (bench/run.sh): the 8 and 32 MiB bench kernels per codec.
BENCH_COMPRESSED := $(foreach c,zstd lz4,$(foreach m,8 32,$(BUILD)/bench/i386/kernel-$(m)m-$(c).img \
	$(BUILD)/bench/x86_64/kernel-$(m)m-$(c).img))
$(BUILD)/bench/%-zstd.img: $(BUILD)/bench/%.elf $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack --compress zstd -o $@ $<
$(BUILD)/bench/%-lz4.img: $(BUILD)/bench/%.elf $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack --compress lz4 -o $@ $<
BENCH_DEPS += $(BENCH_COMPRESSED)
