#!/usr/bin/env python3
"""Judge a boot's entropy credit by the rules the stub promises, not by a number.

The timing sources' credit depends on how busy the host is (TCG's TSC and PIT are the host's
clock), so a test may not expect a given figure. What the stub does promise, whatever the
host (lib/entropy.c's credit policy, boot/stub_report.c's report_check_credit):
  - the credit lies within the bounds of the sources that answered: RDSEED 16 and RDRAND 8
    bits per 32-bit sample, EFI_RNG_PROTOCOL's (efirng) 16, 8 samples each (QEMU's never run
    dry, and the firmware's are read whole before the stub runs, so all 8 are taken), the
    TSC at most 8, the PIT at most 4, the RTC nothing, the total at most 256;
  - timer jitter (lib/jitter.h) is collected only where neither RDSEED nor RDRAND answered,
    and tops the credit up to the bits of the bases at most: with "jitter" among the
    sources, the credit may reach ceil(log2(slots x vslots)) whatever the others' bounds;
    when it stops short (its bound, a failed health test) its line "jitter: C of the W bits
    wanted ... S bits short" has the boot's C, W = that ceiling and S = W - C;
  - on a randomized boot with some credit, the warning "C bits of entropy credited, fewer
    than the X.YY bits of the possible bases" appears exactly when C < log2(slots x vslots),
    with the line's own C and that log2 (printed cut to two decimals); the reference kernel
    says "low entropy" with the same figures exactly then (kslide's boot info flag);
  - with no credit, or no random draw (nokaslr, no slot, a base chosen by kslide.phys= on
    an image packed with --debug-placement, phys or virt), no such warning.
usage: credit-rule.py LOG      exit 0 and no output when every rule holds; else the reasons
"""
import math
import re
import sys

HWRNG_SAMPLES = 8
PER_SAMPLE = {"rdseed": 16, "rdrand": 8, "efirng": 16}
TIMING_MAX = {"rdtsc": 8, "pit": 4, "rtc": 0}
POOL_MAX = 256
# log2 as the stub computes it (lib/log2.h: fixed point) is within this of the true value.
LOG2_SLACK = 0.01

LINE = re.compile(r"^kslide: base=\S+ phys=\S+ slots=(\d+)(?: vslots=(\d+))?.* "
                  r"entropy=(\S+) credited=(\d+)")
WARNING = re.compile(r"^kslide: warning: (\d+) bits of entropy credited, fewer than the "
                     r"(\d+)\.(\d\d) bits of the possible bases")
KERNEL_TOLD = re.compile(r"^kernel: low entropy: (\d+) bits credited for (\d+) x (\d+) "
                         r"possible bases")
REFERENCE_KERNEL = re.compile(r"^kernel: running at ")
JITTER_SHORT = re.compile(r"^kslide: warning: jitter: (\d+) of the (\d+) bits wanted .*: "
                          r"(\d+) bits short")
NOT_DRAWN = re.compile(r"^kslide: (nokaslr:|warning: no slot fits the kernel|debug placement: )")


def judge(text):
    lines = text.splitlines()
    stub = [m for m in map(LINE.match, lines) if m]
    if not stub:
        return []  # no kslide line: the boot's own judge says so
    slots, vslots, sources, credited = stub[0].groups()
    slots, vslots, credited = int(slots), int(vslots or 1), int(credited)
    answered = [] if sources == "none" else sources.split(",")
    problems = []
    low = sum(PER_SAMPLE.get(s, 0) * HWRNG_SAMPLES for s in answered)
    high = low + sum(TIMING_MAX.get(s, 0) for s in answered)
    possible = math.log2(slots) + math.log2(vslots) if slots and vslots else 0.0
    # The stub's log2 rounds down, so its ceiling is at most this one.
    wanted = math.ceil(possible - LOG2_SLACK)
    if "jitter" in answered:
        high = max(high, math.ceil(possible))
        if "rdrand" in answered or "rdseed" in answered:
            problems.append(f"jitter collected though RDRAND or RDSEED answered ({sources})")
    low, high = min(low, POOL_MAX), min(high, POOL_MAX)
    for m in filter(None, map(JITTER_SHORT.match, lines)):
        got, want, short = map(int, m.groups())
        if got != credited or want not in (wanted, math.ceil(possible)) or short != want - got:
            problems.append(f"the jitter line says {got} of {want} bits, {short} short; the "
                            f"boot credited {credited} of ceil({possible:.3f})")
    if not low <= credited <= high:
        problems.append(f"credited={credited} is outside [{low}, {high}], the bounds of "
                        f"the sources that answered ({sources})")

    warnings = [m for m in map(WARNING.match, lines) if m]
    drawn = not any(NOT_DRAWN.match(line) for line in lines)
    if not drawn or credited == 0:
        if warnings:
            problems.append("a credit warning on a boot that drew no base or credited "
                            "nothing")
        return problems
    if abs(credited - possible) >= LOG2_SLACK:
        should_warn = credited < possible
        if should_warn and not warnings:
            problems.append(f"no warning, though {credited} bits are fewer than the "
                            f"{possible:.3f} bits of {slots} x {vslots} bases")
        if not should_warn and warnings:
            problems.append(f"a warning, though {credited} bits cover the {possible:.3f} "
                            f"bits of {slots} x {vslots} bases")
    told = [m for m in map(KERNEL_TOLD.match, lines) if m]
    for t in told:
        if (int(t.group(1)), int(t.group(2)), int(t.group(3))) != (credited, slots, vslots):
            problems.append(f"the kernel was told {t.group(1)} bits for {t.group(2)} x "
                            f"{t.group(3)} bases; the stub said {credited} for {slots} x "
                            f"{vslots}")
    reference = any(REFERENCE_KERNEL.match(line) for line in lines)
    if reference and bool(told) != bool(warnings):
        problems.append("the stub's warning and the kernel's \"low entropy\" disagree")
    for w in warnings:
        said, whole, hundredths = int(w.group(1)), int(w.group(2)), int(w.group(3))
        if said != credited:
            problems.append(f"the warning says {said} bits, the line credited={credited}")
        if abs(whole + hundredths / 100 - possible) > LOG2_SLACK + 0.01:
            problems.append(f"the warning says {whole}.{hundredths:02d} bits of bases, "
                            f"log2({slots} x {vslots}) is {possible:.3f}")
    return problems


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: credit-rule.py LOG")
    with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
        problems = judge(f.read())
    for p in problems:
        print(f"credit rule: {p}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
