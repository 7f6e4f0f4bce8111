#!/usr/bin/env python3
"""Make a damaged copy of a packed kslide image, for the fault-injection boot tests.

Operations apply in order; the payload's word sums (lib/word_sums.h) are recomputed only with
--sums and the header's CRC-32 (zlib's, the same IEEE CRC as lib/crc32.c; it covers the
header, sums included, so --sums comes first) only with --crc, so a test chooses whether a
checksum or a later check must catch the damage. Header layout: include/kslide/image.h;
Multiboot a.out-kludge header at offset 0; in a PVH ELF, the image its PT_LOAD loads; in a PE
(--format efi), the image its section holds.

usage: patch-image.py IN OUT [--set FIELD=VALUE] [--add FIELD=DELTA]
                             [--flip payload|relocs|stub:N] [--last-field VALUE]
                             [--mb FIELD=VALUE] [--mb2-min ADDRESS] [--enter-with-magic VALUE]
                             [--truncate BYTES] [--sums] [--crc]
  --flip PART:N       invert byte N of the payload, relocation table as stored or shuffle
                      table (kslide-pack --shuffle), or of the
                      stub's self-checked part (from the end of the kslide header; a negative N
                      counts back from the payload, which follows the stub within 16 bytes; for
                      the payload, a negative N counts back from its stored end)
  --last-field VALUE  store VALUE (32 bits) in the field the table's last entry patches (an
                      uncompressed image's)
  --mb FIELD=VALUE    set load_addr, load_end_addr or bss_end_addr in the Multiboot header
  --mb2-min ADDRESS   set min_addr in the Multiboot 2 relocatable tag: a loader that honours it
                      (GRUB) loads the image there or above instead of at its link address
  --enter-with-magic VALUE
                      have a Multiboot 1 loader enter the stub with EAX = VALUE instead of
                      its magic: the header's entry_addr names a detour (mov $VALUE, %eax;
                      jmp to the old entry) written into the room the Multiboot 2 header
                      reserves after its end tag, which no checksum covers
"""
import struct
import sys
import zlib

MAGIC = b"KSLIDEIM"
# (name, offset, struct format) after the 8-byte magic; see struct kslide_image_header.
FIELDS = [("version", 8, "<I"), ("header_size", 12, "<I"), ("flags", 16, "<I"),
          ("arch", 20, "<I"), ("image_file_size", 24, "<Q"), ("payload_offset", 32, "<Q"),
          ("payload_file_size", 40, "<Q"), ("payload_mem_size", 48, "<Q"),
          ("relocs_offset", 56, "<Q"), ("relocs_size", 64, "<Q"),
          ("link_phys_base", 72, "<Q"), ("link_virt_base", 80, "<Q"),
          ("entry_offset", 88, "<Q"), ("align", 96, "<Q"), ("phys_min", 104, "<Q"),
          ("phys_max", 112, "<Q"), ("memory_size", 144, "<Q"),
          ("handoff_data_offset", 152, "<Q"), ("handoff_data_size", 160, "<Q"),
          ("handoff", 168, "<I"), ("stub_sum", 172, "<I"), ("stub_sum_of_sums", 176, "<I"),
          ("checksum", 180, "<I"), ("payload_codec", 184, "<I"),
          ("payload_stored_size", 192, "<Q"), ("relocs_stored_size", 200, "<Q"),
          ("payload_sum", 208, "<I"), ("payload_sum_of_sums", 212, "<I"),
          ("relocs_runs_size", 216, "<Q")]
HEADER_SIZE = 224
CHECKSUM = 180
SHUFFLE_FLAG = 1 << 4  # KSLIDE_IMAGE_SHUFFLE (include/kslide/image.h)
MULTIBOOT = {"load_addr": 16, "load_end_addr": 20, "bss_end_addr": 24}
MB1_HEADER_ADDR, MB1_ENTRY_ADDR = 12, 28
MB2_HEADER_MAGIC, MB2_HEADER_LENGTH, MB2_SEARCH = 0xE85250D6, 8, 32768  # Multiboot2 spec 3.1.1
MB2_TAG_RELOCATABLE, MB2_RELOCATABLE_MIN = 10, 8
MOV_EAX_IMM32, JMP_REL32 = 0xB8, 0xE9
FMT_MASK = {"<I": 0xffffffff, "<Q": 0xffffffffffffffff}


