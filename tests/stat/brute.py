#!/usr/bin/env python3
"""An independent oracle for kslide-stat: recompute its figures by brute force from the same
collected lines and the image, and compare with its --json output.

usage: brute.py STAT.json BASES.txt IMAGE
Prints one "ok"/"not ok" line per figure and exits 1 if any differs.
       brute.py --slots IMAGE USABLE [AVOIDED]
Prints how many slots IMAGE's header allows in USABLE minus AVOIDED ("START-END,..." in hex,
END exclusive), counted one aligned base at a time: what a stub line on that map must say,
whatever kernel the image holds.
"""
import json
import math
import re
import struct
import sys

MIN_PER_BIN = 10  # as tools/stat/stats.h: about 10 expected samples per chi-square bin


def header(path):
    data = open(path, "rb").read()
    off = data.find(b"KSLIDEIM")
    if off < 0:
        sys.exit(f"brute: {path}: no image header")
    # memory_size: what the stub sizes slots by (include/kslide/image.h)
    (memory_size,) = struct.unpack_from("<Q", data, off + 144)
    align, phys_min, phys_max = struct.unpack_from("<QQQ", data, off + 96)
    return memory_size, align, phys_min, phys_max


def read_lines(path):
    bases, usable = [], None
    for line in open(path, errors="replace"):
        if line.startswith("kslide: base="):
            words = dict(w.split("=", 1) for w in line.split()[1:] if "=" in w)
            bases.append((int(words["phys"], 16), int(words["slots"])))
        elif line.startswith("kernel: usable="):
            spans = line.strip().split("=", 1)[1].split(",")
            usable = [tuple(int(x, 16) for x in s.split("-")) for s in spans]
    return bases, usable


def slots_by_enumeration(size, align, lo, hi, usable, avoided=()):
    """Every multiple of align from lo on, tried one by one: inside a usable span, touching
    no avoided one, under hi."""
    found = []
    base = (lo + align - 1) // align * align
    top = max(e for _, e in usable)
    while base + size <= top and base + size - 1 <= hi:
        if any(s <= base and base + size <= e for s, e in usable) and \
                not any(s < base + size and base < e for s, e in avoided):
            found.append(base)
        base += align
    return found


def spans(text):
    return [tuple(int(x, 16) for x in s.split("-")) for s in text.split(",") if s]


def count_slots(image, usable, avoided):
    size, align, lo, hi = header(image)
    return len(slots_by_enumeration(size, align, lo, hi, spans(usable), spans(avoided)))


def chi2_upper_tail(x, dof):
    """Q(dof/2, x/2), the regularized upper incomplete gamma function (Numerical Recipes
    6.2: series below a + 1, continued fraction above)."""
    a, x = dof / 2.0, x / 2.0
    if x <= 0:
        return 1.0
    lg = math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return 1.0 - total * math.exp(-x + a * math.log(x) - lg)
    b = x + 1 - a
    c, d = 1e300, 1 / b
    h = d
    for i in range(1, 100000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - lg) * h


def seed_patch():
    """Seed patch by intervals: 1 MiB + r rounded up to 2 MiB, raised to 16 MiB, r < 2^26."""
    mib = 1 << 20
    counts = {}
    for k in range(0, 40):
        # r with (k-1) * 2 MiB < 1 MiB + r <= k * 2 MiB
        lo, hi = max(0, (k - 1) * 2 * mib - mib + 1), min((1 << 26) - 1, k * 2 * mib - mib)
        if hi >= lo:
            v = max(k * 2 * mib, 16 * mib)
            counts[v] = counts.get(v, 0) + hi - lo + 1
    total = sum(counts.values())
    ps = [c / total for c in counts.values()]
    return len(ps), -sum(p * math.log2(p) for p in ps), -math.log2(max(ps))


def main():
    stat = json.load(open(sys.argv[1]))
    bases, usable = read_lines(sys.argv[2])
    size, align, lo, hi = header(sys.argv[3])
    slots = slots_by_enumeration(size, align, lo, hi, usable)
    index = {b: i for i, b in enumerate(slots)}
    samples = [index[b] for b, _ in bases]
    n, s = len(samples), len(slots)
    counts = {}
    for v in samples:
        counts[v] = counts.get(v, 0) + 1
    pairs = sum(c * (c - 1) // 2 for c in counts.values())
    k = min(max(int(n / MIN_PER_BIN), 2), s)
    observed = [0] * k
    for v in samples:
        observed[v * k // s] += 1
    chi2 = 0.0
    for j in range(k):
        size_j = -(-(j + 1) * s // k) - -(-j * s // k)
        e = n * size_j / s
        chi2 += (observed[j] - e) ** 2 / e
    positions, shannon, hmin = seed_patch()
    phys = stat["physical"]
    want = [
        ("samples", phys["samples"], n),
        ("slots (stub) = enumerated slots", phys["slots"], s),
        ("slots recount", phys["slots_recount"], s),
        ("every boot's slots= equals the enumeration", all(sl == s for _, sl in bases), True),
        ("distinct", phys["distinct"], len(counts)),
        ("collision pairs", phys["collision_pairs"], pairs),
        ("most frequent count", phys["max_count"], max(counts.values())),
        ("min-entropy", phys["min_entropy"], -math.log2(max(counts.values()) / n)),
        ("chi-square bins", phys["bins"], k),
        ("chi-square", phys["chi2"], chi2),
        ("p-value", phys["p"], chi2_upper_tail(chi2, k - 1)),
        ("seed patch positions", stat["comparison"]["seed_patch"]["positions"], positions),
        ("seed patch Shannon", stat["comparison"]["seed_patch"]["shannon"], shannon),
        ("seed patch min-entropy", stat["comparison"]["seed_patch"]["min_entropy"], hmin),
    ]
    if pairs:
        want.append(("collision entropy", phys["collision_entropy"],
                     -math.log2(pairs / (n * (n - 1) / 2))))
    bad = 0
    for name, got, expected in want:
        same = got == expected if isinstance(expected, int) else \
            math.isclose(got, expected, rel_tol=1e-4, abs_tol=1e-5)
        bad += not same
        print(f"{'ok' if same else 'not ok'} - {name}: kslide-stat {got}, brute force {expected}")
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) in (4, 5) and sys.argv[1] == "--slots":
        print(count_slots(sys.argv[2], sys.argv[3], sys.argv[4] if len(sys.argv) == 5 else ""))
        sys.exit(0)
    sys.exit(main())
