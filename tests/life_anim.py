#!/usr/bin/env python3
"""life_anim.py LOCKSTEP - Life runs as pictures (issue 17, Life):

- `--every K --out run.gif` writes an animated GIF of every K-th
  generation: the GIF is parsed here block by block (and its LZW data
  decoded), so the frame count, the screen size (--scale), the looping
  extension, each frame's delay and each frame's cells are read back and
  compared with the grid at that generation (a native file of a run of
  that many generations);
- `--every K --frames DIR` writes a numbered PNG a sample: the PNGs are
  decoded here (zlib, PNG's row filters), their cells compared likewise,
  and their tEXt chunks read back: Rule (with the grid's suffix),
  Generation, and Seed (a random grid) or Source (an input file); --out
  x.png carries them too;
- memory stays bounded whatever the number of frames: a run of 2001
  frames peaks within a few MiB of one of 201;
- an interrupted run (SIGINT, exit 130) leaves no GIF and no frames, and
  nothing of either in their directories; DIR stays as it was;
- refusals before any computation (exit 2, one line): a GIF or frames
  without --every, a 3D grid, a GIF wider than 65535 pixels, DIR not
  empty or not a directory or in a directory that does not exist, a GIF
  read as input.

Built without giflib (-Dgif=disabled), the GIF half is replaced by the
check of its refusal; everything else runs."""
import os
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

from harness import expect, finish, native_read

LOCKSTEP = os.path.abspath(sys.argv[1])


