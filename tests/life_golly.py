#!/usr/bin/env python3
"""life_golly.py LOCKSTEP BACKEND... - lockstep against bgolly, Golly's
command-line program (Debian: golly), as an outside reference (issue 27):
the same file gives the same population, generation after generation, in
bgolly and in `lockstep life` on every backend that runs here:

- random soups (seeded here), written as RLE the way Golly writes it, on
  tori (:T) and bounded planes (:P) of odd and even sizes, under several
  rules: without #CXRLE Pos (placed where Golly places a pattern) and with
  it, with Gen;
- the Gosper gun on B3/S23:P120,80, 400 generations (72 cells; lockstep
  had 73 before it placed patterns as Golly does);
- files bgolly wrote (RLE, HashLife's macrocell) read by lockstep, and
  files lockstep wrote (RLE with #CXRLE, macrocell) read by bgolly, run on
  in both.

Exit 77 (skipped) without bgolly, or without a backend that runs here."""
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

from harness import expect, finish

LOCKSTEP = os.path.abspath(sys.argv[1])
BGOLLY = shutil.which("bgolly")
if not BGOLLY:
    print("bgolly not found (Debian: apt-get install golly): skipped")
    sys.exit(77)
_devices = json.loads(subprocess.run([LOCKSTEP, "devices", "--json"], capture_output=True, text=True).stdout)
_available = {b["backend"] for b in _devices["backends"] if b["available"]}
BACKENDS = [b for b in (sys.argv[2:] or ["openmp"]) if b in _available]
if not BACKENDS:
    print("no backend runs here: skipped")
    sys.exit(77)


def golly_rle(cells, w, h, rule, pos=None, gen=0):
    """cells (a set of (x, y) in a w x h box) as Golly's writepattern.cpp
    writes RLE: '#CXRLE Pos=X,Y' (and ' Gen=G' past 0) when the pattern
    has a place, the header, runs of at most 70 characters a line."""
    head = ""
    if pos is not None:
        head = f"#CXRLE Pos={pos[0]},{pos[1]}" + (f" Gen={gen}" if gen else "") + "\n"
    runs = []
    for y in range(h):
        row, x = [], 0
        while x < w:
            alive = (x, y) in cells
            n = 1
            while x + n < w and ((x + n, y) in cells) == alive:
                n += 1
            if alive or x + n < w:
                row.append((n, "o" if alive else "b"))
            x += n
        runs.extend(row)
        runs.append((1, "$"))
    while runs and runs[-1][1] == "$":
        runs.pop()
    merged = []
    for n, tag in runs + [(1, "!")]:
        if merged and merged[-1][1] == tag == "$":
            merged[-1] = (merged[-1][0] + n, tag)
        else:
            merged.append((n, tag))
    lines, line = [], ""
    for n, tag in merged:
        piece = (str(n) if n > 1 else "") + tag
        if len(line) + len(piece) > 70:
            lines.append(line)
            line = ""
        line += piece
    lines.append(line)
    return head + f"x = {w}, y = {h}, rule = {rule}\n" + "\n".join(lines) + "\n"


def bgolly_series(path, last, algo=None):
    """The population at every generation up to `last` (absolute, as -m
    counts), as bgolly reports it: {generation: population}."""
    r = subprocess.run([BGOLLY, *(["-a", algo] if algo else []), "-m", str(last), "-i", "1", path],
                       capture_output=True, text=True, timeout=300)
    return {int(g): int(p) for g, p in re.findall(r"^(\d+): (\d+)$", r.stdout, re.M)}


