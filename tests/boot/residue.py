#!/usr/bin/env python3
"""What the stub leaves behind: boot an image, let the kernel finish, dump all of guest RAM
through QEMU's monitor (QMP pmemsave) and search it, outside the kernel's own image, for:

  - the bases, as the stub stores them (little-endian 64-bit words, struct kslide_bootinfo
    and the stub's locals): the virtual base and the physical one the kslide: line prints;
  - the seed: the kernel keeps its first 16 bytes as its %p key (kernel/secrecy/kptr.c,
    ptr_key, a SipHash key loaded little-endian from the seed), so the test reads them there;
  - on x86-64, a page-table entry outside the image that leads to the physical base: the
    kernel's own tables for the image are in it, the stub's tables for the jump are not;
  - the generator: kslide.random=N makes the stub print N bytes of its stream after every
    draw; any 16 of them in memory, or a ChaCha20 key whose stream holds them (struct rng of
    lib/pool.h: key, counter, block, used), is a way back to the base and the seed.

The kernel is run without isa-debug-exit, so that it halts instead of ending QEMU; the dump is
taken once its last line ("kernel: self-check passed") is out.

usage: residue.py [-a ARCH] [-m MEM] [-c CPU] [-A APPEND] [-t SECS] IMAGE KERNEL_ELF
Exit 0 when nothing was found, 1 when something was (each find is printed), 2 when the run
could not be judged (no boot, no dump).
"""
import argparse
import json
import os
import re
import socket
import struct
import subprocess
import sys
import tempfile
import time

RANDOM_BYTES = 64                 # kslide.random= for the run: one ChaCha20 block
WINDOW = 16                       # bytes of a secret that count as a find
WORD_ALIGN = 4                    # where a stored 64-bit base can start
POOL_DOMAIN_GEN = 0x006E6567      # lib/pool.h: the generator's nonce word
RNG_COUNTER_AT, RNG_USED_AT = 32, 100  # struct rng: key[8], counter, block[64], used
COUNTER_MAX = 1024                # blocks a boot draws: a few; anything near is a candidate
LAST_LINE = "kernel: self-check passed"
PTE_PRESENT, PTE_ADDRESS = 1, 0x000FFFFFFFFFF000
MASK32 = 0xFFFFFFFF


def rotl(v, n):
    return ((v << n) & MASK32) | (v >> (32 - n))


def chacha20_block(key, counter, nonce):
    """RFC 8439 section 2.3, key and nonce as lists of 32-bit words."""
    state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574] + list(key) + [counter] + list(nonce)
    x = list(state)
    for _ in range(10):
        for a, b, c, d in ((0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15),
                           (0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14)):
            x[a] = (x[a] + x[b]) & MASK32
            x[d] = rotl(x[d] ^ x[a], 16)
            x[c] = (x[c] + x[d]) & MASK32
            x[b] = rotl(x[b] ^ x[c], 12)
            x[a] = (x[a] + x[b]) & MASK32
            x[d] = rotl(x[d] ^ x[a], 8)
            x[c] = (x[c] + x[d]) & MASK32
            x[b] = rotl(x[b] ^ x[c], 7)
    return struct.pack("<16I", *[(x[i] + state[i]) & MASK32 for i in range(16)])


def qmp_connect(path, deadline):
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            return s
        except OSError:
            s.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def qmp_command(f, execute, **arguments):
    f.write(json.dumps({"execute": execute, "arguments": arguments}) + "\n")
    f.flush()
    for line in f:
        msg = json.loads(line)
        if "return" in msg:
            return msg["return"]
        if "error" in msg:
            raise RuntimeError(f"QMP {execute}: {msg['error'].get('desc', msg)}")
    raise RuntimeError(f"QMP {execute}: QEMU closed the connection")


def mem_bytes(mem):
    m = re.fullmatch(r"(\d+)([MG])", mem)
    if not m:
        sys.exit(f"residue: -m {mem}: want a size in M or G")
    return int(m.group(1)) << (20 if m.group(2) == "M" else 30)


