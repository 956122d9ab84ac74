#!/usr/bin/env python3
"""life_cli.py LOCKSTEP BACKEND... - `lockstep life` from the outside:
PKU files (odd and even M and N) against a naive Python Life, output T,
format round trips (RLE from LifeWiki, .cells, native, PNG), and bad input:
one line on stderr, exit 2, no output file and no temporary file left."""
import os
import struct
import subprocess
import sys
import tempfile

LOCKSTEP = sys.argv[1]
import json
_devices = json.loads(subprocess.run([LOCKSTEP, "devices", "--json"], capture_output=True, text=True).stdout)
_available = {b["backend"] for b in _devices["backends"] if b["available"]}
# Backends compiled in but not runnable here (CUDA without a GPU) are left out.
BACKENDS = [b for b in (sys.argv[2:] or ["openmp"]) if b in _available]
failures = 0


def check(ok, what):
    global failures
    if not ok:
        failures += 1
        print("FAIL", what)


def run(*args):
    return subprocess.run([LOCKSTEP, "life", *args], capture_output=True, text=True, timeout=600)


def naive_3d(cells, m, steps, birth=(6,), survive=(5, 6, 7)):
    """cells[x][y][z] as the contest indexes them; 26 neighbours, torus."""
    for _ in range(steps):
        nxt = [[[0] * m for _ in range(m)] for _ in range(m)]
        for x in range(m):
            for y in range(m):
                for z in range(m):
                    n = sum(cells[(x + a) % m][(y + b) % m][(z + c) % m]
                            for a in (-1, 0, 1) for b in (-1, 0, 1) for c in (-1, 0, 1)) - cells[x][y][z]
                    nxt[x][y][z] = int(n in (survive if cells[x][y][z] else birth))
        cells = nxt
    return cells


def pku_bytes(cells, m, t):
    body = bytes(cells[x][y][z] for x in range(m) for y in range(m) for z in range(m))
    return struct.pack("<QQ", m, t) + body


def random_cells(m, seed):
    state = seed
    cells = [[[0] * m for _ in range(m)] for _ in range(m)]
    for x in range(m):
        for y in range(m):
            for z in range(m):
                state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
                cells[x][y][z] = int((state >> 33) % 100 < 30)
    return cells


def test_pku(d):
    for m, n in ((9, 3), (10, 4), (7, 1)):
        cells = random_cells(m, m * 100 + n)
        src = os.path.join(d, f"in{m}.data")
        with open(src, "wb") as f:
            f.write(pku_bytes(cells, m, 5))
        want = pku_bytes(naive_3d(cells, m, n), m, 5 + n)
        for b in BACKENDS:
            out = os.path.join(d, f"out{m}-{b}.data")
            r = run(src, out, str(n), "--backend", b, "--quiet")
            check(r.returncode == 0, f"PKU M={m} N={n} on {b}: exit {r.returncode} {r.stderr.strip()}")
            got = open(out, "rb").read() if os.path.exists(out) else b""
            check(got == want, f"PKU M={m} N={n} on {b}: output equals the naive reference, T = 5 + {n}")


GUN = """#N Gosper glider gun
#C www.conwaylife.com/wiki/index.php?title=Gosper_glider_gun
x = 36, y = 9, rule = B3/S23
24bo11b$22bobo11b$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o14b$2o8b
o3bob2o4bobo11b$10bo5bo7bo11b$11bo3bo20b$12b2o22b!
"""


def rle_cells(text):
    """Live cells of a two-state RLE, decoded here independently."""
    body = "".join(l for l in text.splitlines() if not l.startswith("#") and not l.startswith("x"))
    cells, x, y, count = set(), 0, 0, ""
    for ch in body:
        if ch.isdigit():
            count += ch
            continue
        n = int(count or 1)
        count = ""
        if ch == "b":
            x += n
        elif ch == "o":
            cells.update((x + i, y) for i in range(n))
            x += n
        elif ch == "$":
            y, x = y + n, 0
        elif ch == "!":
            break
    return cells


