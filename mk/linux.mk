# Stock Linux (issue 14): Debian's kernels, fetched once into $(LINUX_CACHE), and the tests'
# initramfs, whose /init (tests/linux/init.c) reports where the kernel runs and powers off.

LINUX_CACHE := $(BUILD)/linux
LINUX_FLAVOURS := 686 cloud-amd64
LINUX_KERNELS := $(LINUX_FLAVOURS:%=$(LINUX_CACHE)/%/vmlinuz)
LINUX_INITRAMFS := $(LINUX_CACHE)/i386/initramfs.cpio $(LINUX_CACHE)/x86_64/initramfs.cpio

# No prerequisites: a cached kernel is used as it is (scripts/fetch-linux.sh).
$(LINUX_CACHE)/%/vmlinuz:
	$(Q)scripts/fetch-linux.sh $(LINUX_CACHE) $*

# The -dbg packages' vmlinux (ELF with .rela sections, 283 and 765 MB downloads): only here.
.PHONY: linux-kernels linux-dbg linux-initramfs
#: fetch Debian's 686 and cloud-amd64 kernels once, into $(BUILD)/linux
linux-kernels: $(LINUX_KERNELS)
#: their -dbg packages' vmlinux (283 and 765 MB downloads)
linux-dbg: $(LINUX_KERNELS)
	$(Q)scripts/fetch-linux.sh --dbg $(LINUX_CACHE) $(LINUX_FLAVOURS)

LINUX_INIT_CFLAGS := -std=c11 -O2 $(WARN) -ffreestanding -fno-pic -fno-pie -fno-stack-protector \
	-fno-asynchronous-unwind-tables -fcf-protection=none -nostdlib -static -no-pie \
	-Wl,--build-id=none
$(LINUX_CACHE)/i386/init: LINUX_INIT_ARCH := -m32 -march=i486
$(LINUX_CACHE)/x86_64/init: LINUX_INIT_ARCH := -m64
$(LINUX_CACHE)/i386/init $(LINUX_CACHE)/x86_64/init: tests/linux/init.c mk/linux.mk
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $(LINUX_INIT_ARCH) $(LINUX_INIT_CFLAGS) $< -o $@
# The x86-64 initramfs carries cloud-amd64's efivarfs module, which init loads to list the
# EFI variables when Linux runs with EFI (fetched with the kernel, scripts/fetch-linux.sh).
$(LINUX_CACHE)/%/efivarfs.ko:
	$(Q)scripts/fetch-linux.sh $(LINUX_CACHE) $*
$(LINUX_CACHE)/x86_64/initramfs.cpio: INITRAMFS_FILES := $(LINUX_CACHE)/cloud-amd64/efivarfs.ko
$(LINUX_CACHE)/x86_64/initramfs.cpio: $(LINUX_CACHE)/cloud-amd64/efivarfs.ko
$(LINUX_CACHE)/%/initramfs.cpio: $(LINUX_CACHE)/%/init tests/linux/mkcpio.py
	$(Q)tests/linux/mkcpio.py $@ $< $(INITRAMFS_FILES)
#: the Linux tests' initramfs (tests/linux/init.c as /init)
linux-initramfs: $(LINUX_INITRAMFS)

# kslide-pack reads bzImages (tools/pack/bzimage.c, decompress.c, linux_relocs.c,
# linux_image.c; in PACK_LIB_OBJS with the rest of tools/pack/): the payload codecs' libraries
# go wherever the packer's objects are linked.
LINUX_PACK_LIBS := -lz -llzma -llz4 -lzstd -lbz2
TOOL_LIBS += $(LINUX_PACK_LIBS)
FUZZ_LIBS_elf += $(LINUX_PACK_LIBS)

# The setup header and the lists' splitting on arbitrary input (tests/fuzz/fuzz_bzimage.c).
FUZZ_NAMES += bzimage
FUZZ_SRCS_bzimage := tools/pack/bzimage.c tools/pack/linux_relocs.c tools/pack/fail.c
# mk/tests.mk's rules took their prerequisites before this line.
fuzz fuzz-smoke: $(BUILD)/fuzz/fuzz_bzimage

# The bzImage and the -dbg vmlinux of one kernel must give the same fixups (tests/linux/
# same_fixups.c): Linux's own lists judge the ELF classifier. Needs make linux-dbg's download.
LINUX_SAME_FIXUPS := $(BUILD)/bin/linux-same-fixups
$(LINUX_SAME_FIXUPS): $(BUILD)/tool/tests/linux/same_fixups.o $(PACK_LIB_OBJS) $(LIB_TOOL_OBJS)
	@mkdir -p $(dir $@)
	$(Q)$(HOSTCC) $^ $(TOOL_LIBS) -o $@
