#!/usr/bin/env python3
"""Judge what Linux finds in memory at its entry (startup_32, paging off) against what Linux's
own boot protocol and its own relocation list say it must find, with nothing of kslide's code:

  - the kernel, [phys, phys + span): the bzImage's payload decoded by Python's lzma, the
    vmlinux ELF's PT_LOAD segments laid out from the link base with their bss (and brk)
    zeroed, and Linux's 32-bit relocation list (read backwards from the payload's end to its
    0, as arch/x86/boot/compressed/misc.c does) adding the slide to each field: byte for byte;
  - the registers of the 32-bit boot protocol (boot.rst): EIP the entry, ESI the zero page,
    EBX EBP EDI 0, CS 0x10, DS ES SS 0x18, interrupts off;
  - the zero page: the bzImage's setup header, with only the fields a loader sets changed
    (type_of_loader, loadflags LOADED_HIGH and KASLR_FLAG, ramdisk, cmd_line_ptr); the
    ramdisk there is the initrd file byte for byte; the command line is the one given, without
    the stub's words; an e820 table whose usable RAM holds the kernel and the initrd; nothing
    else set.

i386 only (Debian's 686): the virtual slide is the physical one.
usage: entry_proof.py BZIMAGE INITRD DUMPDIR APPEND     (DUMPDIR: tests/linux/gdbstub.py's
       regs, kernel.bin, zeropage.bin, initrd.bin, cmdline.bin); prints one line, exit 1 when
       a rule fails, naming the first difference
entry_proof.py --layout BZIMAGE    prints "SPAN MEMORY_SIZE": the kernel's bytes in memory from
       its base, and the bytes from the base that must be free (max(span, init_size))
"""
import lzma
import struct
import sys

LINK_PAGE_OFFSET = 0xc0000000
SETUP_HEADER = 0x1f1
LOADER_SET = {0x210: 1, 0x211: 1, 0x218: 4, 0x21c: 4, 0x228: 4}  # offset: width
LOADED_HIGH, KASLR_FLAG = 0x01, 0x02
E820_ENTRIES, E820_TABLE, E820_USABLE = 0x1e8, 0x2d0, 1
STUB_WORDS = ("nokaslr", "kaslr")


def u32(b, at):
    return struct.unpack_from("<I", b, at)[0]


def vmlinux(bz):
    """(payload, segments, init_size, setup header bytes) of a bzImage."""
    setup_sects = bz[0x1f1] or 4
    offset, length = struct.unpack_from("<II", bz, 0x248)
    start = (setup_sects + 1) * 512 + offset
    payload = lzma.LZMADecompressor().decompress(bz[start:start + length])
    phoff, phnum = u32(payload, 0x1c), struct.unpack_from("<H", payload, 0x2c)[0]
    segments = []
    for k in range(phnum):
        p_type, off, vaddr, paddr, filesz, memsz = struct.unpack_from("<6I", payload, phoff + 32 * k)
        if p_type == 1:
            segments.append((off, vaddr, paddr, filesz, memsz))
    header_end = 0x202 + bz[0x201]  # the jump at 0x200 skips to the header's end
    return payload, segments, u32(bz, 0x260), bz[SETUP_HEADER:header_end]


def layout(segments, init_size):
    base = min(s[2] for s in segments)
    span = max(s[2] + s[4] for s in segments) - base
    return base, span, max(span, init_size)


def kernel_at(payload, segments, phys):
    base, span, _ = layout(segments, 0)
    link_virt = min(s[1] for s in segments)
    image = bytearray(span)
    for off, _, paddr, filesz, _ in segments:
        image[paddr - base:paddr - base + filesz] = payload[off:off + filesz]
    slide = phys - base
    at = len(payload) - 4
    while u32(payload, at):
        field = u32(payload, at) - link_virt
        struct.pack_into("<I", image, field, (u32(image, field) + slide) & 0xffffffff)
        at -= 4
    return image


def first_difference(a, b):
    n = min(len(a), len(b))
    for i in range(0, n, 4096):
        if a[i:i + 4096] != b[i:i + 4096]:
            return next(j for j in range(i, min(i + 4096, n)) if a[j] != b[j])
    return None if len(a) == len(b) else n