def die(msg):
    sys.exit("patch-image: " + msg)


def field(name):
    for f in FIELDS:
        if f[0] == name:
            return f
    die("unknown header field " + name)


def get(img, hdr, name):
    _, off, fmt = field(name)
    return struct.unpack_from(fmt, img, hdr + off)[0]


def put(img, hdr, name, value):
    _, off, fmt = field(name)
    struct.pack_into(fmt, img, hdr + off, value & FMT_MASK[fmt])


def checksum(img, hdr):
    header = bytearray(img[hdr:hdr + HEADER_SIZE])
    struct.pack_into("<I", header, CHECKSUM, 0)
    crc = zlib.crc32(header)
    for start, size in (("relocs_offset", "relocs_stored_size"),
                        ("handoff_data_offset", "handoff_data_size")):
        a, n = get(img, hdr, start), get(img, hdr, size)
        crc = zlib.crc32(img[a:a + n], crc)
    return zlib.crc32(img[shuffle_offset(img, hdr):get(img, hdr, "image_file_size")], crc)


def shuffle_offset(img, hdr):
    """Where the shuffle table starts: after the handoff data with KSLIDE_IMAGE_SHUFFLE
    (kslide-pack --shuffle), else the image's end (lib/image.c image_shuffle_offset)."""
    if get(img, hdr, "flags") & SHUFFLE_FLAG:
        return get(img, hdr, "handoff_data_offset") + get(img, hdr, "handoff_data_size")
    return get(img, hdr, "image_file_size")


def word_sums(data):
    """lib/word_sums.h: the 32-bit words' sum and the sum of the running sums, mod 2^32, the
    last word padded with zeros (tests/fuzz/make_seeds.py uses this one too)."""
    data = bytes(data) + bytes(-len(data) % 4)
    s = t = 0
    for (w,) in struct.iter_unpack("<I", data):
        s = (s + w) & 0xffffffff
        t = (t + s) & 0xffffffff
    return s, t


def payload_sums(img, hdr):
    """The word sums of the stored payload."""
    a = get(img, hdr, "payload_offset")
    return word_sums(img[a:a + get(img, hdr, "payload_stored_size")])


def mb2_header(img):
    mb2 = next((off for off in range(0, MB2_SEARCH, 8)
                if struct.unpack_from("<I", img, off)[0] == MB2_HEADER_MAGIC), None)
    if mb2 is None:
        die("no Multiboot 2 header")
    return mb2


def mb2_min(img, address):
    """Set the relocatable tag's min_addr (no checksum covers the tags)."""
    mb2 = mb2_header(img)
    end = mb2 + struct.unpack_from("<I", img, mb2 + MB2_HEADER_LENGTH)[0]
    tag = mb2 + 16
    while tag + 8 <= end:
        kind, size = struct.unpack_from("<H", img, tag)[0], struct.unpack_from("<I", img, tag + 4)[0]
        if kind == MB2_TAG_RELOCATABLE:
            struct.pack_into("<I", img, tag + MB2_RELOCATABLE_MIN, address)
            return
        if kind == 0 or size < 8:
            break
        tag += (size + 7) & ~7
    die("no Multiboot 2 relocatable tag")


def enter_with_magic(img, magic):
    """Point the Multiboot 1 entry at a detour that loads EAX with magic, then enters."""
    mb2 = mb2_header(img)
    detour = mb2 + struct.unpack_from("<I", img, mb2 + MB2_HEADER_LENGTH)[0]
    header_addr, entry = struct.unpack_from("<I", img, MB1_HEADER_ADDR)[0], struct.unpack_from(
        "<I", img, MB1_ENTRY_ADDR)[0]
    detour_addr = header_addr + detour  # the Multiboot 1 header is the file's first byte
    code = struct.pack("<BIBi", MOV_EAX_IMM32, magic & 0xffffffff, JMP_REL32,
                       entry - (detour_addr + 10))
    if any(img[detour:detour + len(code)]):
        die("the Multiboot 2 header's spare room is in use")
    img[detour:detour + len(code)] = code
    struct.pack_into("<I", img, MB1_ENTRY_ADDR, detour_addr)