def lockstep_series(args, backend):
    """(populations from the start's generation on, every generation;
    the start's generation), or (None, message)."""
    r = subprocess.run([LOCKSTEP, "life", "--quiet", "--json", "--every", "1", "--backend", backend, *args],
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        return None, r.stderr.strip()
    return json.loads(r.stdout)["populations"], ""


def same_series(what, path, steps, gen0=0, algo=None, extra=()):
    """bgolly and lockstep on every backend run `path` `steps` generations
    from its generation gen0: the same population at every one."""
    want = bgolly_series(path, gen0 + steps, algo)
    want = [want.get(gen0 + k) for k in range(steps + 1)]
    expect(None not in want and want[0] > 0, f"{what}: bgolly ran it ({want[0]} cells at first)", str(want[:5]))
    for backend in BACKENDS:
        got, why = lockstep_series(["--in", path, "--steps", str(steps), *extra], backend)
        first = next((k for k in range(steps + 1) if got and got[k] != want[k]), None)
        expect(got == want, f"{what} on {backend}: bgolly's population at each of {steps} generations "
               f"({want[-1]} at the last)",
               why or (f"(generation {gen0 + first}: bgolly {want[first]}, lockstep {got[first]})" if first is not None
                       else f"({len(got)} samples)"))


def soup(rng, w, h, density):
    return {(x, y) for y in range(h) for x in range(w) if rng.random() < density}


rng = random.Random(2027)
with tempfile.TemporaryDirectory() as d:
    def path(name):
        return os.path.join(d, name)

    # ---- soups: rules, tori and planes, odd and even sizes, with and without Pos ----
    CASES = [  # rule, grid, soup box, density, Pos (None: Golly places it), Gen, steps
        ("B3/S23", "T37,23", (17, 11), 0.40, None, 0, 120),
        ("B3/S23", "P37,23", (17, 11), 0.40, None, 0, 120),
        ("B3/S23", "P38,24", (15, 9), 0.45, None, 0, 120),
        ("B3/S23", "T40,30", (40, 30), 0.35, None, 0, 100),   # the whole grid: wrapping from the start
        ("B36/S23", "T64,48", (30, 20), 0.40, (-25, 3), 7, 150),
        ("B2/S", "P41,29", (9, 7), 0.30, None, 0, 60),         # Seeds: everything dies or explodes
        ("B3678/S34678", "T33,65", (33, 40), 0.50, (-16, -32), 0, 120),
        ("B34/S34", "P50,31", (21, 13), 0.35, (3, -12), 100, 80),
        ("B3/S012345678", "P45,37", (11, 11), 0.25, None, 0, 60),  # Life without death
    ]
    for rule, grid, (w, h), density, pos, gen, steps in CASES:
        cells = soup(rng, w, h, density)
        name = f"soup-{rule.replace('/', '')}-{grid}.rle"
        open(path(name), "w").write(golly_rle(cells, w, h, f"{rule}:{grid}", pos, gen))
        where = f" at Pos={pos[0]},{pos[1]}" + (f" Gen={gen}" if gen else "") if pos else ""
        same_series(f"a {w}x{h} soup under {rule}:{grid}{where}", path(name), steps, gen0=gen if pos else 0)

    # ---- the gun: 72 cells at generation 400 ----
    gun_rows = ["........................O", "......................O.O",
                "............OO......OO............OO", "...........O...O....OO............OO",
                "OO........O.....O...OO", "OO........O...O.OO....O.O", "..........O.....O.......O",
                "...........O...O", "............OO"]
    gun = {(x, y) for y, row in enumerate(gun_rows) for x, c in enumerate(row) if c == "O"}
    open(path("gun.rle"), "w").write(golly_rle(gun, 36, 9, "B3/S23:P120,80"))
    same_series("the Gosper gun on B3/S23:P120,80", path("gun.rle"), 400)

    # ---- files bgolly wrote, read by lockstep ----
    cells = soup(rng, 19, 13, 0.4)
    open(path("start.rle"), "w").write(golly_rle(cells, 19, 13, "B3/S23:T37,23"))
    whole = bgolly_series(path("start.rle"), 110)
    for algo, out in ((None, "mid.rle"), ("HashLife", "mid.mc")):
        subprocess.run([BGOLLY, *(["-a", algo] if algo else []), "-m", "30", "-o", path(out), path("start.rle")],
                       capture_output=True, timeout=120)
        if not expect(os.path.exists(path(out)), f"bgolly wrote {out}"):
            continue
        for backend in BACKENDS:
            got, why = lockstep_series(["--in", path(out), "--steps", "80"], backend)
            expect(got == [whole.get(30 + k) for k in range(81)],
                   f"{out}, bgolly's generation 30 of a soup on :T37,23, run 80 more on {backend}: bgolly's populations",
                   why or str(got[:5] if got else got))
    # A generation-0 macrocell of bgolly's, on a plane, with its cells where they are.
    open(path("plane.rle"), "w").write(golly_rle(soup(rng, 25, 17, 0.4), 25, 17, "B36/S23:P59,41", (-20, -5)))
    subprocess.run([BGOLLY, "-a", "HashLife", "-m", "0", "-o", path("plane.mc"), path("plane.rle")],
                   capture_output=True, timeout=120)
    same_series("bgolly's macrocell of a soup at Pos=-20,-5 on B36/S23:P59,41", path("plane.mc"), 90,
                algo="HashLife")

    # ---- files lockstep wrote, read by bgolly ----
    for out, algo in (("run.rle", None), ("run.mc", "HashLife")):
        r = subprocess.run([LOCKSTEP, "life", "--quiet", "--in", path("start.rle"), "--steps", "25", "--out", path(out),
                            "--backend", BACKENDS[0]], capture_output=True, text=True, timeout=300)
        if expect(r.returncode == 0, f"lockstep wrote {out}", r.stderr.strip()):
            theirs = bgolly_series(path(out), 25 + 60, algo)
            expect([theirs.get(25 + k) for k in range(61)] == [whole.get(25 + k) for k in range(61)],
                   f"lockstep's {out} of generation 25, read by bgolly: the soup's populations from there on")
finish()
