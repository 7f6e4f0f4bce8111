#!/usr/bin/env python3
"""Corruption campaign: boot damaged copies of a packed image under QEMU and classify each boot.

Regions of the image file (include/kslide/image.h, the stub's linker script): the Multiboot
headers before the kslide header, the kslide header (CRC-32), the stub's self-checked part
(its sums in the header; the verifier, the stub's first instructions, lies inside it and is
counted apart: it may skip its own check), the payload as stored (its sums in the header) and
the relocation table as stored (CRC-32), plus truncations. Each sampled byte is XORed with a random non-zero
mask. Each boot is one of:
  refused   a "kslide: error:" line (or QEMU's loader refusing the file), no kernel started
  passed    the kernel's self-check passed, the stub's entropy sources are the intact
            image's and its credit keeps the stub's rules (tests/boot/credit-rule.py; the
            figure itself follows the host's load): the byte is irrelevant to this boot
  ENTROPY   the kernel ran, but with other entropy sources or a credit outside the rules
  FAILED    the kernel ran and reported failure (wrong boot information)
  HUNG      no verdict and no message within the time limit
  REBOOTED  the machine reset (triple fault; QEMU runs with -no-reboot)
The capitalized classes are escapes unless the byte lies in a region marked "(floor)", the
bytes nothing of kslide can check (docs/reliability.md): the verifier, and the Multiboot
headers, whose address fields the loader acts on before the stub runs. Prints one line per
escape and a table per region; exits 1 when an escape lies outside the floor.

usage: chaos.py [-a i386|x86_64] [-n PER_REGION] [-T TRUNCATIONS] [-s SEED] [-j JOBS]
                [-t SECONDS] [-F] [-r REGION] IMAGE STUB_ELF
  -n 0  every byte of every region
  -F    skip the floor regions (a short sample: their hangs cost the whole time limit)
  -r    only the regions whose name starts with REGION (e.g. "stub": the stub's checked bytes)
"""
import argparse
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from importlib.machinery import SourceFileLoader

CREDIT_RULE = SourceFileLoader("credit_rule", os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "boot", "credit-rule.py")).load_module()

MAGIC = b"KSLIDEIM"
# struct kslide_image_header (include/kslide/image.h): header_size, and where the payload and the
# relocation table lie as stored.
HEADER_SIZE, PAYLOAD_OFFSET, RELOCS_OFFSET = 12, 32, 56
PAYLOAD_STORED_SIZE, RELOCS_STORED_SIZE = 192, 200
LOAD_ADDRESS = 0x100000  # where the stub is linked and the loader puts the image
ESCAPES = ("ENTROPY", "FAILED", "HUNG", "REBOOTED")
CLASSES = ("refused", "passed") + ESCAPES
# QEMU's exit status with isa-debug-exit: (value << 1) | 1; the kernel writes 0 on a pass.
QEMU_KERNEL_PASSED, QEMU_KERNEL_FAILED, QEMU_RESET = 1, 3, 0
ENTROPY_LINE = re.compile(rb"kslide: base=\S+ .*?(entropy=\S+) credited=\d+")
# Every refusal opens with "kslide: error: " and ends with "; not starting the kernel"; a
# damaged byte in the message's own text (the stub's rodata) can spoil one of the two, never
# both: a halt after either is a refusal with a message.
REFUSAL = re.compile(rb"kslide: error: [^\n]*|[^\n]*; not starting the kernel")


def verifier_range(stub_elf):
    """File offsets of the self-check (boot/x86/self_check.h): from stub_entry to the target of
    its first "je", the jump past it taken when both sums match."""
    dis = subprocess.run(["objdump", "-d", stub_elf], check=True, capture_output=True,
                         text=True).stdout
    start = None
    for line in dis.splitlines():
        if start is None:
            s = re.match(r"([0-9a-f]+) <stub_entry>:", line)
            if s:
                start = int(s.group(1), 16)
            continue
        m = re.search(r"\tje\s+([0-9a-f]+) <", line)
        if m:
            return start - LOAD_ADDRESS, int(m.group(1), 16) - LOAD_ADDRESS
    sys.exit("chaos: no stub_entry with a je in " + stub_elf)


def regions(img, verifier):
    hdr = img.find(MAGIC)
    q = lambda off: struct.unpack_from("<Q", img, hdr + off)[0]
    size = struct.unpack_from("<I", img, hdr + HEADER_SIZE)[0]
    payload, relocs = q(PAYLOAD_OFFSET), q(RELOCS_OFFSET)
    v0, v1 = verifier
    return [("multiboot headers (floor)", range(0, hdr)),
            ("kslide header", range(hdr, hdr + size)),
            ("verifier (floor)", range(v0, v1)),
            ("stub, rest", [i for i in range(hdr + size, payload) if not v0 <= i < v1]),
            ("payload", range(payload, payload + q(PAYLOAD_STORED_SIZE))),
            ("relocation table", range(relocs, relocs + q(RELOCS_STORED_SIZE)))]