def life(args, timeout=300):
    r = subprocess.run([LOCKSTEP, "life", "--quiet", *args], capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stdout, r.stderr


def peak_mib(args):
    """(exit code, peak resident memory in MiB) of `lockstep life ARGS`.
    Under AddressSanitizer, without its quarantine of freed memory, which
    would count every frame's freed buffers as still resident."""
    asan = (os.environ.get("ASAN_OPTIONS", "") + ":quarantine_size_mb=0").lstrip(":")
    p = subprocess.Popen([LOCKSTEP, "life", "--quiet", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         env=dict(os.environ, ASAN_OPTIONS=asan))
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = 0  # reaped here
    return os.waitstatus_to_exitcode(status), usage.ru_maxrss / 1024


def refused(args, what, says):
    # Long enough that a run not refused times out, within --every 1's
    # bound of 2^24 populations (a longer series is refused for that).
    code, _, err = life([*args, "--steps", "16000000"], timeout=60)
    lines = err.strip().splitlines()
    expect(code == 2 and len(lines) == 1 and says in err, f"{what}: refused in one line saying '{says}'",
           f"(exit {code}: {err.strip()!r})")


# ---- GIF, read here ------------------------------------------------------------

def lzw_decode(data, min_size, count):
    """GIF's variable-length LZW: `count` pixel indices."""
    clear, end = 1 << min_size, (1 << min_size) + 1
    out, bit, nbits = [], 0, 0
    size = min_size + 1
    table = None
    prev = None
    acc = 0
    pos = 0
    while len(out) < count:
        while nbits < size:
            if pos >= len(data):
                return out
            acc |= data[pos] << nbits
            pos += 1
            nbits += 8
        code = acc & ((1 << size) - 1)
        acc >>= size
        nbits -= size
        if code == clear:
            table = [[i] for i in range(clear)] + [None, None]
            size, prev = min_size + 1, None
            continue
        if code == end:
            break
        if prev is None:
            entry = table[code]
        elif code < len(table):
            entry = table[code]
            table.append(prev + entry[:1])
        else:
            entry = prev + prev[:1]
            table.append(entry)
        out.extend(entry)
        prev = entry
        if len(table) == (1 << size) and size < 12:
            size += 1
    return out


def read_gif(path):
    """{'size': (w, h), 'colours': [...], 'loop': bool, 'frames': [(delay, pixels)], 'comments': [...]}."""
    d = open(path, "rb").read()
    assert d[:6] == b"GIF89a", d[:6]
    w, h, flags = struct.unpack_from("<HHB", d, 6)
    pos = 13
    colours = []
    if flags & 0x80:
        n = 2 << (flags & 7)
        colours = [tuple(d[pos + 3 * i:pos + 3 * i + 3]) for i in range(n)]
        pos += 3 * n
    gif = {"size": (w, h), "colours": colours, "loop": False, "frames": [], "comments": []}
    delay = None

    def sub_blocks(p):
        body = b""
        while d[p]:
            body += d[p + 1:p + 1 + d[p]]
            p += 1 + d[p]
        return body, p + 1

    while True:
        tag = d[pos]
        if tag == 0x3B:  # trailer
            gif["trailer"] = pos == len(d) - 1
            return gif
        if tag == 0x21:
            label = d[pos + 1]
            body, pos = sub_blocks(pos + 2)
            if label == 0xF9:
                delay = struct.unpack_from("<H", body, 1)[0]
            elif label == 0xFF and body[:11] == b"NETSCAPE2.0":
                gif["loop"] = body[11:14] == b"\x01\x00\x00"
            elif label == 0xFE:
                gif["comments"].append(body.decode("latin-1"))
        elif tag == 0x2C:
            x, y, fw, fh, fflags = struct.unpack_from("<HHHHB", d, pos + 1)
            pos += 10
            min_size = d[pos]
            body, pos = sub_blocks(pos + 1)
            gif["frames"].append((delay, (fw, fh), lzw_decode(body, min_size, fw * fh)))
            delay = None
        else:
            raise ValueError("unexpected block 0x%02x at %d" % (tag, pos))


# ---- PNG, read here --------------------------------------------------------------

def read_png(path):
    """(width, height, rows of grey levels for 1-bit grey, {tEXt key: value})."""
    d = open(path, "rb").read()
    assert d[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, text = 8, b"", {}
    while pos < len(d):
        n, kind = struct.unpack_from(">I4s", d, pos)
        body = d[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack_from(">IIBB", body)
            assert (depth, colour) == (1, 0), (depth, colour)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"tEXt":
            key, value = body.split(b"\0", 1)
            text[key.decode("latin-1")] = value.decode("latin-1")
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = (w + 7) // 8
    rows, prev = [], bytes(stride)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 1] if i else 0
            b, c = prev[i], prev[i - 1] if i else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = bytes(line)
        rows.append([line[x // 8] >> (7 - x % 8) & 1 for x in range(w)])
    return w, h, rows, text


def read_native(path):
    """The cells of a native 2D .lsgrid file: rows of 0/1."""
    _, (nx, ny, _), cells = native_read(path)
    return [cells[y * nx:(y + 1) * nx] for y in range(ny)]


def grids_at(d, args, generations):
    """The grid of the run `args` at each of the generations (native files)."""
    out = {}
    for g in generations:
        path = os.path.join(d, f"at-{g}.lsgrid")
        code, _, err = life([*args, "--steps", str(g), "--out", path, "--backend", "openmp"])
        out[g] = read_native(path) if code == 0 else None
    return out


def scaled(cells, scale):
    """Rows of pixels, 1 alive: each cell scale x scale."""
    return [[c for c in row for _ in range(scale)] for row in cells for _ in range(scale)]


code, _, err = life(["--dims", "2", "--size", "8", "--steps", "1", "--every", "1", "--out", "/tmp/x.gif"])
HAVE_GIF = "without giflib" not in err

with tempfile.TemporaryDirectory() as d:
    RUN = ["--rule", "B3/S23:P37,23", "--seed", "5", "--density", "0.4"]
    at = grids_at(d, RUN, [0, 4, 8, 12])

    if HAVE_GIF:
        # ---- the GIF ----
        for scale in (1, 3):
            gif = os.path.join(d, f"run{scale}.gif")
            code, out, err = life([*RUN, "--steps", "14", "--every", "4", "--out", gif, "--scale", str(scale)])
            if not expect(code == 0 and os.path.exists(gif), f"GIF at scale {scale}: written", err):
                continue
            g = read_gif(gif)
            frames = g["frames"]
            expect(len(frames) == 4, f"GIF at scale {scale}: 4 frames (generations 0, 4, 8, 12 of 14)",
                   f"({len(frames)})")
            expect(g["size"] == (37 * scale, 23 * scale), f"GIF at scale {scale}: the screen is the grid scaled",
                   str(g["size"]))
            expect(g["loop"] and g.get("trailer"), f"GIF at scale {scale}: loops, ends in its trailer")
            expect(g["colours"][:2] == [(255, 255, 255), (0, 0, 0)], "GIF: white dead, black alive",
                   str(g["colours"][:2]))
            expect(all(f[0] == 10 for f in frames), "GIF: each frame shows 10/100 s", str([f[0] for f in frames]))
            expect(any("rule B3/S23:P37,23, seed 5" in c for c in g["comments"]), "GIF: its comment says the run",
                   str(g["comments"]))
            for k, gen in enumerate((0, 4, 8, 12)):
                if k < len(frames) and at[gen]:
                    want = [p for row in scaled(at[gen], scale) for p in row]
                    expect(frames[k][2] == want, f"GIF at scale {scale}: frame {k} is generation {gen}, cell by cell")
    else:
        refused([*RUN, "--every", "1", "--out", os.path.join(d, "x.gif")], "a GIF without giflib", "without giflib")

    # ---- the PNG frames ----
    frames = os.path.join(d, "frames")
    code, out, err = life([*RUN, "--steps", "12", "--every", "4", "--frames", frames, "--scale", "2"])
    names = sorted(os.listdir(frames)) if os.path.isdir(frames) else []
    expect(code == 0 and names == ["frame-%06d.png" % i for i in range(4)], "--frames: four numbered PNGs",
           f"{err} {names}")
    for k, gen in enumerate((0, 4, 8, 12)):
        if k >= len(names):
            break
        w, h, rows, text = read_png(os.path.join(frames, names[k]))
        expect((w, h) == (74, 46), f"frame {k}: the grid at scale 2", str((w, h)))
        if at[gen]:
            expect(rows == [[1 - p for p in row] for row in scaled(at[gen], 2)],
                   f"frame {k}: generation {gen}, cell by cell (black alive)")
        expect(text.get("Rule") == "B3/S23:P37,23" and text.get("Generation") == str(gen) and
               text.get("Seed") == "5" and text.get("Software") == "lockstep life" and text.get("Scale") == "2",
               f"frame {k}: tEXt Rule, Generation, Seed, Software, Scale", str(text))
    # An empty DIR that exists is filled; from a file, Source instead of Seed.
    rle = os.path.join(d, "glider.rle")
    open(rle, "w").write("x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n")
    empty = os.path.join(d, "empty")
    os.mkdir(empty)
    code, out, err = life(["--in", rle, "--size", "10", "--steps", "2", "--every", "2", "--frames", empty + "/"])
    names = sorted(os.listdir(empty))
    expect(code == 0 and names == ["frame-000000.png", "frame-000001.png"], "--frames into an empty directory",
           f"{err} {names}")
    if names:
        text = read_png(os.path.join(empty, names[1]))[3]
        expect(text.get("Source") == rle and "Seed" not in text and text.get("Rule") == "B3/S23:T10,10" and
               text.get("Generation") == "2", "a frame of a file's run: tEXt Source, no Seed", str(text))
    # --out x.png carries the chunks too.
    png = os.path.join(d, "last.png")
    life([*RUN, "--steps", "3", "--out", png])
    text = read_png(png)[3] if os.path.exists(png) else {}
    expect(text.get("Generation") == "3" and text.get("Seed") == "5" and text.get("Rule") == "B3/S23:P37,23",
           "--out x.png: tEXt Rule, Generation, Seed", str(text))

    # ---- bounded memory: frames are streamed, not kept ----
    def frames_peak(n):
        target = os.path.join(d, f"mem{n}")
        gif = ["--out", os.path.join(d, f"mem{n}.gif")] if HAVE_GIF else []
        return peak_mib(["--dims", "2", "--size", "256", "--steps", str(n), "--every", "1", "--frames", target,
                         "--backend", "openmp", *gif])
    (c1, small), (c2, large) = frames_peak(200), frames_peak(2000)
    expect(c1 == 0 and c2 == 0 and large < small + 8,
           "2001 frames of 256x256 in about the memory of 201 (streamed)", f"({small:.1f} and {large:.1f} MiB)")

    # ---- an interrupted run leaves nothing ----
    for existing in (False, True):
        target = os.path.join(d, f"stop{int(existing)}")
        if existing:
            os.mkdir(target)
        gif = os.path.join(d, f"stop{int(existing)}.gif")
        before = set(os.listdir(d))
        p = subprocess.Popen([LOCKSTEP, "life", "--quiet", "--dims", "2", "--size", "512", "--steps", "16000000",
                              "--every", "1", "--frames", target, "--backend", "openmp"] +
                             (["--out", gif] if HAVE_GIF else []),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        # Wait until frames are being written (in the temporary directory).
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            tmps = [n for n in os.listdir(d) if n.startswith(f".stop{int(existing)}.frames-")
                    and os.path.isdir(os.path.join(d, n))]  # not its lock file
            if tmps and len(os.listdir(os.path.join(d, tmps[0]))) >= 3:
                break
            time.sleep(0.05)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=120)
        expect(p.returncode == 130, f"interrupted ({'existing' if existing else 'new'} DIR): exit 130",
               f"(got {p.returncode}: {err.decode()[-300:]})")
        after = set(os.listdir(d))
        expect(after == before, f"interrupted ({'existing' if existing else 'new'} DIR): no GIF, no frames, "
               "no temporary file or directory left", str(after ^ before))
        expect(os.path.isdir(target) == existing and (not existing or os.listdir(target) == []),
               f"interrupted ({'existing' if existing else 'new'} DIR): DIR as it was")

    # ---- refusals before any computation ----
    full = os.path.join(d, "full")
    os.mkdir(full)
    open(os.path.join(full, "old.png"), "w").write("x")
    refused(["--dims", "2", "--every", "1", "--frames", full], "--frames into a directory with files", "not empty")
    refused(["--dims", "2", "--every", "1", "--frames", rle], "--frames naming a file", "not a directory")
    refused(["--dims", "2", "--every", "1", "--frames", os.path.join(d, "no", "such")], "--frames in a missing "
            "directory", "cannot make a directory")
    refused(["--dims", "2", "--frames", os.path.join(d, "f2")], "--frames without --every", "give --every K")
    refused(["--dims", "2", "--every", "1", "--frames", os.path.join(empty, ".")], "--frames DIR/.",
            "by its own name")
    refused(["--dims", "3", "--every", "1", "--frames", os.path.join(d, "f3")], "--frames of a 3D grid",
            "this grid is 3D")
    if HAVE_GIF:
        refused(["--dims", "2", "--out", os.path.join(d, "a.gif")], "a GIF without --every", "give --every K")
        refused(["--dims", "3", "--every", "1", "--out", os.path.join(d, "a.gif")], "a GIF of a 3D grid",
                "the gif format holds 2D animations; this grid is 3D")
        refused(["--dims", "2", "--size", "40000", "--scale", "2", "--every", "1", "--out",
                 os.path.join(d, "a.gif")], "a GIF wider than 65535 pixels", "at most 65535 pixels")
        refused(["--dims", "2", "--every", "1", "--out", os.path.join(d, "no", "a.gif")], "a GIF in a missing "
                "directory", "a.gif")
    open(os.path.join(d, "in.gif"), "wb").write(b"GIF89a")
    refused(["--in", os.path.join(d, "in.gif")], "a GIF as input", "the gif format is written only")
    expect(not [n for n in os.listdir(d) if n.startswith(".")], "no temporary file left anywhere",
           str([n for n in os.listdir(d) if n.startswith(".")]))

finish()
