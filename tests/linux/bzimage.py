#!/usr/bin/env python3
"""Take a Linux bzImage apart and put altered copies together, for kslide-pack's tests.

An independent reading of the same formats kslide-pack reads (tools/pack/bzimage.c,
decompress.c, linux_relocs.c), with Python's own codecs (zlib, bz2, lzma) and the lz4 and
zstd programs for the rest, so the tests compare two implementations and the real libraries.

  bzimage.py payload BZIMAGE OUT      write the decompressed payload (vmlinux ELF and lists)
  bzimage.py packed BZIMAGE OUT       write the payload as the file holds it (compressed)
  bzimage.py lists PAYLOAD            print "32=N inverse=N 64=N" from the appended lists
  bzimage.py extent PAYLOAD           print the ELF file's size (where the lists start)
  bzimage.py compress CODEC RAW OUT   compress RAW as Linux does (gzip bzip2 lzma xz lz4
                                      zstd), with Linux's 4-byte size trailer
  bzimage.py put BZIMAGE PACKED OUT   a copy of BZIMAGE whose payload is PACKED, appended at
                                      the end of the file (payload_offset/_length rewritten)
  bzimage.py set FILE OUT OFFSET BYTES VALUE      store a little-endian field
  bzimage.py insert FILE OUT OFFSET HEX           insert bytes
  bzimage.py flip BZIMAGE OUT N       invert byte N of the (compressed) payload

Header offsets: Linux's Documentation/arch/x86/boot.rst. Lists: arch/x86/tools/relocs.c.
"""
import bz2
import gzip
import lzma
import os
import struct
import subprocess
import sys
import zlib

SETUP_SECTS, PAYLOAD_OFFSET, PAYLOAD_LENGTH = 0x1F1, 0x248, 0x24C
SECTOR = 512
LZ4_LEGACY_MAGIC = 0x184C2102


def write(path, data):
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def protected_mode_start(image):
    return ((image[SETUP_SECTS] or 4) + 1) * SECTOR


def payload_range(image):
    offset, length = struct.unpack_from("<II", image, PAYLOAD_OFFSET)
    start = protected_mode_start(image) + offset
    return start, start + length


def unlz4_legacy(stream):
    """The legacy LZ4 container, which the lz4 program reads (and Linux's `lz4 -l` writes)."""
    return subprocess.run(["lz4", "-dc"], input=stream, stdout=subprocess.PIPE,
                          check=True).stdout


def decompress(packed):
    stream, size = packed[:-4], struct.unpack("<I", packed[-4:])[0]
    magic = stream[:2]
    if magic in (b"\x1f\x8b", b"\x1f\x9e"):
        raw = gzip.decompress(stream)
    elif magic == b"BZ":
        raw = bz2.decompress(stream)
    elif magic == b"\x5d\x00":
        raw = lzma.decompress(stream, format=lzma.FORMAT_ALONE)
    elif magic == b"\xfd\x37":
        raw = lzma.decompress(stream, format=lzma.FORMAT_XZ)
    elif magic == b"\x02\x21":
        raw = unlz4_legacy(stream)
    elif magic == b"\x28\xb5":
        raw = subprocess.run(["zstd", "-dc"], input=stream, stdout=subprocess.PIPE,
                             check=True).stdout
    else:
        sys.exit("bzimage.py: unknown payload magic %s" % magic.hex())
    if len(raw) != size:
        sys.exit("bzimage.py: payload decodes to %d bytes, its trailer says %d" % (len(raw), size))
    return raw


def elf_extent(raw):
    """The bytes the ELF file occupies: its header tables and every section's contents."""
    if raw[:4] != b"\x7fELF":
        sys.exit("bzimage.py: the payload is not an ELF file")
    wide = raw[4] == 2
    fmt = "<16xHHIQQQIHHHHHH" if wide else "<16xHHIIIIIHHHHHH"
    (_, _, _, _, phoff, shoff, _, ehsize, phentsize, phnum, shentsize, shnum,
     _) = struct.unpack_from(fmt, raw, 0)
    end = max(ehsize, phoff + phentsize * phnum, shoff + shentsize * shnum)
    section = "<IIQQQQ" if wide else "<IIIIII"
    for i in range(shnum):
        _, kind, _, _, offset, size = struct.unpack_from(section, raw, shoff + i * shentsize)
        if kind != 8:  # SHT_NOBITS has no file bytes
            end = max(end, offset + size)
    return end, wide


def lists(raw):
    """Linux's lists, read backwards from the end as arch/x86/boot/compressed/misc.c does."""
    end, wide = elf_extent(raw)
    at, counts = len(raw), []
    for _ in range(3 if wide else 1):
        n = 0
        while struct.unpack_from("<I", raw, at - 4)[0] != 0:
            at, n = at - 4, n + 1
        at -= 4
        counts.append(n)
    if at != end:
        sys.exit("bzimage.py: %d bytes between the ELF and the lists" % (at - end))
    return counts + [0] * (3 - len(counts))


def compress(codec, raw):
    if codec == "gzip":
        stream = gzip.compress(raw, compresslevel=1, mtime=0)
    elif codec == "bzip2":
        stream = bz2.compress(raw, compresslevel=1)
    elif codec == "lzma":
        stream = lzma.compress(raw, format=lzma.FORMAT_ALONE, preset=0)
    elif codec == "xz":
        stream = lzma.compress(raw, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC32, preset=0)
    elif codec == "lz4":
        stream = subprocess.run(["lz4", "-l", "-1", "-c"], input=raw, stdout=subprocess.PIPE,
                                check=True).stdout
    elif codec == "zstd":
        stream = subprocess.run(["zstd", "-1", "-c", "-q"], input=raw, stdout=subprocess.PIPE,
                                check=True).stdout
    else:
        sys.exit("bzimage.py: unknown codec " + codec)
    return stream + struct.pack("<I", len(raw))


def put(image, packed):
    image = bytearray(image)
    image += b"\0" * (-len(image) % 16)
    offset = len(image) - protected_mode_start(image)
    struct.pack_into("<II", image, PAYLOAD_OFFSET, offset, len(packed))
    return bytes(image) + packed


def main(argv):
    cmd, args = argv[1], argv[2:]
    if cmd == "payload":
        start, end = payload_range(read(args[0]))
        write(args[1], decompress(read(args[0])[start:end]))
    elif cmd == "packed":
        start, end = payload_range(read(args[0]))
        write(args[1], read(args[0])[start:end])
    elif cmd == "extent":
        print(elf_extent(read(args[0]))[0])
    elif cmd == "insert":
        data, offset = read(args[0]), int(args[2], 0)
        write(args[1], data[:offset] + bytes.fromhex(args[3]) + data[offset:])
    elif cmd == "lists":
        print("32=%d inverse=%d 64=%d" % tuple(lists(read(args[0]))))
    elif cmd == "compress":
        write(args[2], compress(args[0], read(args[1])))
    elif cmd == "put":
        write(args[2], put(read(args[0]), read(args[1])))
    elif cmd == "set":
        image = bytearray(read(args[0]))
        offset, size, value = int(args[2], 0), int(args[3]), int(args[4], 0)
        image[offset:offset + size] = value.to_bytes(size, "little")
        write(args[1], bytes(image))
    elif cmd == "flip":
        image = bytearray(read(args[0]))
        start, _ = payload_range(image)
        image[start + int(args[2], 0)] ^= 0xFF
        write(args[1], bytes(image))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