.PHONY: linux-dbg-check
#: the bzImage and the -dbg vmlinux of each kernel give the same fixups
linux-dbg-check: linux-dbg $(LINUX_SAME_FIXUPS)
	$(Q)for f in $(LINUX_FLAVOURS); do echo "$$f:"; $(LINUX_SAME_FIXUPS) \
		$(LINUX_CACHE)/$$f/vmlinuz $(LINUX_CACHE)/$$f/vmlinux || exit 1; done

# The relocation oracle on Linux's x86-64 layout (tests/oracle/x86_64/percpu.S): the linker's
# second link judges the per-CPU rules, RELOC_SUB32S and undefined weak symbols.
X86_64_PERCPU_ELFS := $(X86_64_ORACLE)/percpu.elf $(X86_64_ORACLE)/percpu-up.elf
$(X86_64_ORACLE)/percpu-up.elf: X86_64_BASES = $(X86_64_UP)
$(X86_64_PERCPU_ELFS): $(X86_64_ORACLE)/%.elf: $(X86_64_ORACLE)/obj/percpu.o \
		tests/oracle/x86_64/percpu.ld
	$(Q)$(LD) -m elf_x86_64 $(X86_64_ORACLE_LDFLAGS) --no-warn-rwx-segments $(X86_64_BASES) \
		-T tests/oracle/x86_64/percpu.ld -o $@ $<
X86_64_ORACLE_PAIRS += percpu.elf:percpu-up.elf
oracle: $(X86_64_PERCPU_ELFS)
CHECK_DEPS += $(X86_64_PERCPU_ELFS)

# The setup header and the lists' splitting are pure, so host unit tests link them.
$(BUILD)/host/tests/test_bzimage: $(BUILD)/host/tools/pack/bzimage.o \
	$(BUILD)/host/tools/pack/fail.o
$(BUILD)/host/tests/test_linux_relocs: $(BUILD)/host/tools/pack/linux_relocs.o \
	$(BUILD)/host/tools/pack/fail.o

# The boot tests' images: each kernel packed with its header's defaults, and a GRUB ISO
# (multiboot2 + module2, BIOS and UEFI) with the arch's initramfs as the first module, so
# Linux's ramdisk comes from the Multiboot module. The command line keeps Linux on the serial
# port, printing warnings and worse (loglevel=5: a WARN before a failed boot is in its log,
# where quiet hides it), and ends QEMU if it panics; nokaslr boots are -kernel boots
# (qemu-boot.sh -A).
# It skips two probes that measure nothing of kslide and cost most of a TCG boot: the crypto
# self-tests (3.1 s of the 686 kernel's 5.3 s to init) and the ISA Plug and Play scan (1.0 s).
LINUX_IMAGES := $(LINUX_FLAVOURS:%=$(LINUX_CACHE)/%.img)
LINUX_ISOS := $(LINUX_FLAVOURS:%=$(LINUX_CACHE)/%.iso)
LINUX_CMDLINE := $(shell cat tests/linux/cmdline)
$(LINUX_CACHE)/686.iso: LINUX_ARCH := i386
$(LINUX_CACHE)/cloud-amd64.iso: LINUX_ARCH := x86_64
$(LINUX_IMAGES): $(LINUX_CACHE)/%.img: $(LINUX_CACHE)/%/vmlinuz $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack -o $@ $<
$(LINUX_ISOS): $(LINUX_CACHE)/%.iso: $(LINUX_CACHE)/%.img $(LINUX_INITRAMFS) scripts/mkiso.sh \
		tests/linux/cmdline
	$(Q)scripts/mkiso.sh -A "$(LINUX_CMDLINE)" -o $@ $< $(LINUX_CACHE)/$(LINUX_ARCH)/initramfs.cpio