def boot_and_dump(args, work):
    """Run the image until the kernel's last line, dump RAM; the serial log's text."""
    log, sock, dump = (os.path.join(work, n) for n in ("serial.log", "qmp.sock", "ram.bin"))
    append = f"{args.append} kslide.random={RANDOM_BYTES}".strip()
    qemu = subprocess.Popen(
        [f"qemu-system-{args.arch}", "-nodefaults", "-accel", "tcg", "-M", "pc",
         "-cpu", args.cpu, "-m", args.mem, "-kernel", args.image, "-append", append,
         "-display", "none", "-monitor", "none", "-no-reboot", "-serial", f"file:{log}",
         "-qmp", f"unix:{sock},server=on,wait=off"],
        stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + args.timeout
    try:
        qmp = qmp_connect(sock, deadline)
        f = qmp.makefile("rw")
        f.readline()  # the greeting
        qmp_command(f, "qmp_capabilities")
        while LAST_LINE not in open(log, errors="replace").read():
            if qemu.poll() is not None or time.monotonic() > deadline:
                text = open(log, errors="replace").read()
                sys.stderr.write(text)
                sys.exit(f"residue: no '{LAST_LINE}' line within {args.timeout} s")
            time.sleep(0.1)
        time.sleep(0.5)  # the kernel halts right after its last line
        qmp_command(f, "stop")
        qmp_command(f, "pmemsave", val=0, size=mem_bytes(args.mem), filename=dump)
        qmp_command(f, "quit")
    finally:
        try:
            qemu.wait(timeout=10)
        except subprocess.TimeoutExpired:
            qemu.kill()
            qemu.wait()
    with open(dump, "rb") as d:
        ram = d.read()
    if len(ram) != mem_bytes(args.mem):
        sys.exit(f"residue: the dump has {len(ram)} bytes, not {args.mem}")
    return open(log, errors="replace").read(), ram


def symbols(elf):
    out = subprocess.run(["nm", elf], check=True, capture_output=True, text=True).stdout
    table = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            table[parts[2]] = int(parts[0], 16)
    return table


def finds(ram, needle, skip, align):
    """Offsets of needle in ram, multiples of align, outside [skip[0], skip[1])."""
    at, found = ram.find(needle), []
    while at >= 0:
        if at % align == 0 and not skip[0] <= at < skip[1]:
            found.append(at)
        at = ram.find(needle, at + 1)
    return found


def table_entries(ram, phys, skip):
    """Offsets of x86-64 page-table entries, present, that lead to phys (bits 12..51), but
    for those at phys's own index in a table of 2 MiB pages: an identity map (the stub's, of
    2 MiB pages, boot/x86_64/mapping.c) has one for every address and says nothing. (An entry
    of the virtual mapping whose index happens to be the same, one chance in 512, goes
    unseen.)"""
    identity = ((phys >> 21) & 511) * 8
    found = []
    for at in finds(ram, struct.pack("<Q", phys)[2:6], skip, 1):
        at -= 2  # the match is the entry's bytes 2..5, address bits 16..47
        if at % 8 or skip[0] <= at < skip[1]:
            continue
        entry, = struct.unpack_from("<Q", ram, at)
        if entry & PTE_PRESENT and entry & PTE_ADDRESS == phys and at % 4096 != identity:
            found.append(at)
    return found


def generator_keys(ram, random, skip):
    """Offsets of a struct rng whose key's stream holds the printed bytes."""
    probe, found = random[:WINDOW], []
    for at in range(0, len(ram) - RNG_USED_AT - 4, 4):
        if skip[0] <= at < skip[1]:
            continue
        counter, = struct.unpack_from("<I", ram, at + RNG_COUNTER_AT)
        if not 1 <= counter <= COUNTER_MAX:
            continue
        used, = struct.unpack_from("<I", ram, at + RNG_USED_AT)
        if used > 64:
            continue
        key = struct.unpack_from("<8I", ram, at)
        if len(set(key)) < 6:  # a key is 32 random bytes, not a table of small words
            continue
        stream = b"".join(chacha20_block(key, c, (POOL_DOMAIN_GEN, 0, 0))
                          for c in range(counter))
        if probe in stream:
            found.append(at)
    return found


def control_dump(args, bases, tries=4):
    """RAM after a boot of the same image whose bases are none of these (a few tries: the
    draw may repeat one); None if no such boot came."""
    for _ in range(tries):
        with tempfile.TemporaryDirectory(prefix="kslide-residue.") as work:
            log, ram = boot_and_dump(args, work)
        line = re.search(r"kslide: base=(0x[0-9a-f]+) phys=(0x[0-9a-f]+)", log)
        if line and not {struct.pack("<Q", int(v, 16)) for v in line.groups()} & bases:
            return ram
    return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("-a", dest="arch", default="i386")
    p.add_argument("-m", dest="mem", default="128M")
    p.add_argument("-c", dest="cpu", default="max")
    p.add_argument("-A", dest="append", default="")
    p.add_argument("-t", dest="timeout", type=int, default=60)
    p.add_argument("image")
    p.add_argument("elf")
    args = p.parse_args()

    with tempfile.TemporaryDirectory(prefix="kslide-residue.") as work:
        log, ram = boot_and_dump(args, work)
    line = re.search(r"kslide: base=(0x[0-9a-f]+) phys=(0x[0-9a-f]+)", log)
    random = re.search(r"kslide: random=([0-9a-f]+)", log)
    if not line or not random or len(random.group(1)) != 2 * RANDOM_BYTES:
        sys.exit("residue: no kslide: base= line or no random= line in the log")
    virt, phys = int(line.group(1), 16), int(line.group(2), 16)
    random = bytes.fromhex(random.group(1))
    sym = symbols(args.elf)
    image = (phys, phys + sym["_kernel_end"] - sym["_kernel_start"])
    key_at = phys + sym["ptr_key"] - sym["_kernel_start"]
    seed_head = ram[key_at:key_at + WINDOW]
    if len(set(seed_head)) < 4:
        sys.exit(f"residue: the kernel's ptr_key at 0x{key_at:x} looks empty: {seed_head.hex()}")

    # A base is a multiple of 2 MiB, mostly zero bytes: only where the stub would store it
    # (4-aligned, uint64_t's alignment on i386) does it count. Byte strings count anywhere.
    # A base drawn equal to the link address (slide 0) is in the image's headers by right.
    running = re.search(r"kernel: running at .* slide=(0x[0-9a-f]+)( vslide=(0x[0-9a-f]+))?", log)
    if not running:
        sys.exit("residue: no 'kernel: running at' line in the log")
    slide = int(running.group(1), 16)
    vslide = int(running.group(3), 16) if running.group(3) else slide
    secrets = [("the seed's first 16 bytes", seed_head, 1)]
    for what, base, moved in (("virtual", virt, vslide), ("physical", phys, slide)):
        if moved:
            secrets.append((f"the {what} base", struct.pack("<Q", base), WORD_ALIGN))
        else:
            print(f"residue: the {what} base is the link address: not searched")
    secrets += [(f"printed random bytes {i}..{i + WINDOW - 1}", random[i:i + WINDOW], 1)
                for i in range(0, RANDOM_BYTES, WINDOW)]
    bad = 0
    bases = {struct.pack("<Q", virt), struct.pack("<Q", phys)}
    control = None
    for what, needle, align in secrets:
        for at in finds(ram, needle, image, align):
            # A base is a round number the machine may hold for reasons of its own (the PIE's
            # 0x2000000 lies in SeaBIOS's data at every boot): a find counts unless a boot at
            # other bases has the same word at the same place.
            if needle in bases:
                control = control or control_dump(args, bases)
                if control is not None and control[at:at + len(needle)] == needle:
                    print(f"residue: {what} ({needle.hex()}) at physical 0x{at:x} is there too "
                          f"at a boot with other bases: the machine's own value, not counted")
                    continue
            print(f"residue: {what} ({needle.hex()}) at physical 0x{at:x}")
            bad += 1
    # x86-64: the kernel's own tables that lead to its image are in it (paging.c's pool); an
    # entry outside leading to the physical base is the stub's (its tables for the jump).
    if args.arch == "x86_64" and slide:
        for at in table_entries(ram, phys, image):
            print(f"residue: a page-table entry leading to the physical base at physical 0x{at:x}")
            bad += 1
    for at in generator_keys(ram, random, image):
        print(f"residue: the generator (a ChaCha20 key whose stream holds the printed bytes) "
              f"at physical 0x{at:x}")
        bad += 1
    print(f"residue: {len(ram) >> 20} MiB searched outside the image [0x{image[0]:x}, "
          f"0x{image[1]:x}): {bad} found")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
