#!/usr/bin/env python3
"""Write the Linux tests' initramfs: a newc cpio archive holding /init, /proc and /dev/console,
and any FILEs given, each at / under its own name (a kernel module init loads, say).

The kernel unpacks it into its rootfs and runs /init with /dev/console as its standard files;
a device node in the archive needs no privilege to create. Format: the "new ASCII" cpio header
Linux reads (Documentation/driver-api/early-userspace/buffer-format.rst): "070701", thirteen
8-digit hex fields, the name with its NUL padded to 4 bytes, the data padded to 4 bytes, and a
"TRAILER!!!" entry. Written to OUT.tmp and renamed, so OUT is whole or absent.

usage: mkcpio.py OUT INIT_BINARY [FILE...]
"""
import os
import stat
import sys

MAGIC = b"070701"
CONSOLE_MAJOR, CONSOLE_MINOR = 5, 1  # Documentation/admin-guide/devices.txt: /dev/console
ALIGN = 4


def pad(n):
    return b"\0" * (-n % ALIGN)


def entry(ino, name, mode, data=b"", rdev=(0, 0)):
    name_bytes = name.encode() + b"\0"
    fields = [ino, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1], len(name_bytes), 0]
    header = MAGIC + b"".join(b"%08x" % f for f in fields)
    out = header + name_bytes + pad(len(header) + len(name_bytes))
    return out + data + pad(len(data))


def extra(ino, path):
    with open(path, "rb") as f:
        return entry(ino, os.path.basename(path), stat.S_IFREG | 0o644, f.read())


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: mkcpio.py OUT INIT_BINARY [FILE...]")
    out, init, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(init, "rb") as f:
        init_bytes = f.read()
    archive = b"".join([
        entry(1, "dev", stat.S_IFDIR | 0o755),
        entry(2, "dev/console", stat.S_IFCHR | 0o600, rdev=(CONSOLE_MAJOR, CONSOLE_MINOR)),
        entry(3, "proc", stat.S_IFDIR | 0o555),
        entry(4, "init", stat.S_IFREG | 0o755, init_bytes),
    ] + [extra(5 + i, path) for i, path in enumerate(files)] + [
        entry(0, "TRAILER!!!", 0),
    ])
    with open(out + ".tmp", "wb") as f:
        f.write(archive)
    os.replace(out + ".tmp", out)


if __name__ == "__main__":
    main()
