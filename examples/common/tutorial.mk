# The build both tutorial-style Multiboot kernels share (examples/multiboot1, multiboot2): the
# includer sets nothing but may override OUT and KSLIDE_PACK.
#   make            # kernel.elf (as any loader boots it), kernel-relocs.elf (the same objects
#                   # linked again with --emit-relocs) and kernel.img (that, packed) in OUT
KSLIDE_PACK ?= ../../build/bin/kslide-pack
OUT ?= .
CC ?= cc
LD ?= ld

CFLAGS := -std=c11 -O2 -Wall -Wextra -Werror -m32 -march=i486 -ffreestanding -fno-pic \
	-fno-pie -fno-stack-protector -fno-asynchronous-unwind-tables
ASFLAGS := -m32 -fno-pic -fno-pie
LDFLAGS := -m elf_i386 -nostdlib -z noexecstack --no-warn-rwx-segments
# kslide-pack needs the relocations; GRUB's multiboot2 loader refuses an ELF file that has
# them ("ELF files with relocs are not supported yet"), so the plain link stays as it was.
PACK_LDFLAGS := $(LDFLAGS) --emit-relocs
OBJS := $(OUT)/boot.o $(OUT)/kernel.o $(OUT)/console.o $(OUT)/eip.o

.PHONY: all clean
all: $(OUT)/kernel.elf $(OUT)/kernel.img

$(OUT)/boot.o: boot.S
	@mkdir -p $(OUT)
	$(CC) $(ASFLAGS) -c $< -o $@
$(OUT)/eip.o: ../common/eip.S
	@mkdir -p $(OUT)
	$(CC) $(ASFLAGS) -c $< -o $@
$(OUT)/kernel.o: kernel.c ../common/console.h
	@mkdir -p $(OUT)
	$(CC) $(CFLAGS) -c $< -o $@
$(OUT)/console.o: ../common/console.c ../common/console.h
	@mkdir -p $(OUT)
	$(CC) $(CFLAGS) -c $< -o $@

$(OUT)/kernel.elf: $(OBJS) linker.ld
	$(LD) $(LDFLAGS) -T linker.ld -o $@ $(OBJS)
$(OUT)/kernel-relocs.elf: $(OBJS) linker.ld
	$(LD) $(PACK_LDFLAGS) -T linker.ld -o $@ $(OBJS)

$(OUT)/kernel.img: $(OUT)/kernel-relocs.elf $(KSLIDE_PACK)
	$(KSLIDE_PACK) -o $@ $<

clean:
	rm -f $(OBJS) $(OUT)/kernel.elf $(OUT)/kernel-relocs.elf $(OUT)/kernel.img