def judge(bz, initrd, dump, append):
    payload, segments, init_size, header = vmlinux(bz)
    regs = dict(line.split() for line in open(dump + "/regs"))
    regs = {k: int(v, 16) for k, v in regs.items()}
    phys = regs["eip"]
    base, span, _ = layout(segments, init_size)
    got = open(dump + "/kernel.bin", "rb").read()
    want = kernel_at(payload, segments, phys)
    at = first_difference(got, want)
    if at is not None:
        return f"the kernel at 0x{phys:x} differs from vmlinux relocated by Linux's list at " \
               f"offset 0x{at:x} (0x{phys + at:x}): 0x{got[at:at + 4].hex()} for 0x{want[at:at + 4].hex()}"
    protocol = {"ebx": 0, "ebp": 0, "edi": 0, "cs": 0x10, "ds": 0x18, "es": 0x18, "ss": 0x18}
    for name, value in protocol.items():
        if regs[name] != value:
            return f"{name} is 0x{regs[name]:x} at entry, not 0x{value:x}"
    if regs["eflags"] & 0x200:
        return "interrupts are on at entry"
    zp = open(dump + "/zeropage.bin", "rb").read()
    for i, byte in enumerate(header):
        at = SETUP_HEADER + i
        if any(o <= at < o + w for o, w in LOADER_SET.items()):
            continue
        if zp[at] != byte:
            return f"zero page byte 0x{at:x} is 0x{zp[at]:02x}, the bzImage's header has 0x{byte:02x}"
    if zp[0x210] != 0xff or zp[0x211] != (header[0x211 - SETUP_HEADER] | LOADED_HIGH | KASLR_FLAG):
        return f"type_of_loader 0x{zp[0x210]:x}, loadflags 0x{zp[0x211]:x}: want 0xff and " \
               f"LOADED_HIGH | KASLR_FLAG on the header's"
    ramdisk, ramdisk_size = u32(zp, 0x218), u32(zp, 0x21c)
    if ramdisk_size != len(initrd) or open(dump + "/initrd.bin", "rb").read() != initrd:
        return f"the ramdisk at 0x{ramdisk:x} ({ramdisk_size} bytes) is not the initrd " \
               f"({len(initrd)} bytes)"
    raw = open(dump + "/cmdline.bin", "rb").read()
    cmdline = raw[:raw.index(b"\0")].decode() if b"\0" in raw else None
    words = [w for w in append.split() if w not in STUB_WORDS and not w.startswith("kslide.")]
    # QEMU's Multiboot loader puts the image's path first; Linux must not see it.
    if cmdline is None or cmdline.split() != words:
        return f"Linux's command line is {cmdline!r}, not the given one without kslide's " \
               f"words: {' '.join(words)!r}"
    entries = zp[E820_ENTRIES]
    usable = []
    for i in range(entries):
        start, size, kind = struct.unpack_from("<QQI", zp, E820_TABLE + 20 * i)
        if kind == E820_USABLE:
            usable.append((start, start + size))
    for what, lo, hi in (("kernel", phys, phys + span), ("initrd", ramdisk, ramdisk + ramdisk_size)):
        if not any(s <= lo and hi <= e for s, e in usable):
            return f"no usable e820 entry holds the {what} [0x{lo:x}, 0x{hi:x})"
    known = set(range(SETUP_HEADER, SETUP_HEADER + len(header))) | {E820_ENTRIES} | \
        set(range(E820_TABLE, E820_TABLE + 20 * entries))
    stray = [i for i, b in enumerate(zp) if b and i not in known]
    if stray:
        return f"zero page byte 0x{stray[0]:x} is set (0x{zp[stray[0]]:02x}); kslide sets " \
               f"nothing there"
    return None


def main():
    if sys.argv[1] == "--layout":
        _, segments, init_size, _ = vmlinux(open(sys.argv[2], "rb").read())
        _, span, memory = layout(segments, init_size)
        print(span, memory)
        return 0
    bz, initrd, dump, append = sys.argv[1:5]
    why = judge(open(bz, "rb").read(), open(initrd, "rb").read(), dump, append)
    regs = dict(line.split() for line in open(dump + "/regs"))
    if why:
        print(f"entry-proof: FAIL at phys {regs['eip']}: {why}")
        return 1
    print(f"entry-proof: at phys {regs['eip']} the kernel is vmlinux relocated by Linux's own "
          f"list, byte for byte; registers, zero page, initrd and command line as the boot "
          f"protocol says")
    return 0


if __name__ == "__main__":
    sys.exit(main())
