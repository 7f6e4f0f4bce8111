#!/usr/bin/env python3
"""Stop a QEMU guest at an address and save what is in memory there, through QEMU's gdbstub
(the GDB remote protocol: no gdb needed).

usage: gdbstub.py PORT ADDRESS OUTDIR [NAME=START:LENGTH]...
Connects to QEMU started with -gdb tcp::PORT -S, sets a hardware breakpoint at ADDRESS,
continues, and when the guest stops writes OUTDIR/regs (one "name value" line per i386
register) and OUTDIR/NAME.bin for each range, in the order given. START and LENGTH are each
a number, @REG (a register's value at the stop: @esi) or NAME+OFFSET (the 32-bit
little-endian word at OFFSET in a range read before: zeropage+0x218). Then kills the guest. Exit 1, with a message, if the guest
does not stop at ADDRESS within the timeout (a failed boot) or the stub refuses a request.
"""
import socket
import struct
import sys
import time

REGS = ["eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi", "eip", "eflags",
        "cs", "ss", "ds", "es", "fs", "gs"]
TIMEOUT = 120


class Remote:
    def __init__(self, port):
        deadline = time.time() + 10
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
                self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
        self.buf = b""

    def request(self, cmd):
        data = cmd.encode()
        self.sock.sendall(b"$%s#%02x" % (data, sum(data) & 0xff))
        return self.reply()

    def reply(self):
        while True:
            i = self.buf.find(b"$")
            j = self.buf.find(b"#", i + 1) if i >= 0 else -1
            if i >= 0 and j >= 0 and len(self.buf) >= j + 3:
                packet = self.buf[i + 1:j].decode()
                self.buf = self.buf[j + 3:]
                self.sock.sendall(b"+")
                return packet
            data = self.sock.recv(1 << 16)
            if not data:
                raise EOFError("QEMU closed the connection")
            self.buf += data


def fail(why):
    print("gdbstub: " + why, file=sys.stderr)
    sys.exit(1)


def main():
    port, address, outdir = int(sys.argv[1]), int(sys.argv[2], 0), sys.argv[3]
    remote = Remote(port)
    features = remote.request("qSupported")
    size = 4096
    for item in features.split(";"):
        if item.startswith("PacketSize="):
            size = int(item.split("=")[1], 16)
    chunk = max(64, (size - 16) // 2)
    if remote.request("Z1,%x,1" % address) != "OK":
        fail("QEMU refused a breakpoint at 0x%x" % address)
    try:
        stop = remote.request("c")
    except (socket.timeout, EOFError) as e:
        fail("the guest never reached 0x%x (%s)" % (address, e))
    if not stop.startswith(("T05", "S05")):
        fail("the guest stopped with %s, not at the breakpoint" % stop)
    values = struct.unpack("<16I", bytes.fromhex(remote.request("g")[:128]))
    regs = dict(zip(REGS, values))
    if regs["eip"] != address:
        fail("stopped at eip 0x%x, not 0x%x" % (regs["eip"], address))
    with open("%s/regs" % outdir, "w") as f:
        for name in REGS:
            f.write("%s 0x%x\n" % (name, regs[name]))
    ranges = {}

    def value(text):
        if text.startswith("@"):
            return regs[text[1:]]
        if "+" in text:
            name, offset = text.split("+")
            return struct.unpack_from("<I", ranges[name], int(offset, 0))[0]
        return int(text, 0)

    for spec in sys.argv[4:]:
        name, where = spec.split("=")
        start, length = (value(v) for v in where.split(":"))
        out = bytearray()
        while len(out) < length:
            n = min(chunk, length - len(out))
            got = remote.request("m%x,%x" % (start + len(out), n))
            if got.startswith("E") or len(got) != 2 * n:
                fail("cannot read 0x%x bytes at 0x%x: %s" % (n, start + len(out), got[:8]))
            out += bytes.fromhex(got)
        ranges[name] = out
        with open("%s/%s.bin" % (outdir, name), "wb") as f:
            f.write(out)
    try:
        remote.request("k")
    except (EOFError, OSError):
        pass


if __name__ == "__main__":
    main()