def boot(args, image, tmp):
    log = os.path.join(tmp, os.path.basename(image) + ".log")
    qemu = ["qemu-system-" + args.arch, "-nodefaults", "-accel", "tcg", "-M", "pc",
            "-cpu", "max", "-m", "128M", "-kernel", image, "-display", "none", "-monitor",
            "none", "-no-reboot", "-serial", "file:" + log,
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
    p = subprocess.Popen(qemu, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    deadline, refused_at = time.time() + args.timeout, None
    while p.poll() is None and time.time() < deadline:
        time.sleep(0.2)
        text = open(log, "rb").read() if os.path.exists(log) else b""
        m = REFUSAL.search(text)
        if m and text[m.end():m.end() + 1] == b"\n":
            refused_at = refused_at or time.time()
            if time.time() - refused_at > 1.0:  # the halt loop: nothing more will come
                break
    if p.poll() is None:
        p.kill()
    err = p.communicate()[1]
    text = open(log, "rb").read() if os.path.exists(log) else b""
    os.unlink(log)
    refusal = REFUSAL.search(text)
    entropy = ENTROPY_LINE.search(text)
    if p.returncode == QEMU_KERNEL_PASSED and err.startswith(b"qemu-system"):
        return "refused", "QEMU: " + err.decode(errors="replace").strip().splitlines()[0]
    if refusal and not entropy:
        return "refused", refusal.group(0).decode(errors="replace")
    if p.returncode == QEMU_KERNEL_PASSED and b"kernel: self-check passed" in text:
        got = entropy.group(1) if entropy else b"(no entropy line)"
        broken = CREDIT_RULE.judge(text.decode(errors="replace"))
        if got == args.baseline and not broken:
            return "passed", got.decode()
        return "ENTROPY", "; ".join([got.decode(errors="replace")] + broken)
    if p.returncode == QEMU_KERNEL_FAILED:
        return "FAILED", (entropy.group(0) if entropy else text[-200:]).decode(errors="replace")
    if p.returncode == QEMU_RESET:
        return "REBOOTED", text[-120:].decode(errors="replace").strip()
    return "HUNG", text[-120:].decode(errors="replace").strip()


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("-a", dest="arch", default="i386")
    ap.add_argument("-n", dest="per_region", type=int, default=20)
    ap.add_argument("-T", dest="truncations", type=int, default=5)
    ap.add_argument("-s", dest="seed", type=int, default=1)
    ap.add_argument("-j", dest="jobs", type=int, default=2)
    ap.add_argument("-t", dest="timeout", type=float, default=20)
    ap.add_argument("-F", dest="skip_floor", action="store_true")
    ap.add_argument("-r", dest="only_region", default="")
    ap.add_argument("image")
    ap.add_argument("stub_elf")
    args = ap.parse_args()
    img = open(args.image, "rb").read()
    rng = random.Random(args.seed)
    tmp = tempfile.mkdtemp(prefix="kslide-chaos.")
    verifier = verifier_range(args.stub_elf)

    args.baseline = None
    verdict, detail = boot(args, args.image, tmp)
    if verdict != "passed" and verdict != "ENTROPY":
        sys.exit("chaos: the intact image does not boot: %s %s" % (verdict, detail))
    args.baseline = detail.encode()
    print("chaos: %s, intact boot: %s; verifier at file [0x%x, 0x%x)" %
          (args.image, detail, verifier[0], verifier[1]))

    cases = []  # (region, description, image bytes)
    for name, span in regions(img, verifier):
        if args.skip_floor and name.endswith("(floor)") or not name.startswith(args.only_region):
            continue
        span = list(span)
        picks = span if args.per_region == 0 or len(span) <= args.per_region else \
            sorted(rng.sample(span, args.per_region))
        for at in picks:
            mask = rng.randrange(1, 256)
            damaged = bytearray(img)
            damaged[at] ^= mask
            cases.append((name, "0x%x ^ 0x%02x" % (at, mask), bytes(damaged)))
    for _ in range(args.truncations):
        keep = rng.randrange(0, len(img))
        cases.append(("truncated file", "first %d of %d bytes" % (keep, len(img)), img[:keep]))

    def run(i):
        name, what, data = cases[i]
        path = os.path.join(tmp, "case%d.img" % i)
        with open(path, "wb") as f:
            f.write(data)
        result = boot(args, path, tmp)
        os.unlink(path)
        return name, what, result

    table, escapes = {}, 0
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for name, what, (verdict, detail) in pool.map(run, range(len(cases))):
            row = table.setdefault(name, dict.fromkeys(CLASSES, 0))
            row[verdict] += 1
            if verdict in ESCAPES:
                floor = name.endswith("(floor)")
                escapes += not floor
                print("%s%s: %s %s: %s" % ("" if floor else "ESCAPE ", verdict, name, what,
                                           detail))
    print("| region | boots | " + " | ".join(CLASSES) + " |")
    print("| --- | --- |" + " --- |" * len(CLASSES))
    for name, row in table.items():
        print("| %s | %d | %s |" % (name, sum(row.values()),
                                    " | ".join(str(row[c]) for c in CLASSES)))
    os.rmdir(tmp)
    print("chaos: %d boots, %d escapes outside the floor" % (len(cases), escapes))
    return 1 if escapes else 0


if __name__ == "__main__":
    sys.exit(main())