def test_round_trips(d):
    gun = os.path.join(d, "gun.rle")
    open(gun, "w").write(GUN)
    out = os.path.join(d, "gun2.rle")
    r = run("--in", gun, "--steps", "0", "--out", out, "--quiet")
    check(r.returncode == 0, f"RLE in and out: {r.stderr.strip()}")
    text = open(out).read() if os.path.exists(out) else ""
    check(rle_cells(text) == rle_cells(GUN) and len(rle_cells(GUN)) == 36, "the Gosper gun round-trips through RLE")
    check(all(len(l) <= 70 for l in text.splitlines()), "RLE lines are at most 70 characters")
    big = os.path.join(d, "big.rle")
    r = run("--dims", "2", "--size", "300x41", "--steps", "3", "--out", big, "--quiet", "--json")
    digest = r.stdout.split('"grid_digest":"')[1][:16] if r.returncode == 0 else "?"
    for fmt in ("cells", "lsgrid", "png"):
        again = os.path.join(d, "again." + fmt)
        r1 = run("--in", big, "--steps", "0", "--out", again, "--quiet")
        r2 = run("--in", again, "--steps", "0", "--json", "--quiet")
        check(r1.returncode == 0 and r2.returncode == 0 and f'"grid_digest":"{digest}"' in r2.stdout,
              f"a random 300x41 grid round-trips through RLE and {fmt}: {r1.stderr}{r2.stderr}")
    png = open(os.path.join(d, "again.png"), "rb").read(8)
    check(png == b"\x89PNG\r\n\x1a\n", "the PNG is a PNG")
    # A PNG at --scale 4 reads back as the grid it came from, without
    # --scale: its text chunks say the scale, the rule and grid, and the
    # generation (issue 27; before, it read as a grid 4 times as wide).
    scaled = os.path.join(d, "scaled.png")
    r1 = run("--rule", "B36/S23:P41,29", "--steps", "5", "--scale", "4", "--out", scaled, "--quiet", "--json")
    r2 = run("--in", scaled, "--steps", "2", "--json", "--quiet", "--backend", "openmp")
    r3 = run("--rule", "B36/S23:P41,29", "--steps", "7", "--json", "--quiet", "--backend", "openmp")
    if r1.returncode == 0 and r2.returncode == 0 and r3.returncode == 0:
        one, two, three = json.loads(r1.stdout), json.loads(r2.stdout), json.loads(r3.stdout)
        check(two["size"] == [41, 29, 1] and two.get("topology") == "plane" and two["rule"] == "B36/S23",
              f"a PNG at scale 4 reads back as its 41x29 plane of B36/S23: {two['size']} {two['rule']}")
        check(two["grid_digest"] == three["grid_digest"], "... and 2 generations on, it is the run's generation 7")
    else:
        check(False, f"a PNG at scale 4 read back: {r1.stderr}{r2.stderr}{r3.stderr}")
    out_rle = os.path.join(d, "from_png.rle")
    r = run("--in", scaled, "--steps", "1", "--out", out_rle, "--quiet")
    check(r.returncode == 0 and "Gen=6" in open(out_rle).read().splitlines()[0],
          f"the PNG's generation (5) counts on into its output (Gen=6): {r.stderr}")


def refused(d, args, what, out_name):
    out = os.path.join(d, out_name)
    before = set(os.listdir(d))
    r = run(*args)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2, f"{what}: exit 2 (got {r.returncode}, {r.stderr.strip()})")
    check(len(lines) == 1, f"{what}: one line on stderr (got {lines})")
    check(not os.path.exists(out), f"{what}: no output file")
    check(set(os.listdir(d)) == before, f"{what}: nothing left in the directory")


def test_bad_input(d):
    good = struct.pack("<QQ", 4, 0) + bytes(64)
    cases = {
        "truncated PKU": struct.pack("<QQ", 4, 0) + bytes(63),
        "oversized PKU": good + b"\x00",
        "PKU header M disagreeing with the length": struct.pack("<QQ", 5, 0) + bytes(64),
        "PKU cell byte 2": struct.pack("<QQ", 4, 0) + bytes(10) + b"\x02" + bytes(53),
        "PKU shorter than its header": b"\x04\x00",
    }
    for what, data in cases.items():
        p = os.path.join(d, "bad.data")
        open(p, "wb").write(data)
        refused(d, [p, os.path.join(d, "out.data"), "3"], what, "out.data")
        os.remove(p)
    rles = {
        "RLE with an unknown tag": "x = 3, y = 3\nbo$2bz$3o!\n",
        "multi-state RLE": "x = 3, y = 1, rule = B3/S23\nA2B!\n",
        "RLE without a header": "bo$2bo$3o!\n",
        "RLE cells outside its box": "x = 2, y = 2\n3o!\n",
        "RLE with an unknown rule": "x = 3, y = 3, rule = Q3/S23\nbo$2bo$3o!\n",
    }
    for what, text in rles.items():
        p = os.path.join(d, "bad.rle")
        open(p, "w").write(text)
        refused(d, ["--in", p, "--out", os.path.join(d, "out.rle"), "--steps", "2"], what, "out.rle")
        os.remove(p)
    refused(d, ["--dims", "2", "--rule", "B9/S23", "--out", os.path.join(d, "o.rle")], "a rule count above 8", "o.rle")
    refused(d, ["--size", "3", "--out", os.path.join(d, "o.data")], "a grid side of 3", "o.data")
    refused(d, ["--dims", "3", "--size", "8", "--out", os.path.join(d, "o.rle")], "a 3D grid as RLE", "o.rle")
    refused(d, ["--size", "8", "--out", os.path.join(d, "o.xyz")], "an unknown output extension", "o.xyz")


with tempfile.TemporaryDirectory() as d:
    test_pku(d)
    test_round_trips(d)
    test_bad_input(d)
print(f"{failures} failed")
sys.exit(1 if failures else 0)
