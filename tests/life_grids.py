#!/usr/bin/env python3
"""life_grids.py LOCKSTEP BACKEND... - Golly's grid suffixes, the grid
chosen for a pattern, and rules as people write them (issue 17, Life):

- `rule = B3/S23:T2048,2048` in an RLE header (Golly writes it) runs on a
  2048x2048 torus: the R-pentomino has 116 cells at generation 1103;
- `:P` is a bounded plane (the cells beyond its edges are dead), 2D and
  3D, on every backend, against a naive Python Life here (the torus too,
  and the two differ); RLE output writes the suffix, the native header
  records the plane and its checksum covers it, both read back as they
  were written; --size and a suffix that disagree are refused; Golly's
  other grids (Klein bottle, ...) and unbounded sides are refused;
- without --size or a suffix the grid is the pattern's box, said on
  stderr, with a warning when the pattern touches its edges;
- a pattern goes where Golly puts it on a grid of its size: at its
  #CXRLE Pos, else its middle on the grid's; --at center centres it as
  before; RLE output opens with Golly's '#CXRLE Pos= Gen=' (issue 27);
- the dimension is 2 unless something says 3 (--dims 3, a --size or
  suffix of three sides, a 3D input grid, a rule counting above 8); a
  rule that makes it 3D is said on stderr (issue 27), the default 2D
  says nothing (issue 34, item 13);
- rule names (Life, HighLife, Day & Night, ...) and S/B order (23/3) are
  taken; a 2D rule (a name, S/B order, a file's rule) on a 3D grid is
  refused; plain B/S text on a 3D grid counts 26 neighbours.

Refusals: exit 2, one line on stderr, before any computation."""
import json
import os
import subprocess
import sys
import tempfile

from harness import expect, finish, native2_bytes, native_read

LOCKSTEP = os.path.abspath(sys.argv[1])
BACKENDS = sys.argv[2:] or ["openmp"]


def life(args, cwd=None, timeout=300):
    """`lockstep life ARGS --quiet`: (exit code, stdout, stderr)."""
    r = subprocess.run([LOCKSTEP, "life", "--quiet", *args], capture_output=True, text=True, cwd=cwd,
                       timeout=timeout)
    return r.returncode, r.stdout, r.stderr


def available(backend):
    devices = json.loads(subprocess.run([LOCKSTEP, "devices", "--json"], capture_output=True, text=True).stdout)
    return any(b["backend"] == backend and b["available"] for b in devices["backends"])


def run_json(args, what, cwd=None):
    """A run that must succeed: its JSON result, or None."""
    code, out, err = life([*args, "--json"], cwd=cwd)
    if not expect(code == 0, f"{what}: exit 0", f"(got {code}: {err.strip()})"):
        return None
    return json.loads(out)


def refused(args, what, says, cwd=None):
    """Exit 2 and one line on stderr holding `says`, without computing
    (a billion generations would take far longer than the timeout)."""
    code, _, err = life([*args, "--steps", "1000000000"], cwd=cwd, timeout=60)
    lines = err.strip().splitlines()
    expect(code == 2 and len(lines) == 1 and says in err, f"{what}: refused in one line saying '{says}'",
           f"(exit {code}: {err.strip()!r})")


# ---- an independent Life, a dict of live cells ------------------------------

def step(live, dims, size, bounded, birth, survive):
    """One generation: `live` a set of cells (tuples), on a torus of `size`
    or a bounded plane (nothing beyond the edges)."""
    counts = {}
    offsets = [(dx, dy, dz) for dx in (-1, 0, 1) for dy in (-1, 0, 1) for dz in ((-1, 0, 1) if dims == 3 else (0,))
               if (dx, dy, dz) != (0, 0, 0)]
    for cell in live:
        for d in offsets:
            n = tuple(cell[i] + d[i] for i in range(3))
            if bounded and any(n[i] < 0 or n[i] >= size[i] for i in range(3)):
                continue
            n = tuple(n[i] % size[i] for i in range(3))
            counts[n] = counts.get(n, 0) + 1
    every = [(x, y, z) for x in range(size[0]) for y in range(size[1]) for z in range(size[2])]
    return {c for c in every if counts.get(c, 0) in (survive if c in live else birth)}  # every cell: B0 too


