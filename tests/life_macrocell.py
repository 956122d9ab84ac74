#!/usr/bin/env python3
"""life_macrocell.py LOCKSTEP - Golly's macrocell format (.mc, issue 27),
against a small macrocell writer and reader of this test's own, made from
the format as Golly's Help/formats.html defines it:

- a macrocell written here (random cells, shared nodes, empty quadrants,
  #R with a grid suffix, #G) is read by lockstep with every cell where
  Golly has it: Golly's cell (X, Y) on the grid's (X + nx // 2,
  Y + ny // 2), the root of level k from Golly's (-2^(k-1), 1 - 2^(k-1));
- lockstep's own .mc of a run, read by this test's reader, holds the
  run's cells, and read back by lockstep gives the same grid (digest),
  grid, rule and generation;
- refusals, one line and exit 2: not [M2], the multi-state form, a node
  naming a later one or a child of another level, a root that is a leaf,
  a pattern wider than lockstep's (its size said), one outside the grid;
- a pattern larger than its grid (#R's suffix, --size) is refused from
  the tree, before its cells are allocated: a file of a few lines whose
  tree holds 2^30 live cells within a few MiB of memory more than a run
  on a tiny grid (issue 34, item 7: 1.1 GiB before).

bgolly's own .mc files are read in tests/life_golly.py."""
import json
import os
import random
import subprocess
import sys
import tempfile

from harness import expect, finish

LOCKSTEP = os.path.abspath(sys.argv[1])


