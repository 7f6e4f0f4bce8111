#!/usr/bin/env python3
"""Judge measured boot from the serial logs of Linux boots with a TPM (tests/linux/init.c prints
the event log Linux serves and the TPM's SHA-256 PCRs).

For each log: the event log, replayed (each SHA-256 digest extended into its PCR from zero,
EV_NO_ACTION events skipped, as the TCG PC Client profile says), must give the PCRs the TPM
reports for every PCR it names and for 0 to 9; and PCR 9 must hold kslide's three events with
digests computed here from the files the boot was given: the kernel as the image carries it
(EV_IPL "kslide kernel": from the payload to the image's end), the load options (Linux's tagged
event 0x8f3b22ed: the command line Linux reports, which the stub passes on whole, as UTF-16LE
with its NUL) and the initrd (tag 0x8f3b22ec). With two or more logs (boots at different bases), every PCR must be the same in
all. Prints one line per check; exits 1 if any fails.

usage: tpm-replay.py IMAGE INITRD LOG...
"""
import hashlib
import importlib.util
import os
import re
import struct
import sys

EV_NO_ACTION, EV_EVENT_TAG, EV_IPL = 0x3, 0x6, 0xD
SHA256 = 0x000B
KSLIDE_PCR = 9
TAG_INITRD, TAG_OPTIONS = 0x8F3B22EC, 0x8F3B22ED
KERNEL_EVENT = b"kslide kernel\0"
REPLAYED = range(10)  # the firmware's and boot loaders' PCRs; 10 is IMA's


def patch_image():
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "boot",
                        "patch-image.py")
    spec = importlib.util.spec_from_file_location("patch_image", here)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def kernel_digest(path):
    """SHA-256 of the kernel as the image carries it: payload, table, handoff data."""
    p = patch_image()
    _, img = p.container_split(bytearray(open(path, "rb").read()))
    hdr = img.find(p.MAGIC)
    if hdr < 0:
        sys.exit("tpm-replay: %s: no kslide header" % path)
    start, end = p.get(img, hdr, "payload_offset"), p.get(img, hdr, "image_file_size")
    return hashlib.sha256(bytes(img[start:end])).digest()


def read_boot(path):
    """The event log's bytes, the PCRs {index: bytes} and the command line a boot shows."""
    log, pcrs, size, cmdline = bytearray(), {}, None, None
    for line in open(path, "rb").read().decode("latin-1").splitlines():
        m = re.match(r"kslide-linux: tpm-log=([0-9a-f]+)$", line)
        if m:
            log += bytes.fromhex(m.group(1))
        m = re.match(r"kslide-linux: tpm-log-end=0x([0-9a-f]+)$", line)
        if m:
            size = int(m.group(1), 16)
        m = re.match(r"kslide-linux: cmdline=(.*)$", line)
        if m:
            cmdline = m.group(1)
        m = re.match(r"kslide-linux: pcr-sha256-(\d+)=([0-9A-Fa-f]{64})$", line)
        if m:
            pcrs[int(m.group(1))] = bytes.fromhex(m.group(2))
    if size is None or size != len(log):
        sys.exit("tpm-replay: %s: no whole event log (init printed none, or lines were lost)"
                 % path)
    if cmdline is None:
        sys.exit("tpm-replay: %s: no kslide-linux: cmdline= line" % path)
    return bytes(log), pcrs, cmdline


def parse(log):
    """The crypto-agile log's events after the Spec ID event: (pcr, type, {alg: digest}, data)."""
    data_size = struct.unpack_from("<I", log, 28)[0]
    spec = log[32:32 + data_size]
    if not spec.startswith(b"Spec ID Event03\0"):
        sys.exit("tpm-replay: the log is not crypto-agile (no Spec ID Event03)")
    count = struct.unpack_from("<I", spec, 24)[0]
    sizes = dict(struct.unpack_from("<HH", spec, 28 + 4 * i) for i in range(count))
    at, events = 32 + data_size, []
    while at < len(log):
        pcr, kind, n = struct.unpack_from("<III", log, at)
        at += 12
        digests = {}
        for _ in range(n):
            alg = struct.unpack_from("<H", log, at)[0]
            digests[alg] = log[at + 2:at + 2 + sizes[alg]]
            at += 2 + sizes[alg]
        size = struct.unpack_from("<I", log, at)[0]
        events.append((pcr, kind, digests, log[at + 4:at + 4 + size]))
        at += 4 + size
    return events


def replay(events):
    pcrs = {}
    for pcr, kind, digests, _ in events:
        if kind == EV_NO_ACTION:
            continue
        old = pcrs.get(pcr, bytes(32))
        pcrs[pcr] = hashlib.sha256(old + digests[SHA256]).digest()
    return pcrs


def tagged(tag, name):
    return struct.pack("<II", tag, len(name) + 1) + name + b"\0"


def main(argv):
    if len(argv) < 4 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) > 1 else 2
    image, initrd, logs = argv[1], argv[2], argv[3:]
    kernel = kernel_digest(image)
    initrd = hashlib.sha256(open(initrd, "rb").read()).digest()
    failed, seen = 0, []

    def check(ok, what):
        nonlocal failed
        print(("ok - " if ok else "not ok - ") + what)
        failed += not ok

    for path in logs:
        log, tpm, cmdline = read_boot(path)
        wanted = {
            "kernel": (EV_IPL, KERNEL_EVENT, kernel),
            "load options": (EV_EVENT_TAG, tagged(TAG_OPTIONS, b"LOADED_IMAGE::LoadOptions"),
                             hashlib.sha256((cmdline + "\0").encode("utf-16-le")).digest()),
            "initrd": (EV_EVENT_TAG, tagged(TAG_INITRD, b"Linux initrd"), initrd),
        }
        events = parse(log)
        replayed = replay(events)
        names = sorted(set(replayed) | set(REPLAYED))
        bad = [n for n in names if replayed.get(n, bytes(32)) != tpm.get(n)]
        check(not bad, "%s: the event log (%d events) replays to the TPM's PCRs %s%s" % (
            path, len(events), ",".join(map(str, names)),
            "" if not bad else "; differ: " + ",".join(map(str, bad))))
        mine = [(kind, data, digests.get(SHA256)) for pcr, kind, digests, data in events
                if pcr == KSLIDE_PCR]
        for what, (kind, data, digest) in wanted.items():
            check((kind, data, digest) in mine,
                  "%s: PCR %d has kslide's %s event with the digest of what was given" % (
                      path, KSLIDE_PCR, what))
        seen.append((path, tpm))
    for path, tpm in seen[1:]:
        differ = [n for n in sorted(set(tpm) | set(seen[0][1])) if tpm.get(n) != seen[0][1].get(n)]
        check(not differ, "%s and %s: the same PCRs%s" % (
            seen[0][0], path, "" if not differ else "; differ: " + ",".join(map(str, differ))))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