def read_native(path):
    """(shape word, size, cells as a set) of a native .lsgrid file."""
    shape, (nx, ny, nz), cells = native_read(path)
    live = {(k % nx, k // nx % ny, k // (nx * ny)) for k, c in enumerate(cells) if c}
    return shape, (nx, ny, nz), live


def write_native(path, dims, size, live, birth, survive, shape=None):
    """A native file of these cells, in the lslife2 layout (its checksum
    computed here; lockstep reads it as it reads its own lslife3)."""
    nx, ny, nz = size
    cells = [0] * (nx * ny * nz)
    for (x, y, z) in live:
        cells[(z * ny + y) * nx + x] = 1
    mask = lambda counts: sum(1 << c for c in counts)
    open(path, "wb").write(native2_bytes(dims if shape is None else shape, size, mask(birth), mask(survive), 0,
                                         cells))


def random_cells(size, dims, seed, density=0.35):
    import random
    rnd = random.Random(seed)
    return {(x, y, z) for x in range(size[0]) for y in range(size[1]) for z in range(size[2] if dims == 3 else 1)
            if rnd.random() < density}


# ---- Golly's torus suffix in an RLE header ----------------------------------

with tempfile.TemporaryDirectory() as d:
    rpent = os.path.join(d, "rpent.rle")
    open(rpent, "w").write("#N R-pentomino\nx = 3, y = 3, rule = B3/S23:T2048,2048\nb2o$2ob$bo!\n")
    r = run_json(["--in", rpent, "--steps", "1103", "--backend", "openmp"], "Golly's rule = B3/S23:T2048,2048")
    if r:
        expect(r["size"][:2] == [2048, 2048] and r.get("topology", "torus") == "torus" and r["population"] == 116,
               "the R-pentomino on Golly's 2048x2048 torus: 116 cells at generation 1103", str(r))

# ---- bounded planes on every backend, against the Python Life ---------------

CASES = [  # dims, size, rule text, birth, survive, generations
    (2, (23, 17, 1), "B3/S23", {3}, {2, 3}, 9),
    (2, (37, 5, 1), "B03/S23", {0, 3}, {2, 3}, 3),  # B0: the edges are born differently on a plane
    (3, (9, 6, 5), "B5,6/S4-6", {5, 6}, {4, 5, 6}, 3),
]
with tempfile.TemporaryDirectory() as d:
    for dims, size, rule, birth, survive, steps in CASES:
        start = os.path.join(d, "start.lsgrid")
        live0 = random_cells(size, dims, seed=dims * 100 + size[0])
        write_native(start, dims, size, live0, birth, survive)
        sides = ",".join(str(n) for n in size[:dims])
        plane, torus = set(live0), set(live0)
        for _ in range(steps):
            plane = step(plane, dims, size, True, birth, survive)
            torus = step(torus, dims, size, False, birth, survive)
        expect(plane != torus, f"{dims}D {rule}: a plane and a torus differ here (the test can tell them apart)")
        for backend in BACKENDS:
            if not available(backend):
                print(f"skip {backend}: not available here")
                continue
            for bounded, want in ((True, plane), (False, torus)):
                what = f"{dims}D {rule}:{'P' if bounded else 'T'}{sides} on {backend}"
                out = os.path.join(d, f"out-{backend}-{int(bounded)}.lsgrid")
                r = run_json(["--in", start, "--rule", f"{rule}:{'P' if bounded else 'T'}{sides}", "--steps",
                              str(steps), "--backend", backend, "--out", out], what)
                if r is None:
                    continue
                shape, got_size, got = read_native(out)
                expect(got == want and got_size == size, f"{what}: every cell as the Python Life has it",
                       f"({len(got ^ want)} cells differ)")
                expect(r.get("topology", "torus") == ("plane" if bounded else "torus"), f"{what}: the JSON says its topology")
                expect(shape == dims | (0x100 if bounded else 0), f"{what}: the native header records it",
                       hex(shape))
            # A plane read back from the native file stays a plane.
            out = os.path.join(d, f"out-{backend}-1.lsgrid")
            if os.path.exists(out):
                again = os.path.join(d, "again.lsgrid")
                r = run_json(["--in", out, "--steps", "0", "--backend", backend, "--out", again],
                             f"{dims}D plane read back on {backend}")
                expect(r is not None and r["topology"] == "plane" and open(again, "rb").read() ==
                       open(out, "rb").read(), f"{dims}D plane read back on {backend}: a plane, the same file")

    # The checksum covers the plane bit: a torus file made a plane is damage.
    start = os.path.join(d, "flip.lsgrid")
    write_native(start, 2, (8, 8, 1), {(1, 1, 0)}, {3}, {2, 3})
    data = bytearray(open(start, "rb").read())
    data[9] |= 1  # shape word: 2 -> 0x102
    open(start, "wb").write(data)
    refused(["--in", start], "a native torus edited into a plane", "damaged")

    # RLE output keeps the suffix, and reading it back keeps the grid.
    rle = os.path.join(d, "plane.rle")
    r = run_json(["--rule", "B3/S23:P40,30", "--steps", "5", "--backend", "openmp", "--out", rle], "RLE of a plane")
    header = [l for l in open(rle).read().splitlines() if l.startswith("x")] if os.path.exists(rle) else []
    expect(header == ["x = 40, y = 30, rule = B3/S23:P40,30"], "RLE output: the header holds Golly's suffix",
           str(header))
    back = run_json(["--in", rle, "--steps", "0", "--backend", "openmp"], "RLE of a plane read back")
    expect(r and back and back["topology"] == "plane" and back["size"][:2] == [40, 30] and
           back["grid_digest"] == r["grid_digest"], "RLE of a plane read back: the same plane and cells")
    torus_rle = os.path.join(d, "torus.rle")
    run_json(["--dims", "2", "--size", "20x10", "--steps", "1", "--backend", "openmp", "--out", torus_rle],
             "RLE of a torus")
    expect(os.path.exists(torus_rle) and "rule = B3/S23:T20,10" in open(torus_rle).read(),
           "RLE output of a torus says :T20,10")
    # --size replaces the file's sides (said on stderr), keeping its topology.
    code, out, err = life(["--in", rle, "--size", "50", "--steps", "0", "--json"])
    r = json.loads(out) if code == 0 else {}
    expect(r.get("topology") == "plane" and r.get("size", [])[:2] == [50, 50] and
           "grid 50x50 from --size, not the file's :P40,30" in err,
           "--size over a file's suffix: that size, the file's plane, said on stderr", err)

    # Refusals.
    refused(["--rule", "B3/S23:P64,64", "--size", "32"], "--size and the suffix disagree", "disagree")
    refused(["--rule", "B3/S23:K64,64"], "a Klein bottle", "Klein bottle")
    refused(["--rule", "B3/S23:T0,64"], "Golly's unbounded side", "unbounded")
    refused(["--rule", "B3/S23:P64,64", "--dims", "3"], "a 2D suffix on a 3D grid", "the grid is 3D")
    klein = os.path.join(d, "klein.rle")
    open(klein, "w").write("x = 3, y = 3, rule = B3/S23:K10,10\nbo$2bo$3o!\n")
    refused(["--in", klein], "an RLE file's Klein bottle", "Klein bottle")
    refused(["--in", klein, "--rule", "B3/S23"], "an RLE file's Klein bottle under --rule", "Klein bottle")
    refused(["--in", rle, "--dims", "3", "--rule", "B6/S567"], "an RLE file's 2D suffix on a 3D grid",
            "is 2D and this grid is 3D")
    refused(["--in", start.replace("flip", "none"), "--rule", "B3/S23:P9,9"], "no such file", "cannot open")
    grid = os.path.join(d, "g.lsgrid")
    write_native(grid, 2, (8, 8, 1), {(1, 1, 0)}, {3}, {2, 3})
    refused(["--in", grid, "--rule", "B3/S23:P9,9"], "a suffix other than a native grid's size", "holds a 8x8 grid")
    cube = os.path.join(d, "cube8.lsgrid")
    write_native(cube, 3, (8, 8, 8), {(1, 1, 1)}, {6}, {5, 6, 7})
    refused(["--in", cube, "--rule", "B6/S567:P8,8"], "a 2D suffix on a 3D native grid", "has 2 sides and the grid is 3D")

# ---- the grid chosen for a pattern -------------------------------------------

with tempfile.TemporaryDirectory() as d:
    rpent = os.path.join(d, "rpent.rle")
    open(rpent, "w").write("x = 3, y = 3, rule = B3/S23\nb2o$2ob$bo!\n")
    code, out, err = life(["--dims", "2", "--in", rpent, "--steps", "1103"])
    expect(code == 0 and "grid 4x4: the pattern's box" in err and "touch the edges" in err and
           "give --size" in err and len(err.strip().splitlines()) == 1,
           "the R-pentomino without --size: its 4x4 box said, and that it touches the edges", err)
    dot = os.path.join(d, "dot.rle")
    open(dot, "w").write("x = 1, y = 1\no!\n")
    code, out, err = life(["--in", dot, "--steps", "1"])
    expect(code == 0 and "grid 4x4: the pattern's box (give --size for more room)" in err and "touch" not in err,
           "a single cell: the 4x4 box said, no edge warning", err)
    code, out, err = life(["--in", rpent, "--size", "64", "--steps", "1"])
    expect(code == 0 and err == "", "with --size: nothing said", err)
    # check runs the start on every device: said once.
    r = subprocess.run([LOCKSTEP, "check", "life", "--dims", "2", "--in", rpent, "--steps", "3", "--quiet"],
                       capture_output=True, text=True)
    expect(r.stderr.count("the pattern's box") == 1, "check: the grid chosen said once", r.stderr)

# ---- where a pattern goes: as Golly puts it (issue 27) ----------------------
# Golly's bounded grids and tori of W x H cells run from its cell
# (-(W // 2), -(H // 2)) (lifealgo.cpp, setgridsize); a pattern without
# #CXRLE Pos goes with its top-left cell at (-(w // 2), -(h // 2)), with
# Pos at Pos (readpattern.cpp, readrle). So on lockstep's grid, whose
# top-left cell is (0, 0), Golly's cell (X, Y) is (X + W // 2, Y + H // 2).

def live_cells(path):
    """The live cells of a .cells file, as a set of (x, y)."""
    rows = [l for l in open(path).read().splitlines() if not l.startswith("!")]
    return {(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "O"}


GUN_ROWS = ["........................O...........", "......................O.O...........",
            "............OO......OO............OO", "...........O...O....OO............OO",
            "OO........O.....O...OO..............", "OO........O...O.OO....O.O...........",
            "..........O.....O.......O...........", "...........O...O....................",
            "............OO......................"]
GUN_CELLS = {(x, y) for y, row in enumerate(GUN_ROWS) for x, c in enumerate(row) if c == "O"}


def gun_rle(head=""):
    runs = "$".join("".join("o" if c == "O" else "b" for c in row) for row in GUN_ROWS)
    return head + "x = 36, y = 9, rule = B3/S23\n" + runs + "!\n"


with tempfile.TemporaryDirectory() as d:
    def placed(rle_text, args, what):
        rle = os.path.join(d, "p.rle")
        out = os.path.join(d, "p.cells")
        open(rle, "w").write(rle_text)
        if os.path.exists(out):
            os.remove(out)
        run_json(["--in", rle, "--steps", "0", "--backend", "openmp", "--out", out, *args], what)
        return live_cells(out) if os.path.exists(out) else set()

    def shifted(cells, dx, dy):
        return {(x + dx, y + dy) for x, y in cells}

    for w, h in ((120, 80), (121, 81), (37, 23), (38, 24)):
        gx, gy = w // 2 - 36 // 2, h // 2 - 9 // 2
        got = placed(gun_rle(), ["--rule", f"B3/S23:P{w},{h}"], f"the gun on :P{w},{h}")
        expect(got == shifted(GUN_CELLS, gx, gy), f"the gun on :P{w},{h}: where Golly puts it, top-left at {gx},{gy}",
               str(min(got, default=None)))
        got = placed(gun_rle(), ["--rule", f"B3/S23:T{w},{h}", "--at", "center"], f"--at center on :T{w},{h}")
        expect(got == shifted(GUN_CELLS, (w - 36) // 2, (h - 9) // 2),
               f"--at center on :T{w},{h}: centred as before, top-left at {(w - 36) // 2},{(h - 9) // 2}")
    got = placed(gun_rle(), ["--size", "64x48"], "the gun on --size 64x48")
    expect(got == shifted(GUN_CELLS, 32 - 18, 24 - 4), "--size 64x48: Golly's place too")
    got = placed(gun_rle("#CXRLE Pos=-30,3 Gen=12\n"), ["--rule", "B3/S23:P81,40"], "#CXRLE Pos=-30,3")
    expect(got == shifted(GUN_CELLS, 40 - 30, 20 + 3), "#CXRLE Pos=-30,3 on :P81,40: top-left at 10,23")
    got = placed(gun_rle("#CXRLE Pos=5,-3\n"), ["--rule", "B3/S23:P37,23", "--at", "1,2"], "--at over Pos")
    expect(got == shifted(GUN_CELLS, 1, 2), "--at 1,2 places it, whatever Pos says")
    got = placed(gun_rle("#C a comment first\n#CXRLE Pos=5,-3\n"), ["--rule", "B3/S23:P37,23"],
                 "#CXRLE after another line")
    expect(got == shifted(GUN_CELLS, 18 - 18, 11 - 4), "#CXRLE after another line: a comment, as to Golly")
    got = placed(gun_rle("#CXRLE Pos=500,500\n"), [], "Pos on the pattern's own box")
    expect(got == GUN_CELLS, "Pos on the pattern's own box (no --size, no suffix): the box holds it")
    rle = os.path.join(d, "far.rle")
    open(rle, "w").write(gun_rle("#CXRLE Pos=2,0\n"))
    refused(["--in", rle, "--rule", "B3/S23:P37,23"], "Pos past the grid's edge",
            "at Pos=2,0 lies outside the grid (37x23, Golly's cells -18,-11 to 18,11)")
    open(rle, "w").write(gun_rle("#CXRLE Pos=x,0\n"))
    refused(["--in", rle, "--size", "64"], "a malformed Pos", "expected Pos=X,Y")
    refused(["--in", rle, "--size", "64", "--at", "middle"], "--at middle", "expected X,Y")

    # Golly writes an empty universe as "x = 0, y = 0, rule = R" and "!"
    # (writepattern.cpp): read as an empty grid; a live cell in it is not.
    rle = os.path.join(d, "empty.rle")
    open(rle, "w").write("x = 0, y = 0, rule = B3/S23:T16,12\n!\n")
    r = run_json(["--in", rle, "--steps", "3", "--backend", "openmp"], "Golly's empty RLE")
    expect(r and r["population"] == 0 and r["size"] == [16, 12, 1], "Golly's empty RLE: an empty 16x12 torus", str(r))
    open(rle, "w").write("x = 0, y = 0\no!\n")
    refused(["--in", rle, "--size", "8"], "a live cell in an RLE of 0x0", "outside the 0x0 the header declares")

    # RLE output opens with Golly's #CXRLE line: Pos the grid's top-left
    # cell in Golly's coordinates, Gen the generation (when past 0).
    out = os.path.join(d, "o.rle")
    run_json(["--rule", "B3/S23:T41,30", "--steps", "7", "--backend", "openmp", "--out", out], "RLE output")
    lines = open(out).read().splitlines() if os.path.exists(out) else [""]
    expect(lines[0] == "#CXRLE Pos=-20,-15 Gen=7", "RLE output: '#CXRLE Pos=-20,-15 Gen=7' first", lines[0])
    run_json(["--rule", "B3/S23:T41,30", "--steps", "0", "--backend", "openmp", "--out", out], "RLE at generation 0")
    lines = open(out).read().splitlines() if os.path.exists(out) else [""]
    expect(lines[0] == "#CXRLE Pos=-20,-15", "RLE output at generation 0: no Gen, as Golly writes it", lines[0])
    # Read back with --size: Golly's coordinates keep its cells in place
    # around the middle, on a larger grid too.
    small = placed(open(out).read(), [], "the RLE read back")
    large = placed(open(out).read(), ["--size", "61x40"], "the RLE read back on 61x40")
    expect(large == shifted(small, 30 - 20, 20 - 15), "RLE read back on a larger grid: the same cells about the "
           "middle, as Golly places them")

# ---- the dimension: 2D unless something says 3D (issue 27) -----------------

def dims_run(args, what, dims, said):
    """A run of `args`: its dimension, and what stderr says (`said` in it,
    or nothing at all when said is None)."""
    code, out, err = life([*args, "--steps", "1", "--json", "--backend", "openmp"])
    r = json.loads(out) if code == 0 else {}
    expect(r.get("dims") == dims, f"{what}: {dims}D", f"(exit {code}, {r.get('dims')}: {err.strip()})")
    expect(err == "" if said is None else said in err and len(err.strip().splitlines()) == 1,
           f"{what}: " + ("nothing said" if said is None else f"said on stderr ('{said}')"), repr(err))
    return r


# 2D is the documented default: a run that takes it says nothing of it
# (issue 34, item 13), with or without options.
r = dims_run(["--rule", "B3/S23", "--size", "64"], "--rule B3/S23 --size 64 (B/S text, one side)", 2, None)
expect(r.get("size") == [64, 64, 1], "--rule B3/S23 --size 64: a 64x64 grid", str(r.get("size")))
dims_run([], "no options", 2, None)
dims_run(["--size", "64"], "--size 64 alone", 2, None)
dims_run(["--rule", "B6/S567", "--size", "16"], "the 3D default rule's text alone (counts up to 7)", 2, None)
dims_run(["--rule", "B5/S10-12", "--size", "16"], "a rule counting above 8", 3,
         "lockstep: life: 3D: rule B5/S10-12 counts above 8 neighbours")
dims_run(["--rule", "B5/S10-12", "--size", "16", "--dims", "3"], "a rule counting above 8 with --dims 3", 3, None)
dims_run(["--dims", "2", "--size", "64"], "--dims 2", 2, None)
dims_run(["--dims", "3", "--size", "16"], "--dims 3", 3, None)
dims_run(["--size", "16x16x16"], "a --size of three sides", 3, None)
dims_run(["--size", "32x16"], "a --size of two sides", 2, None)
dims_run(["--rule", "B3/S23:T16,16,16"], "a grid suffix of three sides", 3, None)
dims_run(["--rule", "Life", "--size", "32"], "a rule name", 2, None)
dims_run(["--rule", "23/3", "--size", "32"], "S/B order", 2, None)
with tempfile.TemporaryDirectory() as d:
    cube = os.path.join(d, "cube.lsgrid")
    write_native(cube, 3, (8, 8, 8), {(1, 1, 1)}, {6}, {5, 6, 7})
    dims_run(["--in", cube], "a 3D input grid", 3, None)
    rpent = os.path.join(d, "rpent.rle")
    open(rpent, "w").write("x = 3, y = 3, rule = B3/S23\nb2o$2ob$bo!\n")
    r = dims_run(["--in", rpent, "--size", "16", "--rule", "B5/S10-12"], "a pattern under a rule counting above 8",
                 3, "3D: rule B5/S10-12")
    expect(r.get("size") == [16, 16, 16], "the pattern under a 3D rule: on a 16x16x16 grid", str(r.get("size")))
    dims_run(["--in", rpent, "--size", "16"], "a pattern", 2, None)

# ---- rules as people write them ---------------------------------------------

r = run_json(["--rule", "Life", "--size", "64", "--steps", "3", "--backend", "openmp"], "--rule Life")
expect(r and r["dims"] == 2 and r["rule"] == "B3/S23", "--rule Life: a 2D run of B3/S23", str(r))
r = run_json(["--rule", "Day & Night", "--dims", "2", "--size", "64", "--steps", "1"], "--rule 'Day & Night'")
expect(r and r["rule"] == "B3678/S34678", "--rule 'Day & Night' is B3678/S34678", str(r))
r = run_json(["--rule", "23/36", "--size", "64", "--steps", "1"], "--rule 23/36 (S/B)")
expect(r and r["dims"] == 2 and r["rule"] == "B36/S23", "--rule 23/36 is HighLife in B/S", str(r))
r = run_json(["--rule", "B3/S23", "--dims", "3", "--size", "16", "--steps", "1"], "plain B3/S23 on a 3D grid")
expect(r and r["dims"] == 3, "plain B/S text on a 3D grid counts 26 neighbours, as before", str(r))
refused(["--rule", "Life", "--dims", "3"], "a rule name on a 3D grid", "2D rule by name")
refused(["--rule", "HighLife", "--size", "8x8x8"], "a rule name on a 3D --size", "a 3D grid counts 26")
refused(["--rule", "23/3", "--dims", "3"], "S/B order on a 3D grid", "S/B order")
refused(["--rule", "Lief", "--dims", "2"], "an unknown name", "rule name")
# A typo must not make a run 3D (issue 34, item 12): a count given twice
# is refused, and a rule that only its 9 would make 3D is refused with
# the 2D rule it may have meant; --dims 3 runs it as written.
refused(["--rule", "B3/S99"], "--rule B3/S99 (a digit twice)", "rule 'B3/S99': survival count 9 is given twice")
refused(["--rule", "B3/S239", "--size", "32"], "--rule B3/S239 (only 9 above 8)",
        "did you mean B3/S23? (--dims 3 runs it in 3D)")
refused(["--rule", "b39/s23"], "--rule b39/s23 (only 9 above 8)", "did you mean B3/S23?")
refused(["--rule", "B3/S2,3,9"], "--rule B3/S2,3,9 (only 9 above 8)", "did you mean B3/S23?")
dims_run(["--rule", "B3/S239", "--dims", "3", "--size", "16"], "--rule B3/S239 with --dims 3", 3, None)
dims_run(["--rule", "B3/S239", "--size", "16x16x16"], "--rule B3/S239 on a 3D --size", 3, None)
dims_run(["--rule", "B5/S9-12", "--size", "16"], "a rule counting 9 to 12", 3, "3D: rule B5/S9-12")
with tempfile.TemporaryDirectory() as d:
    cube = os.path.join(d, "cube.lsgrid")
    write_native(cube, 3, (8, 8, 8), {(1, 1, 1)}, {6}, {5, 6, 7})
    refused(["--in", cube, "--rule", "Life"], "a rule name on a 3D native grid", "2D rule by name")

finish()