def life(args, timeout=300):
    r = subprocess.run([LOCKSTEP, "life", "--quiet", *args], capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stdout, r.stderr


def life_peak(args):
    """`lockstep life ARGS`: (exit code, stderr, peak resident memory in
    MiB), its memory from the kernel's account of the process."""
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen([LOCKSTEP, "life", "--quiet", *args], stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = 0  # reaped here; keep Popen from waiting again
        err.seek(0)
        return os.waitstatus_to_exitcode(status), err.read().decode(errors="replace"), usage.ru_maxrss / 1024


def cells_file(path):
    """The live cells of a .cells file, as a set of (x, y)."""
    rows = [l for l in open(path).read().splitlines() if not l.startswith("!")]
    return {(x, y) for y, row in enumerate(rows) for x, c in enumerate(row) if c == "O"}


# ---- this test's macrocell writer and reader (Help/formats.html) ------------

def write_mc(cells, level, rule, gen=0):
    """A macrocell of `cells` (Golly's coordinates, y down) under a root of
    `level`: leaves of 8x8 cells, nodes written children first, each
    distinct node once (node 0 empty)."""
    lines, ids = [], {}
    half = 1 << (level - 1)

    def node(lv, x0, y0):
        inside = {(x - x0, y - y0) for x, y in cells if x0 <= x < x0 + (1 << lv) and y0 <= y < y0 + (1 << lv)}
        if not inside:
            return 0
        if lv == 3:
            rows = []
            for y in range(8):
                row = "".join("*" if (x, y) in inside else "." for x in range(8)).rstrip(".")
                rows.append(row + "$")
            while rows and rows[-1] == "$":
                rows.pop()
            key = "".join(rows)
        else:
            h = 1 << (lv - 1)
            kids = [node(lv - 1, x0 + dx, y0 + dy) for dy in (0, h) for dx in (0, h)]
            key = f"{lv} {kids[0]} {kids[1]} {kids[2]} {kids[3]}"
        if key not in ids:
            lines.append(key)
            ids[key] = len(lines)
        return ids[key]

    node(level, -half, 1 - half)
    head = ["[M2] (life_macrocell.py)", f"#R {rule}"] + ([f"#G {gen}"] if gen else []) + ["#C a test's own"]
    return "\n".join(head + lines) + "\n"


def read_mc(text):
    """The live cells of a macrocell (Golly's coordinates), its rule and
    generation."""
    nodes, rule, gen = [None], None, 0
    for line in text.splitlines()[1:]:
        if line.startswith("#R"):
            rule = line[2:].strip()
        elif line.startswith("#G"):
            gen = int(line[2:].strip())
        elif line.startswith("#") or not line.strip():
            continue
        elif line[0] in ".*$":
            leaf = set()
            for y, row in enumerate(line.strip().split("$")):
                leaf |= {(x, y) for x, c in enumerate(row) if c == "*"}
            nodes.append((3, leaf))
        else:
            lv, *kids = map(int, line.split()[:5])
            nodes.append((lv, kids))
    live = set()

    def paint(i, x0, y0):
        if i == 0:
            return
        lv, what = nodes[i]
        if lv == 3:
            live.update((x0 + x, y0 + y) for x, y in what)
            return
        h = 1 << (lv - 1)
        for q, kid in enumerate(what):
            paint(kid, x0 + (q % 2) * h, y0 + (q // 2) * h)

    if len(nodes) > 1:
        half = 1 << (nodes[-1][0] - 1)
        paint(len(nodes) - 1, -half, 1 - half)
    return live, rule, gen


with tempfile.TemporaryDirectory() as d:
    def path(name):
        return os.path.join(d, name)

    # ---- a macrocell of this test's read by lockstep ----
    rng = random.Random(27)
    for nx, ny, level, rule in ((37, 23, 6, "B3/S23:P37,23"), (64, 64, 7, "B36/S23:T64,64"),
                                (100, 41, 8, "B3/S23:T100,41")):
        golly = {(x, y) for x in range(-nx // 2 + 1, nx - nx // 2 - 1) for y in range(-(ny // 2), ny - ny // 2)
                 if rng.random() < 0.3}
        golly |= {(x + 40, y) for x, y in golly if x + 40 < nx - nx // 2}  # repeats: shared nodes
        open(path("in.mc"), "w").write(write_mc(golly, level, rule, gen=11))
        code, out, err = life(["--in", path("in.mc"), "--steps", "0", "--json", "--out", path("in.cells"),
                               "--backend", "openmp"])
        r = json.loads(out) if code == 0 else {}
        what = f"a macrocell of {len(golly)} cells on {rule}, root of level {level}"
        expect(code == 0 and r["size"][:2] == [nx, ny] and r["rule"] == rule.split(":")[0] and
               r.get("topology") == ("plane" if ":P" in rule else None), f"{what}: read, on its grid and rule",
               err.strip())
        want = {(x + nx // 2, y + ny // 2) for x, y in golly}
        got = cells_file(path("in.cells")) if code == 0 else set()
        expect(got == want, f"{what}: every cell where Golly has it",
               f"({len(got ^ want)} cells differ)")
        # Its generation counts on: 11 + 2 in the output.
        code, _, err = life(["--in", path("in.mc"), "--steps", "2", "--out", path("on.mc"), "--backend", "openmp"])
        text = open(path("on.mc")).read() if code == 0 else ""
        expect("#G 13" in text.splitlines(), f"{what}: #G 11 and 2 generations: #G 13 written", err.strip())

    # ---- lockstep's macrocells, read here and by lockstep ----
    for args in (["--rule", "B3/S23:T37,23", "--density", "0.4"], ["--rule", "B3678/S34678:P61,45"],
                 ["--dims", "2", "--size", "300x17", "--density", "0.02"], ["--rule", "B3/S23:P16,16", "--density", "0"]):
        what = "lockstep's .mc of " + " ".join(args)
        code, out, err = life([*args, "--steps", "9", "--json", "--out", path("run.mc"), "--backend", "openmp"])
        code2, _, err2 = life([*args, "--steps", "9", "--out", path("run.cells"), "--backend", "openmp"])
        if not expect(code == 0 and code2 == 0, f"{what}: written", err + err2):
            continue
        r = json.loads(out)
        nx, ny = r["size"][:2]
        text = open(path("run.mc")).read()
        live, rule, gen = read_mc(text)
        expect(text.startswith("[M2]") and gen == 9 and rule == r["rule"] + (":P" if r.get("topology") else ":T") +
               f"{nx},{ny}", f"{what}: [M2], #R with the grid's suffix, #G 9", f"{rule} {gen}")
        expect({(x + nx // 2, y + ny // 2) for x, y in live} == cells_file(path("run.cells")),
               f"{what}: its tree holds the run's cells, the grid's middle at Golly's origin")
        leaves = [l for l in text.splitlines() if l[:1] in (".", "*", "$")]
        expect(len(leaves) == len(set(leaves)), f"{what}: each distinct leaf written once")
        code, out, err = life(["--in", path("run.mc"), "--steps", "0", "--json", "--backend", "openmp"])
        back = json.loads(out) if code == 0 else {}
        expect(back.get("grid_digest") == r["grid_digest"] and back.get("size") == r["size"] and
               back.get("rule") == r["rule"] and back.get("topology") == r.get("topology"),
               f"{what}: read back, the same grid", err.strip())

    # ---- refusals ----
    def refused(text, what, says, args=()):
        open(path("bad.mc"), "w").write(text)
        code, _, err = life(["--in", path("bad.mc"), "--steps", "1000000000", *args], timeout=60)
        expect(code == 2 and len(err.strip().splitlines()) == 1 and says in err,
               f"{what}: refused in one line saying '{says}'", f"(exit {code}: {err.strip()!r})")

    leaf = "$$..*$...*$.***$"
    refused("[M1]\n" + leaf + "\n4 1 0 0 0\n", "an [M1] header", "not a two-state macrocell")
    refused("x = 3, y = 3\n", "an RLE named .mc", "not a two-state macrocell")
    refused("[M2]\n1 1 0 0 1\n2 1 0 0 1\n", "the multi-state form", "the multi-state form")
    refused("[M2]\n" + leaf + "\n4 2 0 0 0\n", "a node naming a later one", "node 2 is not defined before this line")
    refused("[M2]\n" + leaf + "\n4 1 0 0 0\n5 1 0 0 0\n", "a child of another level", "of level 3 (not 4)")
    refused("[M2]\n" + leaf + "\n", "a root that is a leaf", "its root is a leaf")
    refused("[M2]\n..x$\n4 1 0 0 0\n", "a leaf with another character", "unexpected 'x' in a leaf")
    refused("[M2]\n.........*$\n4 1 0 0 0\n", "a leaf's cell beyond 8", "beyond its 8x8 square")
    refused("[M2]\n" + leaf + "\n64 1 0 0 0\n", "a level beyond 2^62", "at most 62")
    # A pattern wider than lockstep's: its size said (two cells 2^25 apart).
    # Node 1 a leaf; 2 to 23 levels 4 to 25 with it in their north-west;
    # 24 to 45 levels 4 to 25 with it in their south-east; the root both.
    far = ["[M2]", "#R B3/S23", "*$"] + [f"{k} {k - 3} 0 0 0" for k in range(4, 26)] + \
          ["4 0 0 0 1"] + [f"{k} 0 0 0 {k + 19}" for k in range(5, 26)] + ["26 23 0 0 45"]
    side = 2**25 + (2**25 - 16) + 8 + 1  # from the first cell to the last, both in
    refused("\n".join(far) + "\n", "two cells 2^26 apart", f"a pattern of {side}x{side} cells is out of range")
    cells = "\n".join(["[M2]", "#R B3/S23:P16,16", leaf, "4 0 0 0 1", "5 0 0 0 2"]) + "\n"
    refused(cells, "a pattern outside its grid", "lies outside the grid (16x16")
    refused(cells.replace(":P16,16", ""), "... and outside --size", "lies outside the grid (8x8", ["--size", "8"])
    code, out, err = life(["--in", path("bad.mc"), "--size", "64", "--steps", "0", "--json"])
    expect(code == 0 and json.loads(out)["population"] == 5, "the same, on a grid that holds it: read", err.strip())

    # A few lines whose tree holds 2^30 live cells: a full leaf, then
    # levels 4 to 15 each four of the one below (a 32768^2 box). Larger
    # than its grid, it is refused from the tree's box, within a few MiB
    # more than a run on a tiny grid (the program and its runtimes: about
    # 70 MiB, more under meson's MALLOC_PERTURB_); the cells alone would
    # take 1 GiB.
    base = life_peak(["--dims", "2", "--size", "4", "--steps", "0"])[2]
    full = "$".join(["********"] * 8) + "$"
    dense = ["[M2]", "#R B3/S23:T64,48", full] + [f"{k} {k - 3} {k - 3} {k - 3} {k - 3}" for k in range(4, 16)]
    for text, args, grid in (("\n".join(dense) + "\n", [], "64x48"),
                             ("\n".join(dense).replace(":T64,48", "") + "\n", ["--size", "100x80"], "100x80")):
        open(path("dense.mc"), "w").write(text)
        what = f"a {len(text)}-byte macrocell of 2^30 live cells on a {grid} grid"
        code, err, mib = life_peak(["--in", path("dense.mc"), "--steps", "1", *args])
        expect(code == 2 and err.strip().endswith(f"the pattern (32768x32768) is larger than the grid ({grid})") and
               len(err.strip().splitlines()) == 1, f"{what}: refused in one line", f"(exit {code}: {err.strip()!r})")
        expect(mib <= base + 16, f"{what}: within 16 MiB of a run on a 4x4 grid ({base:.0f} MiB)",
               f"(peak {mib:.0f} MiB)")
finish()