# cloud-amd64 uncompressed (46 MiB from 1 MiB): it covers the link base, so nokaslr is refused
# (boot-linux checks the message and that the machine then resets instead of hanging).
LINUX_UNCOMPRESSED := $(LINUX_CACHE)/cloud-amd64-none.img
$(LINUX_UNCOMPRESSED): $(LINUX_CACHE)/cloud-amd64/vmlinuz $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack --compress none -o $@ $< 2>/dev/null
# cloud-amd64 as a PVH ELF (kslide-pack --format pvh: uncompressed, as microVMs keep kernels),
# which QEMU's -kernel starts by its PVH note; the stub enters Linux by its 64-bit protocol.
LINUX_PVH := $(LINUX_CACHE)/cloud-amd64-pvh.img
$(LINUX_PVH): $(LINUX_CACHE)/cloud-amd64/vmlinuz $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack --format pvh -o $@ $< 2>/dev/null
# Both kernels packed --compress lz4, for the uniform-linux-* stages' 400 boots: the stub's
# LZ4 decode of cloud-amd64 runs 93 million instructions where zstd's runs 467 million (0.6 s
# of a 3.4 s TCG boot), and the other Linux stages boot kslide-pack's default, zstd.
LINUX_LZ4_IMAGES := $(LINUX_FLAVOURS:%=$(LINUX_CACHE)/%-lz4.img)
$(LINUX_LZ4_IMAGES): $(LINUX_CACHE)/%-lz4.img: $(LINUX_CACHE)/%/vmlinuz $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack --compress lz4 -o $@ $<
# cloud-amd64 as an EFI application (kslide-pack --format efi), which OVMF's shell starts with
# load options; the stub enters Linux with what Linux's EFI stub would give it.
LINUX_EFI := $(LINUX_CACHE)/cloud-amd64.efi
$(LINUX_EFI): $(LINUX_CACHE)/cloud-amd64/vmlinuz $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack --format efi -o $@ $< 2>/dev/null
# ... and packed --compress lz4, which systemd-boot starts in boot-linux (a fifth of zstd's
# decode instructions; the shell's cases boot the zstd default).
LINUX_EFI_LZ4 := $(LINUX_CACHE)/cloud-amd64-lz4.efi
$(LINUX_EFI_LZ4): $(LINUX_CACHE)/cloud-amd64/vmlinuz $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack --format efi --compress lz4 -o $@ $< 2>/dev/null
# The 686 kernel packed for reproducing a placement (kslide-pack --debug-placement): boot-linux
# boots it at bases kslide.phys= names.
LINUX_DEBUG_PLACEMENT := $(LINUX_CACHE)/686-debug.img
$(LINUX_DEBUG_PLACEMENT): $(LINUX_CACHE)/686/vmlinuz $(BUILD)/bin/kslide-pack
	$(Q)$(BUILD)/bin/kslide-pack --debug-placement -o $@ $<
.PHONY: linux-images
#: Debian's kernels packed (zstd and LZ4), their GRUB ISOs, cloud-amd64 uncompressed, as a PVH
#: ELF and as an EFI application (zstd and LZ4), and the 686 packed with --debug-placement
linux-images: $(LINUX_IMAGES) $(LINUX_LZ4_IMAGES) $(LINUX_ISOS) $(LINUX_UNCOMPRESSED) \
	$(LINUX_PVH) $(LINUX_EFI) $(LINUX_EFI_LZ4) $(LINUX_DEBUG_PLACEMENT)

# make check's Linux stages need the kernels (fetched once), the initramfs and the images.
CHECK_DEPS += $(LINUX_KERNELS) $(LINUX_INITRAMFS) $(LINUX_IMAGES) $(LINUX_LZ4_IMAGES) \
	$(LINUX_ISOS) $(LINUX_UNCOMPRESSED) $(LINUX_PVH) $(LINUX_EFI) $(LINUX_EFI_LZ4) \
	$(LINUX_DEBUG_PLACEMENT)

# Linux's own KASLR and kslide's on each Debian kernel, in one run (bench/linux-side-by-side.sh,
# docs/results.md): the spread of SIDE_BOOTS boots each, the instructions to the jump into
# vmlinux, the time to init and the image sizes. About an hour on 2 cores at 200 boots.
SIDE_BOOTS ?= 200
.PHONY: linux-side-by-side
#: Linux's own KASLR and kslide's on Debian's kernels (results.md;
#: SIDE_BOOTS boots each)
linux-side-by-side: $(BOOTSTRAP_STAMP)
	$(Q)$(MAKE) -s --no-print-directory all
	$(Q)$(MAKE) -s --no-print-directory $(BUILD)/bench/tbcount $(BUILD)/bench/insncount.so \
		$(LINUX_KERNELS) $(LINUX_INITRAMFS)
	$(Q)bench/linux-side-by-side.sh -n $(SIDE_BOOTS) $(BUILD)

# make bench's whole boot to init (bench/whole-boot-cost.sh) reads the TSC init prints.
BENCH_DEPS += $(LINUX_CACHE)/x86_64/initramfs.cpio
