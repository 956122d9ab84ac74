#!/usr/bin/env python3
"""life_every.py LOCKSTEP REF_LIFE_SERIES BACKEND... - `life --every K`
records the population at every K-th generation, whatever the chunks the
driver cuts the run into (they follow each device's measured rate): the
series equals the byte-per-cell reference's, generation by generation, on
every backend, and `check life --every K` agrees between devices."""
import json
import subprocess
import sys

from harness import expect, finish

LOCKSTEP, REF = sys.argv[1], sys.argv[2]
devices = json.loads(subprocess.run([LOCKSTEP, "devices", "--json"], capture_output=True, text=True).stdout)
available = {b["backend"] for b in devices["backends"] if b["available"]}
BACKENDS = [b for b in sys.argv[3:] if b in available]

# (dims, extents, density, seed, rule, birth mask, survive mask, steps, every)
CASES = [
    (2, (64, 64, 1), 0.5, 1, "B3/S23", 1 << 3, (1 << 2) | (1 << 3), 100, 10),
    # K larger than every early chunk: chunks must stop at each sample.
    (2, (61, 47, 1), 0.5, 5, "B3/S23", 1 << 3, (1 << 2) | (1 << 3), 3000, 997),
    (2, (33, 35, 1), 0.4, 2, "B36/S23", (1 << 3) | (1 << 6), (1 << 2) | (1 << 3), 57, 1),
    (3, (19, 17, 21), 0.3, 3, "B6/S567", 1 << 6, (1 << 5) | (1 << 6) | (1 << 7), 40, 3),
    # Steps not a multiple of K: the last sample is the last multiple.
    (3, (16, 16, 16), 0.2, 4, "B6/S567", 1 << 6, (1 << 5) | (1 << 6) | (1 << 7), 50, 7),
]


def size_text(dims, ext):
    return "x".join(str(e) for e in ext[:dims])


for dims, ext, density, seed, rule, birth, survive, steps, every in CASES:
    ref = subprocess.run([REF, str(dims), *map(str, ext), str(seed), str(density), str(birth), str(survive),
                          str(steps), str(every)], capture_output=True, text=True, check=True)
    want = json.loads(ref.stdout)
    what = "%dD %s %s, %d steps, every %d" % (dims, size_text(dims, ext), rule, steps, every)
    expect(len(want) == steps // every + 1, "reference series length: " + what)
    for b in BACKENDS:
        p = subprocess.run([LOCKSTEP, "life", "--dims", str(dims), "--size", size_text(dims, ext), "--density",
                            str(density), "--seed", str(seed), "--rule", rule, "--steps", str(steps), "--every",
                            str(every), "--backend", b, "--json", "--quiet"], capture_output=True, text=True)
        got = json.loads(p.stdout).get("populations") if p.returncode == 0 else None
        expect(got == want, "%s on %s equals the reference" % (what, b), "got %s, want %s" % (got, want))

# The reproductions: check exits 0 and both devices hold every point.
for size, steps, every in (("512", 3000, 10), ("1024", 2000, 997)):
    if len(BACKENDS) < 2:
        break
    p = subprocess.run([LOCKSTEP, "check", "life", "--dims", "2", "--size", size, "--steps", str(steps), "--every",
                        str(every), "--backends", ",".join(BACKENDS), "--json", "--quiet"],
                       capture_output=True, text=True)
    expect(p.returncode == 0, "check life --size %s --steps %d --every %d agrees" % (size, steps, every),
           p.stdout[-500:] + p.stderr)

finish()
