# Compilers and flags for every build of the sources (each "variant" in mk/variants.mk).

HOSTCC ?= cc
LD ?= ld
OBJCOPY ?= objcopy

WARN := -Wall -Wextra -Werror

# Host unit tests: lib/ built natively under ASan and UBSan.
HOST_CFLAGS := -std=c11 -O1 -g $(WARN) -I. -D_DEFAULT_SOURCE \
	-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
HOST_LDFLAGS := -fsanitize=address,undefined
# The host is x86-64: the stub's AVX2 loop (boot/x86_64/*.S) runs in its unit test natively.
HOST_ASFLAGS := -I.

# Host tools: ordinary optimized programs.
TOOL_CFLAGS := -std=c11 -O2 -g $(WARN) -I. -D_DEFAULT_SOURCE -DKSLIDE_VERSION='"$(VERSION)"'
# -lcrypto: kslide-pack --sign (tools/pack/authenticode.c, signer.c), in the packer's objects.
TOOL_LIBS := -lelf -lcrypto

# Freestanding i386 code (stub, kernel, lib/). i486 because QEMU's 486 and pentium models
# lack CMOV, which gcc's default i686 target would emit.
I386_CFLAGS := -std=c11 -O2 -g $(WARN) -I. -m32 -march=i486 -ffreestanding -fno-pic -fno-pie \
	-fno-stack-protector -mgeneral-regs-only -fno-asynchronous-unwind-tables \
	-fcf-protection=none -ffunction-sections -fdata-sections
I386_ASFLAGS := -m32 -I. -fno-pic -fno-pie
I386_LD := $(LD) -m elf_i386 -nostdlib -z noexecstack --no-warn-rwx-segments

# Freestanding x86-64 code, three ways: the stub (linked at 1 MiB, small code model), the
# -mcmodel=kernel reference kernel and the PIE one. User programs build like the stub.
X86_64_CFLAGS := -std=c11 -O2 -g $(WARN) -I. -m64 -ffreestanding -mno-red-zone \
	-fno-stack-protector -mgeneral-regs-only -fno-asynchronous-unwind-tables \
	-fcf-protection=none -ffunction-sections -fdata-sections
X86_64_STUB_CFLAGS := $(X86_64_CFLAGS) -fno-pic -fno-pie -mcmodel=small
X86_64_KERNEL_CFLAGS := $(X86_64_CFLAGS) -fno-pic -fno-pie -mcmodel=kernel
X86_64_PIE_CFLAGS := $(X86_64_CFLAGS) -fpie
X86_64_ASFLAGS := -m64 -I. -fno-pic -fno-pie
X86_64_PIE_ASFLAGS := -m64 -I. -fpie
X86_64_LD := $(LD) -m elf_x86_64 -nostdlib -z noexecstack --no-warn-rwx-segments

# Every rule file: links depend on them, so a changed flag relinks.
BUILD_RULES := Makefile $(wildcard mk/*.mk)