def last_field(img, hdr):
    """Payload offset of the last field of the table's last group (lib/reloc.h format; an
    uncompressed table)."""
    pos, end = get(img, hdr, "relocs_offset"), get(img, hdr, "relocs_offset") + get(
        img, hdr, "relocs_size")

    def uleb():
        nonlocal pos
        value = shift = 0
        while True:
            byte = img[pos]
            pos += 1
            value |= (byte & 0x7f) << shift
            shift += 7
            if byte < 0x80:
                return value

    last = None
    while pos < end:
        pos += 1  # kind
        offset = 0
        for _ in range(uleb()):
            offset += uleb()
            last = offset
    if last is None:
        die("the image has no relocations")
    return last


def pvh_split(data):
    """A PVH ELF (kslide-pack --format pvh): its headers, and the image its first PT_LOAD
    loads (docs/format.md); any other file is all image."""
    if data[:5] != b"\x7fELF\x02":
        return bytearray(), data
    phoff, = struct.unpack_from("<Q", data, 32)
    p_type, _, p_offset = struct.unpack_from("<IIQ", data, phoff)
    if p_type != 1:
        die("a PVH ELF whose first program header is no PT_LOAD")
    return data[:p_offset], data[p_offset:]


def pe_split(data):
    """A PE (kslide-pack --format efi): its headers, and the image its one section holds
    (docs/format.md). The PE checksum is left as it was: UEFI firmware does not check it."""
    lfanew, = struct.unpack_from("<I", data, 0x3C)
    opt_size, = struct.unpack_from("<H", data, lfanew + 4 + 16)
    section = lfanew + 4 + 20 + opt_size
    raw_at, = struct.unpack_from("<I", data, section + 20)
    return data[:raw_at], data[raw_at:]


def container_split(data):
    """The container's own bytes and the image inside: a PVH ELF's or a PE's; any other
    file is all image."""
    return pe_split(data) if data[:2] == b"MZ" else pvh_split(data)


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) > 1 else 2
    img = bytearray(open(argv[1], "rb").read())
    prefix, img = container_split(img)
    hdr = img.find(MAGIC)
    if hdr < 0 or hdr % 8:
        die(argv[1] + ": no kslide header")
    ops = argv[3:]
    while ops:
        op = ops.pop(0)
        arg = ops.pop(0) if op not in ("--crc", "--sums") and ops else None
        if op == "--set":
            name, value = arg.split("=")
            put(img, hdr, name, int(value, 0))
        elif op == "--add":
            name, delta = arg.split("=")
            put(img, hdr, name, get(img, hdr, name) + int(delta, 0))
        elif op == "--flip":
            part, n = arg.split(":")
            n = int(n, 0)
            if part == "stub":  # from the header's end; negative: back from the payload
                base = hdr + HEADER_SIZE if n >= 0 else get(img, hdr, "payload_offset")
            elif part == "shuffle":  # the shuffle table at the image's tail
                base = shuffle_offset(img, hdr)
            elif part == "payload" and n < 0:  # back from the stored payload's end
                base = get(img, hdr, "payload_offset") + get(img, hdr, "payload_stored_size")
            else:
                base = get(img, hdr, part + "_offset")
            img[base + n] ^= 0xff
        elif op == "--last-field":
            at = get(img, hdr, "payload_offset") + last_field(img, hdr)
            struct.pack_into("<I", img, at, int(arg, 0) & 0xffffffff)
        elif op == "--mb":
            name, value = arg.split("=")
            struct.pack_into("<I", img, MULTIBOOT[name], int(value, 0) & 0xffffffff)
        elif op == "--mb2-min":
            mb2_min(img, int(arg, 0))
        elif op == "--enter-with-magic":
            enter_with_magic(img, int(arg, 0))
        elif op == "--truncate":
            del img[int(arg, 0):]
        elif op == "--sums":
            s, t = payload_sums(img, hdr)
            put(img, hdr, "payload_sum", s)
            put(img, hdr, "payload_sum_of_sums", t)
        elif op == "--crc":
            put(img, hdr, "checksum", checksum(img, hdr))
        else:
            die("unknown operation " + op)
    with open(argv[2], "wb") as out:
        out.write(prefix + img)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
