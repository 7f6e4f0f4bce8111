#!/bin/sh
# Make sure the Debian packages kslide needs are installed. As root with apt-get, install the
# missing ones; otherwise print the exact command and fail.
set -u

missing=""
need() { # need PACKAGE TEST...
	pkg=$1
	shift
	if ! "$@" >/dev/null 2>&1; then
		case " $missing " in *" $pkg "*) ;; *) missing="$missing $pkg" ;; esac
	fi
}
has() { command -v "$1"; }
header() { # header "#include lines" [-m32]
	printf '%b\n' "$1" | ${CC:-cc} ${2:-} -E -x c - -o /dev/null
}
links() { # links LIB: the library links into a hosted program
	printf 'int main(void){return 0;}\n' | ${CC:-cc} -x c - -o /dev/null "$1"
}
fuzz_links() { # fuzz_links: clang links a libFuzzer target (the runtime is libclang-rt-14-dev)
	printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n){(void)d;(void)n;return 0;}\n' |
		${FUZZ_CC:-clang} -fsanitize=fuzzer,address,undefined -x c - -o /dev/null
}

need make has make
need gcc has gcc
need binutils has objcopy
need coreutils has timeout
need gzip has gzip
need python3 has python3
need qemu-system-x86 has qemu-system-i386
need qemu-system-x86 has qemu-system-x86_64
need lld has ld.lld
need libelf-dev header '#include <gelf.h>'
need libelf-dev links -lelf
need libcmocka-dev header '#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <cmocka.h>'
need libcmocka-dev links -lcmocka
need libgsl-dev header '#include <gsl/gsl_cdf.h>'
need libgsl-dev links -lgsl
need libcairo2-dev header '#include <cairo/cairo.h>\n#include <cairo/cairo-svg.h>'
need libcairo2-dev links -lcairo
need rng-tools5 has rngtest
need ent has ent
need clang has clang
need libclang-rt-14-dev fuzz_links
# The decoders' oracles (tests/unit/test_zstd.c, test_lz4.c, tests/fuzz/, bench/decode_bench.c)
# and the tools that make the fuzz seeds (tests/fuzz/make_seeds.py).
need libzstd-dev header '#include <zstd.h>'
need libzstd-dev links -lzstd
need liblz4-dev header '#include <lz4frame.h>'
need liblz4-dev links -llz4
need libxxhash-dev header '#include <xxhash.h>'
need zstd has zstd
need lz4 has lz4
# Hosted -m32 programs: the decoders' i386 build runs on the host (tests/unit/i386/).
need gcc-multilib header '#include <stdio.h>' -m32
# ... started under qemu-i386 where the kernel refuses 32-bit programs (scripts/run32.sh).
need qemu-user has qemu-i386
# GRUB boot tests (make iso): grub-mkrescue with the BIOS and UEFI platforms, and UEFI firmware.
need grub-common has grub-mkrescue
need grub-pc-bin test -f /usr/lib/grub/i386-pc/multiboot2.mod
need grub-efi-amd64-bin test -f /usr/lib/grub/x86_64-efi/multiboot2.mod
need xorriso has xorriso
need mtools has mformat
need ovmf test -f /usr/share/OVMF/OVMF_CODE_4M.fd
# systemd-boot starts a kslide PE from a Type #1 entry in boot-linux (tests/boot/qemu-boot.sh -B).
need systemd-boot-efi test -f /usr/lib/systemd/boot/efi/systemd-bootx64.efi
# Measured boot (tests/linux/measured-boot.sh): a software TPM 2.0 for QEMU.
need swtpm has swtpm
# The PE checksum's oracle for kslide-pack --format efi (tests/pack/errors.sh): osslsigncode
# computes it itself (binutils' objdump prints it but does not check it).
need osslsigncode has osslsigncode
# Signing those images (tests/pack/sign.sh): sbsign and sbverify, as distributions sign theirs.
need sbsigntool has sbsign
need sbsigntool has sbverify
# ... and pesign, which other distributions sign with: its digest must be the same.
need pesign has pesign
need openssl has openssl
# kslide-pack --sign signs with libcrypto (tools/pack/authenticode.c).
need libssl-dev header '#include <openssl/pkcs7.h>'
need libssl-dev links -lcrypto
# kslide-pack decompresses Linux bzImage payloads; the Linux tests read them again with the
# lz4 and zstd programs.
need zlib1g-dev header '#include <zlib.h>'
need zlib1g-dev links -lz
need liblzma-dev header '#include <lzma.h>'
need liblzma-dev links -llzma
need liblz4-dev header '#include <lz4.h>'
need liblz4-dev links -llz4
need libzstd-dev header '#include <zstd.h>\n#include <zstd_errors.h>'
need libzstd-dev links -lzstd
need libbz2-dev header '#include <bzlib.h>'
need libbz2-dev links -lbz2
need lz4 has lz4
need zstd has zstd
# -m32 freestanding code needs only gcc's own headers, but check that gcc can target i386.
need gcc header '#include <stdint.h>' "-m32 -ffreestanding"

[ -z "$missing" ] && exit 0

cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "bootstrap: installing$missing"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive $cmd && exit 0
	echo "bootstrap: '$cmd' failed" >&2
	exit 1
fi
echo "bootstrap: missing Debian packages:$missing" >&2
echo "bootstrap: run as root:  apt-get update && $cmd" >&2
exit 1
