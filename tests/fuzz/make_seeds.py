#!/usr/bin/env python3
"""Regenerate the fuzz seed corpora in tests/fuzz/corpus/ (committed; run from the repository
root after changing a format). Needs python3, and GNU as and ld for the ELF seeds."""
import os
import struct
import subprocess
import tempfile
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def put(target, name, data):
    d = os.path.join(ROOT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


# ---- elf: a tiny i386 kernel with every relocation case the packer distinguishes ----
KERNEL_S = """
	.text
	.globl _start
_start:
	movl $msg, %esi          # R_386_32 to .data
	movl table+4, %eax       # R_386_32 with an addend
	movl $abs_sym, %ebx      # R_386_32 to an SHN_ABS symbol: must not move
	call far                 # R_386_PC32 into another section: needs nothing
	jmp _start
	.section .text.far, "ax"
far:
	ret
	.data
table:
	.long _start, far, msg
msg:
	.asciz "hi"
	.bss
buf:
	.space 64
	.section .debug_info, ""
	.long _start             # relocation in a non-loaded section: ignored
"""
KERNEL_LD = """
ENTRY(_start)
SECTIONS {
	. = 0x100000;
	.text : { *(.text) *(.text.far) }
	. = ALIGN(0x1000);
	.data : { *(.data) }
	.bss : { *(.bss) }
}
"""


# ---- elf: tiny x86-64 kernels, -mcmodel=kernel style and static PIEs (RELA and RELR) ----
KERNEL64_S = """
	.text
	.globl _start
_start:
	movq $value, %rax        # R_X86_64_32S
	movabsq $value, %rbx     # R_X86_64_64 in code
	leaq value(%rip), %rcx   # PC-relative: needs nothing
	call far
	.section .text.far, "ax"
far:	ret
	.data
	.p2align 3
value:	.quad _start             # R_X86_64_64 / RELATIVE
	.quad far
	.quad value
"""
KERNEL64_LD = """
ENTRY(_start)
SECTIONS {
	. = 0xffffffff81000000;
	.text : AT(0x1000000) { *(.text) *(.text.far) }
	.data : AT(ADDR(.data) - 0xffffffff80000000) { *(.data) }
}
"""


def elf_x86_64_seeds():
    with tempfile.TemporaryDirectory() as t:
        # The PIE keeps only RIP-relative code: absolute immediates cannot be dynamic.
        pie_s = "\n".join(l for l in KERNEL64_S.split("\n") if "$value" not in l)
        for name, text in (("k.S", KERNEL64_S), ("p.S", pie_s), ("k.ld", KERNEL64_LD)):
            with open(os.path.join(t, name), "w") as f:
                f.write(text)
        subprocess.run(["as", "--64", "k.S", "-o", "k.o"], cwd=t, check=True)
        subprocess.run(["as", "--64", "p.S", "-o", "p.o"], cwd=t, check=True)
        link = ["ld", "-m", "elf_x86_64", "-nostdlib", "-z", "max-page-size=0x10", "-z",
                "noexecstack", "--no-warn-rwx-segments", "-T", "k.ld", "-o"]
        subprocess.run(link + ["kernel.elf", "--emit-relocs", "k.o"], cwd=t, check=True)
        # Without a page-sized gap ld folds the headers into a PIE's first segment.
        pie = ["-z", "max-page-size=0x1000", "-pie", "--no-dynamic-linker"]
        subprocess.run(link + ["rela.elf"] + pie + ["-z", "nopack-relative-relocs", "p.o"],
                       cwd=t, check=True)
        subprocess.run(link + ["relr.elf"] + pie + ["-z", "pack-relative-relocs", "p.o"],
                       cwd=t, check=True)
        for src, name in (("kernel.elf", "kernel-x86-64"), ("rela.elf", "pie-rela-x86-64"),
                          ("relr.elf", "pie-relr-x86-64")):
            put("elf", name, open(os.path.join(t, src), "rb").read())


def elf_seeds():
    with tempfile.TemporaryDirectory() as t:
        for name, text in (("k.S", KERNEL_S), ("k.ld", KERNEL_LD)):
            with open(os.path.join(t, name), "w") as f:
                f.write(text)
        subprocess.run(["as", "--32", "k.S", "-o", "k.o"], cwd=t, check=True)
        # A 16-byte page size keeps the file small; the segments still sit 4 KiB apart in memory.
        link = ["ld", "-m", "elf_i386", "-nostdlib", "-z", "max-page-size=0x10", "-z",
                "noexecstack", "--defsym=abs_sym=0x5000", "-T", "k.ld", "-o"]
        subprocess.run(link + ["k.elf", "--emit-relocs", "k.o"], cwd=t, check=True)
        subprocess.run(link + ["norelocs.elf", "k.o"], cwd=t, check=True)
        elf = open(os.path.join(t, "k.elf"), "rb").read()
        put("elf", "kernel-i386", elf)
        put("elf", "no-relocations", open(os.path.join(t, "norelocs.elf"), "rb").read())
        put("elf", "object-file", open(os.path.join(t, "k.o"), "rb").read())
    elf_x86_64_seeds()
    put("elf", "truncated", elf[: len(elf) // 2])
    put("elf", "x86-64-machine", elf[:18] + struct.pack("<H", 62) + elf[20:])
    put("elf", "not-elf", b"\x7fELG" + elf[4:64])


# ---- reloc: | delta: i64 | image: 64 bytes | table |, as tests/fuzz/fuzz_reloc.c reads it ----
def uleb(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def group(kind, offsets):
    out, prev = bytearray([kind]) + uleb(len(offsets)), 0
    for o in offsets:
        out += uleb(o - prev)
        prev = o
    return bytes(out)


def reloc_seeds():
    image = struct.pack("<4I", 0x100000, 0x100010, 0xFFFFFFF0, 0x7FFFFFF0) + bytes(16)
    image += struct.pack("<QQ", 0xFFFFFFFF80000000, 0x100000) + bytes(16)
    table = group(1, [0, 4, 13]) + group(2, [12]) + group(3, [32, 40])
    put("reloc", "mixed-2m", struct.pack("<q", 0x200000) + image + table)
    put("reloc", "mixed-down", struct.pack("<q", -0x100000) + image + table)
    put("reloc", "add32-overflow", struct.pack("<q", 0x20) + image + group(1, [8]))
    put("reloc", "out-of-bounds", struct.pack("<q", 0x1000) + image + group(1, [0, 61]))
    put("reloc", "bad-kind", struct.pack("<q", 0x1000) + image + group(9, [0]))
    put("reloc", "long-uleb", struct.pack("<q", 1) + image + b"\x01\x01" + b"\x80" * 9 + b"\x01")


# ---- image: a header at offset 0, then payload and relocation table ----
# struct kslide_image_header (include/kslide/image.h): magic, version, header_size, flags, arch;
# 18 64-bit fields from image_file_size to handoff_data_size; handoff, the stub's two sums,
# checksum, payload_codec, pad; payload_stored_size; relocs_stored_size; the payload's sums;
# relocs_runs_size.
HEADER = struct.Struct("<8s4I18Q6IQQ2IQ")
IMAGE_H = os.path.join(os.path.dirname(ROOT), os.pardir, os.pardir, "include", "kslide", "image.h")


def image_version():
    """KSLIDE_IMAGE_VERSION as the header defines it, so the seeds follow the format."""
    with open(IMAGE_H) as f:
        for line in f:
            words = line.split()
            if words[:2] == ["#define", "KSLIDE_IMAGE_VERSION"]:
                return int(words[2].rstrip("uU"), 0)
    raise SystemExit("KSLIDE_IMAGE_VERSION not found in " + IMAGE_H)


ARCH_I386, HANDOFF_KSLIDE, CODEC_NONE, CODEC_ZSTD = 1, 1, 0, 1
CHECKSUM_FIELD = 26  # after the 5 leading fields, the 18 64-bit ones, handoff and the 2 sums


def word_sums(data):
    """lib/word_sums.h, as tests/boot/patch-image.py computes it for the boot tests."""
    import importlib.util
    path = os.path.join(os.path.dirname(ROOT), os.pardir, "boot", "patch-image.py")
    spec = importlib.util.spec_from_file_location("patch_image", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.word_sums(data)


def image(payload, mem_size, relocs, align=0x200000, entry=0, corrupt=False, codec=CODEC_NONE,
          decoded_size=None, relocs_decoded_size=None, handoff_data=b""):
    """An image of this format: header, payload as stored, relocation table as stored, handoff
    data."""
    payload_offset = HEADER.size
    relocs_offset = payload_offset + len(payload)
    data_offset = relocs_offset + len(relocs)
    total = data_offset + len(handoff_data)
    file_size = len(payload) if decoded_size is None else decoded_size
    relocs_size = len(relocs) if relocs_decoded_size is None else relocs_decoded_size
    fields = [b"KSLIDEIM", image_version(), HEADER.size, 0, ARCH_I386,
              total, payload_offset, file_size, mem_size, relocs_offset, relocs_size,
              0x100000, 0x100000, entry, align, 0x1000000, 0xFFFFFFFF, 0, 0, 0,
              mem_size, data_offset, len(handoff_data),
              HANDOFF_KSLIDE, 0, 0, 0, codec, 0, len(payload), len(relocs),
              *word_sums(payload), 0]
    crc = zlib.crc32(HEADER.pack(*fields))
    crc = zlib.crc32(relocs + handoff_data, crc)
    fields[CHECKSUM_FIELD] = crc ^ (1 if corrupt else 0)
    return HEADER.pack(*fields) + payload + relocs + handoff_data


def image_seeds():
    payload = bytes(range(64))
    relocs = group(1, [0, 8])
    put("image", "valid", image(payload, 0x2000, relocs))
    put("image", "valid-4k-bss", image(payload, 0x100000, b"", align=0x1000, entry=0x10))
    # A compressed payload's and table's decoded sizes are not bounded by the file; the stub
    # decodes them.
    put("image", "valid-compressed", image(payload, 0x8000, relocs, codec=CODEC_ZSTD,
                                           decoded_size=0x4000, relocs_decoded_size=0x100))
    put("image", "valid-handoff-data", image(payload, 0x2000, relocs, handoff_data=b"HdrS" * 8))
    put("image", "bad-checksum", image(payload, 0x2000, relocs, corrupt=True))
    put("image", "bad-align", image(payload, 0x2000, relocs, align=0x3000))
    put("image", "truncated", image(payload, 0x2000, relocs)[:-5])


# ---- multiboot1: memory from 0x1000, info structure first (tests/fuzz/fuzz_multiboot1.c) ----
MEM_BASE = 0x1000
FLAG_MEM, FLAG_CMDLINE, FLAG_MODS, FLAG_MMAP, FLAG_LOADER = 1, 1 << 2, 1 << 3, 1 << 6, 1 << 9


class Mem:
    def __init__(self):
        self.info = bytearray(116)
        self.rest = bytearray()

    def place(self, data):
        addr = MEM_BASE + 128 + len(self.rest)
        self.rest += data + bytes(-len(data) % 4)
        return addr

    def set32(self, off, v):
        struct.pack_into("<I", self.info, off, v)

    def blob(self):
        return bytes(self.info) + bytes(12) + bytes(self.rest)


def mmap(entries):
    return b"".join(struct.pack("<IQQI", 20, b, l, t) for b, l, t in entries)


def multiboot1_seeds():
    m = Mem()
    m.set32(0, FLAG_MEM)
    m.set32(8, 0x1FC00)  # mem_upper: 127 MiB above 1 MiB
    put("multiboot1", "mem-only", m.blob())

    m = Mem()
    entries = mmap([(0, 0x9FC00, 1), (0xF0000, 0x10000, 2), (0x100000, 0x7EE0000, 1)])
    m.set32(0, FLAG_MMAP | FLAG_CMDLINE | FLAG_LOADER | FLAG_MEM)
    m.set32(44, len(entries))
    m.set32(48, m.place(entries))
    m.set32(16, m.place(b"kaslr console=ttyS0\0"))
    m.set32(64, m.place(b"qemu\0"))
    put("multiboot1", "mmap-cmdline-loader", m.blob())

    m = Mem()
    entries = mmap([(0x100000, 0x3F00000, 1)])
    names = [m.place(b"initrd crc32=1234abcd\0"), 0]
    mods = struct.pack("<4I", 0x2000000, 0x2001000, names[0], 0)
    mods += struct.pack("<4I", 0x3000000, 0x3000000, names[1], 0)
    m.set32(0, FLAG_MMAP | FLAG_MODS | FLAG_CMDLINE)
    m.set32(44, len(entries))
    m.set32(48, m.place(entries))
    m.set32(20, 2)
    m.set32(24, m.place(mods))
    m.set32(16, m.place(b"\0"))
    put("multiboot1", "two-modules", m.blob())

    m = Mem()
    m.set32(0, FLAG_MODS | FLAG_MEM)
    m.set32(20, 0)
    m.set32(24, 0xDEADBEEF)
    put("multiboot1", "zero-modules", m.blob())


# ---- multiboot2: a tag list at 0x1000 (tests/fuzz/fuzz_multiboot2.c) ----
def tag(kind, data):
    t = struct.pack("<II", kind, 8 + len(data)) + data
    return t + bytes(-len(t) % 8)


def mb2(*tags):
    body = b"".join(tags) + tag(0, b"")
    return struct.pack("<II", 8 + len(body), 0) + body


def mb2_string(kind, text):
    return tag(kind, text + b"\0")


def mb2_module(start, end, text):
    return tag(3, struct.pack("<II", start, end) + text + b"\0")


def mb2_mmap(entries):
    return tag(6, struct.pack("<II", 24, 0) +
               b"".join(struct.pack("<QQII", b, l, t, 0) for b, l, t in entries))


def mb2_efi_mmap(descs, size=48):
    return tag(17, struct.pack("<II", size, 1) + b"".join(
        struct.pack("<IIQQQQ", t, 0, b, 0, pages, 0xF).ljust(size, b"\0") for t, b, pages in descs))


def multiboot2_seeds():
    e820 = [(0, 0x9FC00, 1), (0x9FC00, 0x400, 2), (0x100000, 0x7EE0000, 1), (0xFFFC0000, 0x40000, 2)]
    put("multiboot2", "grub-bios", mb2(
        tag(21, struct.pack("<I", 0x100000)), mb2_string(1, b"kaslr console=ttyS0"),
        mb2_string(2, b"GRUB 2.06-13+deb12u2"),
        mb2_module(0x113000, 0x213000, b"crc32=0x85d0b67f"),
        tag(4, struct.pack("<II", 639, 130944)), mb2_mmap(e820)))
    efi = [(3, 0, 0xA0), (7, 0x100000, 0x700), (10, 0x800000, 8), (7, 0x808000, 8),
           (2, 0x1500000, 0x4000), (4, 0x5500000, 0x100), (7, 0x5600000, 0x2000), (6, 0x7F00000, 0x20)]
    put("multiboot2", "grub-uefi", mb2(
        mb2_string(1, b""), mb2_string(2, b"GRUB 2.06-13+deb12u2"),
        mb2_module(0x1500000, 0x1600000, b"m crc32=0x1"), mb2_mmap(e820),
        tag(12, struct.pack("<Q", 0x7FBEE018)), mb2_efi_mmap(efi)))
    put("multiboot2", "efi32-bs-meminfo", mb2(
        tag(11, struct.pack("<I", 0x3FBEE018)), tag(18, b""), tag(4, struct.pack("<II", 639, 0x7FC00))))
    put("multiboot2", "unknown-tags", mb2(tag(0xDEAD, bytes(range(13))), tag(9, bytes(12)),
                                          mb2_string(1, b"nokaslr")))
    put("multiboot2", "empty", mb2())
    put("multiboot2", "no-end-tag", mb2(mb2_string(1, b"x"))[:-8])


# ---- pvh: an hvm_start_info at 0x1000 and what it points to (tests/fuzz/fuzz_pvh.c) ----
def pvh(version=1, modules=(), cmdline=b"", e820=(), rsdp=b""):
    """Start info at 0x1000, then the map, the module list, strings and the RSDP after it."""
    base, head = 0x1000, 56
    blob = bytearray()

    def place(data):
        at = base + head + len(blob)
        blob.extend(data + bytes(-len(data) % 8))
        return at
    memmap = place(b"".join(struct.pack("<QQII", b, l, t, 0) for b, l, t in e820)) if e820 else 0
    modlist = place(b"".join(struct.pack("<QQQQ", s, n, 0, 0) for s, n in modules)) if modules else 0
    cmd = place(cmdline + b"\0") if cmdline else 0
    rsdp_at = place(rsdp) if rsdp else 0
    info = struct.pack("<IIIIQQQQII", 0x336EC578, version, 0, len(modules), modlist, cmd, rsdp_at,
                       memmap, len(e820), 0)
    return (info + bytes(blob)) if version else info[:40] + bytes(blob)


def pvh_seeds():
    e820 = [(0, 0x9FC00, 1), (0x9FC00, 0x400, 2), (0xF0000, 0x10000, 2), (0x100000, 0x7EE0000, 1),
            (0xFFFC0000, 0x40000, 2)]
    rsdp = b"RSD PTR " + bytes(7) + b"\x02" + bytes(20)
    put("pvh", "qemu-pc-initrd", pvh(modules=[(0x7E00000, 0x80000)], cmdline=b"console=ttyS0 kaslr",
                                      e820=e820, rsdp=rsdp))
    put("pvh", "qemu-microvm", pvh(cmdline=b"console=ttyS0", e820=[(0, 0x9FC00, 1),
                                                                    (0x100000, 0x7F00000, 1)]))
    put("pvh", "version-0", pvh(version=0, cmdline=b"x"))
    put("pvh", "version-2", pvh(version=2, e820=e820))
    put("pvh", "module-beyond-ram", pvh(modules=[(0x7FFF000, 0x2000)], e820=e820))


# ---- slots: the request layout tests/fuzz/fuzz_slots.c reads ----
def slots(size, align_shift, lo, hi, usable, avoid, index=0):
    head = struct.pack("<QBQQBQ", size, align_shift, lo, hi, len(usable), index)
    return head + b"".join(struct.pack("<QQ", s, l) for s, l in usable + avoid)


def slots_seeds():
    ram = [(0, 0x9FC00), (0x100000, 0x3FF00000)]
    put("slots", "1g-2m", slots(0x800000, 21, 0x1000000, 0xFFFFFFFF, ram,
                                [(0x1000000, 0x100000), (0x2000000, 0x3000)], 7))
    put("slots", "4k-modules", slots(0x5000, 12, 0x100000, 0x7FFFFFF, ram,
                                     [(0x200000, 0x1234), (0x3000000, 0x2800000)], 1000))
    put("slots", "small-oracle", slots(0x30, 4, 0x10, 0xFFF, [(0, 0x400), (0x400, 0x200), (0x800, 0x800)],
                                       [(0x100, 0x10), (0x5F0, 0x20)], 5))
    put("slots", "top-of-space", slots(1, 0, 0, 0xFFFFFFFFFFFFFFFF, [(0xFFFFFFFFFFFFF000, 0x2000)], []))


# ---- zstd, lz4: frames the real command-line tools make (run with zstd and lz4 installed) ----
def decoder_contents():
    import random
    rng = random.Random(15)
    words = [b"kslide", b"kernel", b"slot", b"reloc", b"entropy", b"stub", b"\x00\x00\x00\x00",
             b"\x90\x90", b"\xe8\x00\x10\x00\x00", b"\n"]
    text = b"".join(rng.choice(words) for _ in range(3000))
    return {"empty": b"", "one": b"A", "text": text, "zeros": bytes(70000),
            "random": bytes(rng.randrange(256) for _ in range(3000)),
            "mixed": text[:5000] + bytes(rng.randrange(256) for _ in range(2000)) + text[:5000]}


def compressed(tool, args, data):
    with tempfile.TemporaryDirectory() as d:
        src, dst = os.path.join(d, "in"), os.path.join(d, "out")
        with open(src, "wb") as f:
            f.write(data)
        out = ["-o", dst] if tool == "zstd" else [dst]  # lz4 takes the output as an operand
        subprocess.run([tool, "-q", "-f"] + args + [src] + out, check=True)
        with open(dst, "rb") as f:
            return f.read()


def decoder_seeds():
    for name, data in decoder_contents().items():
        put("zstd", name + "-19", compressed("zstd", ["-19", "--check"], data))
        put("zstd", name + "-1", compressed("zstd", ["-1", "--no-check"], data))
        put("lz4", name + "-hc-linked", compressed("lz4", ["-9", "--content-size", "-BD"], data))
        put("lz4", name + "-fast-indep", compressed("lz4", ["-1", "-BX", "-B4", "--no-frame-crc"],
                                                    data))
    # Content seeds for the compress-then-decode half: small plain inputs.
    put("zstd", "plain-text", decoder_contents()["text"][:2000])
    put("lz4", "plain-text", decoder_contents()["text"][:2000])


# ---- bzimage: a synthetic setup header (boot.rst's offsets) and Linux's appended lists ----
def bzimage(version=0x020F, setup_sects=1, payload=b"\x5d\x00\x00\x80" * 4, relocatable=1):
    setup = bytearray(((setup_sects or 4) + 1) * 512)  # 0 means 4 (boot.rst)
    setup[0x1F1] = setup_sects
    struct.pack_into("<H", setup, 0x1FE, 0xAA55)
    setup[0x200:0x202] = bytes([0xEB, 0x6A])  # the jump that ends the header at 0x26c
    setup[0x202:0x206] = b"HdrS"
    struct.pack_into("<H", setup, 0x206, version)
    setup[0x211] = 1  # loadflags: LOADED_HIGH
    struct.pack_into("<I", setup, 0x22C, 0x7FFFFFFF)  # initrd_addr_max
    struct.pack_into("<I", setup, 0x230, 0x1000000)  # kernel_alignment
    setup[0x234] = relocatable
    setup[0x235] = 13  # min_alignment: 8 KiB
    struct.pack_into("<I", setup, 0x238, 2047)  # cmdline_size
    pad = 0x40  # the payload's offset past the setup
    struct.pack_into("<II", setup, 0x248, pad, len(payload))
    struct.pack_into("<Q", setup, 0x258, 0x1000000)  # pref_address
    struct.pack_into("<I", setup, 0x260, 0x100000)  # init_size
    return bytes(setup) + bytes(pad) + payload


def words(*values):
    return b"".join(struct.pack("<I", v & 0xFFFFFFFF) for v in values)


def bzimage_seeds():
    put("bzimage", "header-2.15", bzimage())
    put("bzimage", "header-2.08-legacy-sects", bzimage(version=0x0208, setup_sects=0))
    # A file ending one byte into the version after "HdrS": its read once went past the end.
    put("bzimage", "regression-ends-in-version", bzimage()[:0x207])
    # A regression: "HdrS" ending the file, before the version field.
    put("bzimage", "truncated-after-magic", bzimage()[:0x206])
    put("bzimage", "lists-i386", words(0, 0xC1000010, 0xC1000020))
    put("bzimage", "lists-x86_64", words(0, 0x81000008, 0, 0x10, 0, 0x81000040, 0x81000044))


if __name__ == "__main__":
    elf_seeds()
    reloc_seeds()
    image_seeds()
    multiboot1_seeds()
    multiboot2_seeds()
    pvh_seeds()
    slots_seeds()
    decoder_seeds()
    bzimage_seeds()
