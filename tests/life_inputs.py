#!/usr/bin/env python3
"""life_inputs.py LOCKSTEP - what `lockstep life` accepts, and what it
refuses before any computation (issue 14, items 3, 7, 9, 11, 12 and 13):

- the native .lsgrid header is covered by its check (a changed rule or
  generation is refused), its trailer records the run's grid digest, a
  file of the layout before (lslife2) still reads as the same grid, and a
  file of the first format (lslife1) is refused by name;
- an output that cannot be written (no such directory, a format that
  cannot hold the grid's shape) is refused before the first generation,
  whether the shape comes from the options or from the input file;
- inputs that claim more than they hold are refused within bounded memory
  and time (a PNG whose header claims 40000x40000 cells, a PKU header on a
  pipe with no cells behind it, /dev/zero read as RLE or .cells), each
  measured through the peak resident memory of the run;
- a generation count that would pass 2^64 - 1 is refused;
- a series of --every populations longer than 2^24 is refused at once,
  naming --steps, --every, the limit and the least --every that fits
  (issue 25, item 11);
- messages that name the file once (no garbled repetition);
- holes in the options and the RLE reader (--at outside the grid or with
  no pattern, --size 8x, unknown RLE header keys, a NUL byte, a 2D rule on
  a 3D grid);
- a PNG whose pixels are not its Scale chunk times the grid its Rule
  chunk declares (resized since it was written) is refused, not read as
  another grid; a Scale chunk after the image data counts as one before
  it (issue 34, item 1).

Every refusal: exit 2, one line on stderr, no output file, nothing left in
the directory. "Before any computation" is shown by asking for so many
generations that the run would take minutes, under a short timeout."""
import os
import random
import struct
import subprocess
import sys
import tempfile
import time
import zlib

from harness import expect, finish, fnv1a, native2_bytes, native_read, packed_cells

LOCKSTEP = os.path.abspath(sys.argv[1])
QUICK = 30  # seconds: a refusal comes at once; a run that computed first would take far longer
LONG = ["--steps", "1000000000"]  # generations no test machine finishes within QUICK


def run(args, cwd=None, stdin=None, timeout=QUICK, env=None):
    """Runs `lockstep life ARGS`: (exit code, stdout, stderr, peak resident
    memory in MiB); exit code None when it ran past the timeout."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen([LOCKSTEP, "life", "--quiet", *args], cwd=cwd, stdout=out, stderr=err, env=env,
                             stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL)
        if stdin is not None:
            try:
                p.stdin.write(stdin)
            except BrokenPipeError:
                pass  # it refused before reading everything
            p.stdin.close()
        deadline = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                p.kill()
                pid, status, usage = os.wait4(p.pid, 0)
                status = None
                break
            time.sleep(0.02)
        p.returncode = 0  # reaped here; keep Popen from waiting again
        out.seek(0)
        err.seek(0)
        code = None if status is None else os.waitstatus_to_exitcode(status)
        return code, out.read().decode(errors="replace"), err.read().decode(errors="replace"), usage.ru_maxrss / 1024


def refused(d, args, what, message=None, cwd=None, stdin=None, max_mib=None, env=None):
    """A refusal: exit 2 within QUICK seconds, one line (exactly `message`
    when given), no new file in d; and at most max_mib MiB of memory."""
    before = set(os.listdir(d))
    code, _, err, mib = run(args, cwd=cwd, stdin=stdin, env=env)
    lines = err.strip().splitlines()
    expect(code == 2, f"{what}: exit 2", f"(got {code}: {err.strip()})")
    expect(len(lines) == 1, f"{what}: one line on stderr", f"(got {lines})")
    if message is not None:
        expect(err.strip() == "lockstep: " + message, f"{what}: the message", f"(got {err.strip()!r})")
    expect(set(os.listdir(d)) == before, f"{what}: nothing written", f"({set(os.listdir(d)) - before})")
    if max_mib is not None:
        expect(mib <= max_mib, f"{what}: at most {max_mib} MiB of memory", f"(peak {mib:.0f} MiB)")
    return err.strip()


def accepted(args, what, cwd=None, stdin=None):
    code, out, err, _ = run(args, cwd=cwd, stdin=stdin, timeout=300)
    expect(code == 0, f"{what}: exit 0", f"(got {code}: {err.strip()})")
    return out


GLIDER = "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n"
GUN = """#N Gosper glider gun
x = 36, y = 9, rule = B3/S23
24bo11b$22bobo11b$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o14b$2o8b
o3bob2o4bobo11b$10bo5bo7bo11b$11bo3bo20b$12b2o22b!
"""


def write(d, name, data):
    path = os.path.join(d, name)
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    return path


# ---- the native format's header (item 3) ------------------------------------

def test_native_header(d):
    grid = os.path.join(d, "g.lsgrid")
    out = accepted(["--dims", "2", "--size", "40x30", "--steps", "0", "--out", grid, "--json"], "writing a native grid")
    data = open(grid, "rb").read()
    expect(data[:8] == b"lslife3\n", "a native grid starts with lslife3")
    digest = out.split('"grid_digest":"')[1][:16] if '"grid_digest":"' in out else "?"
    expect(len(data) == 40 + 30 * 5 + 16 and data[-16:-8] == bytes.fromhex(digest)[::-1],
           "rows of 5 bytes, then the run's grid digest in the trailer (docs/life.md)", f"({len(data)} bytes)")
    accepted(["--in", grid, "--steps", "1"], "the grid reads back")
    for what, offset, value in (("birth mask 8 -> 1 (B0)", 24, 1), ("survive mask", 28, 0),
                                ("generation", 32, 7)):
        bad = bytearray(data)
        struct.pack_into("<I" if offset < 32 else "<Q", bad, offset, value)
        path = write(d, "bad.lsgrid", bytes(bad))
        msg = refused(d, ["--in", path, "--steps", "1"], f"a native header with its {what} changed")
        expect("damaged" in msg, f"a changed {what} is reported as damage", msg)
        os.remove(path)
    # A damaged size field is said to be one, not truncation (issue 34,
    # item 17): the file's length and its trailer's check agree on the
    # size the header should say. A file cut short is still truncated.
    for what, offset, value, says in (("ny 30 -> 31", 16, 31, "its ny is 31, but the file's length and its check say 30"),
                                      ("ny 30 -> 3000", 16, 3000, "its ny is 3000"),
                                      ("nx 40 -> 33", 12, 33, "its nx is 33, but the file's length and its check say 40"),
                                      ("nx 40 -> 200", 12, 200, "its nx is 200")):
        bad = bytearray(data)
        struct.pack_into("<I", bad, offset, value)
        path = write(d, "bad.lsgrid", bytes(bad))
        msg = refused(d, ["--in", path, "--steps", "1"], f"a native header with its {what}")
        expect("damaged header" in msg and says in msg and "truncated" not in msg,
               f"a native header's {what} is said to be damage, not truncation", msg)
        os.remove(path)
    # Through a pipe only reading tells the length, and not which is wrong.
    bad = bytearray(data)
    struct.pack_into("<I", bad, 16, 31)
    msg = refused(d, ["--in", "/dev/stdin", "--format", "native", "--steps", "1"], "a piped native header with its ny "
                  "30 -> 31", stdin=bytes(bad))
    expect("truncated, or its header's size is damaged" in msg, "... names both truncation and a damaged size", msg)
    path = write(d, "cut.lsgrid", data[:-30])
    msg = refused(d, ["--in", path, "--steps", "1"], "a native grid cut short")
    expect("truncated" in msg and "damaged" not in msg, "a native grid cut short is said to be truncated", msg)
    os.remove(path)
    # The same grid in the layout before (lslife2: rows not padded, an
    # FNV-1a checksum of every byte): read as the same grid.
    shape, size, cells = native_read(grid)
    old = write(d, "old2.lsgrid", native2_bytes(shape, size, 8, 12, 0, cells))
    back = accepted(["--in", old, "--steps", "0", "--json"], "a native grid of the layout before (lslife2)")
    expect(f'"grid_digest":"{digest}"' in back, "an lslife2 file reads as the same grid", back[-200:])
    bad = bytearray(open(old, "rb").read())
    bad[50] ^= 2
    write(d, "old2.lsgrid", bytes(bad))
    msg = refused(d, ["--in", old, "--steps", "1"], "an lslife2 file with a changed cell")
    expect("damaged" in msg, "a changed cell of an lslife2 file is reported as damage", msg)
    # lslife2's checksum covers every byte, so which of its header and its
    # length is wrong is not told: both are named.
    bad = bytearray(open(old, "rb").read())
    struct.pack_into("<I", bad, 16, 31)
    write(d, "old2.lsgrid", bytes(bad))
    msg = refused(d, ["--in", old, "--steps", "1"], "an lslife2 file whose ny changed")
    expect("truncated, or its header's size is damaged" in msg, "... names both truncation and a damaged size", msg)
    os.remove(old)
    # The same grid in the first version's layout (checksum = the grid digest).
    nx, ny = 5, 4
    cells = [int((i * 7) % 3 == 0) for i in range(nx * ny)]
    digest = fnv1a(struct.pack("<QQQ", nx, ny, 1) + packed_cells(cells))
    v1 = b"lslife1\n" + struct.pack("<IIIIIIQ", 2, nx, ny, 1, 8, 12, 0) + packed_cells(cells) + struct.pack("<Q", digest)
    path = write(d, "old.lsgrid", v1)
    msg = refused(d, ["--in", path, "--steps", "1"], "a native grid of the first format (lslife1)")
    expect("lslife1" in msg, "the refusal names the old format", msg)
    os.remove(path)


# ---- outputs checked before computing (item 7) -------------------------------

def test_outputs_first(d):
    refused(d, ["--dims", "2", "--size", "512", *LONG, "--out", os.path.join(d, "nonexist", "x.lsgrid")],
            "--out in a directory that does not exist")
    refused(d, ["--size", "32x16x8", *LONG, "--out", os.path.join(d, "o.data")], "a PKU output of a non-cube grid")
    refused(d, ["--dims", "2", "--size", "16", *LONG, "--out", os.path.join(d, "o.pku")], "a PKU output of a 2D grid")
    for ext in ("rle", "cells", "png"):
        refused(d, ["--dims", "3", "--size", "16", *LONG, "--out", os.path.join(d, "o." + ext)], f"a 3D grid as .{ext}")
    refused(d, ["--dims", "2", "--size", "1048576x4", "--scale", "4096", *LONG, "--out", os.path.join(d, "o.png")],
            "a PNG wider than PNG allows (2^20 cells at scale 4096)")
    refused(d, ["--dims", "2", "--size", "16", *LONG, "--out", os.path.join(d, "o.xyz")], "an unknown output extension")
    # The shape known only once the input is read.
    pku = write(d, "in.data", struct.pack("<QQ", 16, 0) + bytes(16 ** 3))
    for ext in ("rle", "cells", "png"):
        refused(d, ["--in", pku, *LONG, "--out", os.path.join(d, "o." + ext)], f"a PKU input written as .{ext}")
    rle = write(d, "glider.rle", GLIDER)
    refused(d, ["--in", rle, "--size", "64", *LONG, "--out", os.path.join(d, "o.data")],
            "a 2D pattern written as PKU")
    refused(d, [pku, os.path.join(d, "nonexist", "o.data"), "1000000000"], "IN OUT N with OUT in no directory")
    # An output extension of no format is refused, naming the formats,
    # with an input file too: it was written in the input's format under a
    # name that says another (issue 27: RLE text in run.mc). A name with no
    # extension (the contest's OUT) still takes the input's format.
    err = refused(d, ["--in", rle, "--size", "64", *LONG, "--out", os.path.join(d, "run.xyz")],
                  "an RLE input written to run.xyz")
    expect("cannot tell the format from the name" in err and ".lsgrid" in err and ".rle" in err and "--format" in err,
           "an output extension of no format: the message names the formats' extensions", err)
    plain = os.path.join(d, "OUT")
    accepted(["--in", rle, "--size", "64", "--steps", "1", "--out", plain], "an RLE input written to OUT")
    expect(os.path.exists(plain) and "x = 64, y = 64" in open(plain).read(), "OUT without an extension: RLE, "
           "the input's format")
    os.remove(plain)
    # The contest's form writes OUT in IN's format whatever its name.
    accepted([pku, os.path.join(d, "out.txt"), "1"], "IN OUT N with OUT named out.txt")
    expect(os.path.exists(os.path.join(d, "out.txt")) and os.path.getsize(os.path.join(d, "out.txt")) == 16 + 16 ** 3,
           "IN OUT N: out.txt is a PKU file, as IN")
    os.remove(os.path.join(d, "out.txt"))
    os.remove(pku)
    os.remove(rle)
    # A grid too large for this machine's memory is bad input, like one too
    # large for a device (2^40 cells: 128 GiB, twice that on the CPU).
    # (AddressSanitizer, of tools/test.sh's build, aborts on such a request
    # unless told to fail it as the C library does.)
    if os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") < 2**38:
        asan = (os.environ.get("ASAN_OPTIONS", "") + ":allocator_may_return_null=1").lstrip(":")
        msg = refused(d, ["--dims", "2", "--size", "1048576", "--steps", "1"], "a 2^40-cell grid on this machine",
                      env=dict(os.environ, ASAN_OPTIONS=asan))
        # In the unit a person reads, in plain English (issue 34, item 17:
        # "needs 131072.0 MiB ...; this machine has not that much memory").
        expect("needs 128.0 GiB" in msg and "does not have that much free memory" in msg,
               "... saying it needs 128.0 GiB, more free memory than the machine has", msg)


# ---- bounded memory and time (item 9) --------------------------------------

def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def big_png(side):
    """A white side x side 1-bit greyscale PNG: a few hundred KB."""
    row = b"\x00" + b"\xff" * ((side + 7) // 8)
    z = zlib.compressobj(9)
    parts = [z.compress(row * 1000) for _ in range(side // 1000)] + [z.compress(row * (side % 1000)), z.flush()]
    ihdr = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", b"".join(parts))
            + png_chunk(b"IEND", b""))


def test_bounded(d):
    # The peak of a run on a 4x4 grid (the program, its libraries and
    # runtimes: about 70 MiB, more under meson's MALLOC_PERTURB_), and the
    # most a refusal may add to it: far below the gigabytes each claims.
    base = run(["--dims", "2", "--size", "4", "--steps", "0"])[3]
    limit = int(base) + 50
    png = write(d, "big.png", big_png(40000))
    msg = refused(d, ["--in", png, "--steps", "1"], "a PNG of 40000x40000 cells (above 2^30)", max_mib=limit)
    expect("2^30" in msg, "the PNG refusal states the limit", msg)
    os.remove(png)
    # A text chunk after the image data whose length field claims 1 GiB
    # (the file ends there): libpng allocates a chunk's length before
    # reading it, unless its allocations are bounded.
    small = png_file([[1, 0, 1, 0]] * 4, 1, {"Rule": "B3/S23"})
    png = write(d, "long_chunk.png", small[:-12] + struct.pack(">I", 1 << 30) + b"tEXtScale\0" + b"4" * 100)
    refused(d, ["--in", png, "--steps", "1"], "a PNG whose last text chunk claims 1 GiB", max_mib=limit)
    os.remove(png)
    msg = refused(d, ["--in", "/dev/stdin", "--format", "pku", "--steps", "1"],
                  "a PKU header on a pipe claiming M = 2048, no cells", stdin=struct.pack("<QQ", 2048, 0), max_mib=limit)
    expect("truncated" in msg, "the pipe's refusal says truncated", msg)
    refused(d, ["--in", "/dev/stdin", "--format", "pku", "--steps", "1"],
            "a PKU header on a pipe claiming M = 2048, 1 MiB of cells", stdin=struct.pack("<QQ", 2048, 0)
            + bytes(1 << 20), max_mib=limit)
    for fmt in ("rle", "cells"):
        msg = refused(d, ["--in", "/dev/zero", "--format", fmt, "--steps", "1"], f"/dev/zero read as {fmt}",
                      max_mib=limit)
        expect("NUL" in msg, f"/dev/zero as {fmt}: the refusal names the NUL byte", msg)
    # A long .cells line is refused as soon as it passes the widest row.
    refused(d, ["--in", "/dev/stdin", "--format", "cells", "--steps", "1"], "a .cells line of 4 MiB",
            stdin=b"." * (4 << 20), max_mib=limit)
    # Piped PKU data that is all there still reads, to the same grid as the
    # file (M = 200: 40000 rows, two blocks of rows as they arrive).
    cells = random.Random(5).randbytes(200 ** 3).translate(bytes(b & 1 for b in range(256)))
    data = struct.pack("<QQ", 200, 3) + cells
    path = write(d, "ten.data", data)
    want = accepted(["--in", path, "--steps", "4", "--json"], "a PKU file")
    got = accepted(["--in", "/dev/stdin", "--format", "pku", "--steps", "4", "--json"], "the same PKU on a pipe",
                   stdin=data)
    digest = want.split('"grid_digest":')[1][:20] if '"grid_digest":' in want else "?"
    expect(digest != "?" and digest in got, "a piped PKU grid equals the file's", f"({want} / {got})")
    refused(d, ["--in", "/dev/stdin", "--format", "pku"], "a piped PKU with a bad byte in its last row",
            stdin=data[:-1] + b"\x05")
    refused(d, ["--in", "/dev/stdin", "--format", "pku"], "a piped PKU with a byte too many", stdin=data + b"\x00")
    os.remove(path)
    # The same for the native format: a header claiming 2^32 cells, then
    # nothing; and a whole grid of three blocks of rows through a pipe.
    head = b"lslife2\n" + struct.pack("<IIIIIIQ", 2, 65536, 65536, 1, 8, 12, 0)
    msg = refused(d, ["--in", "/dev/stdin", "--format", "native"], "a native header on a pipe claiming 65536^2 cells",
                  stdin=head, max_mib=limit)
    expect("truncated" in msg, "the native pipe's refusal says truncated", msg)
    path = os.path.join(d, "wide.lsgrid")
    want = accepted(["--dims", "2", "--size", "3000x6000", "--steps", "5", "--out", path, "--json"], "a 3000x6000 grid")
    data = open(path, "rb").read() if os.path.exists(path) else b""
    got = accepted(["--in", "/dev/stdin", "--format", "native", "--steps", "0", "--json"], "the same grid on a pipe",
                   stdin=data)
    digest = want.split('"grid_digest":')[1][:20] if '"grid_digest":' in want else "?"
    expect(digest != "?" and digest in got, "a piped native grid equals the file's", f"({want} / {got})")
    refused(d, ["--in", "/dev/stdin", "--format", "native"], "a piped native grid with a changed cell",
            stdin=data[:100] + bytes([data[100] ^ 4]) + data[101:])
    os.remove(path)


# ---- a PNG's text chunks against its pixels (issue 34, item 1) ---------------

def png_file(cells, scale, before, after=None):
    """A 1-bit grey PNG of `cells` (rows of 0/1, 1 black) at `scale` pixels
    a cell, as lockstep writes one, with tEXt chunks `before` the image
    data and `after` it (dicts)."""
    width = len(cells[0]) * scale
    raw = b""
    for row in cells:
        line = bytearray(b"\xff" * ((width + 7) // 8))
        for x in range(width):
            if row[x // scale]:
                line[x // 8] &= ~(0x80 >> (x % 8)) & 0xff
        raw += (b"\x00" + bytes(line)) * scale
    ihdr = struct.pack(">IIBBBBB", width, len(cells) * scale, 1, 0, 0, 0, 0)

    def text(chunks):
        return b"".join(png_chunk(b"tEXt", k.encode() + b"\0" + v.encode()) for k, v in (chunks or {}).items())
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + text(before) + png_chunk(b"IDAT", zlib.compress(raw))
            + text(after) + png_chunk(b"IEND", b""))


def test_png_chunks(d):
    rng = random.Random(34)
    cells = [[int(rng.random() < 0.4) for _ in range(64)] for _ in range(48)]
    population = sum(map(sum, cells))
    said = {"Software": "lockstep life", "Rule": "B3/S23:T64,48", "Generation": "0", "Scale": "4"}
    no_scale = {k: v for k, v in said.items() if k != "Scale"}

    def read(name, data, what, args=()):
        path = write(d, name, data)
        code, out, err, _ = run(["--in", path, "--steps", "0", "--json", "--backend", "openmp", *args])
        ok = code == 0 and '"population":%d,' % population in out and '"size":[64,48,1]' in out
        expect(ok, f"{what}: read as the 64x48 grid of {population} cells", f"(exit {code}: {err.strip()} {out})")
        os.remove(path)

    def refused_png(name, data, what, says, args=()):
        path = write(d, name, data)
        msg = refused(d, ["--in", path, "--steps", "1", *args], what)
        expect(all(s in msg for s in says), f"{what}: the refusal says {says}", msg)
        os.remove(path)

    read("as_written.png", png_file(cells, 4, said), "a PNG at scale 4 as lockstep writes it")
    # Resized to a pixel a cell, its chunks kept: read before as a 16x12
    # pattern on the 64x48 grid (about a sixteenth of the cells).
    refused_png("resized.png", png_file(cells, 1, said), "a scale-4 PNG resized to a pixel a cell",
                ["64x48 pixels", "64x48 grid", "4 pixels a cell", "256x192 pixels"])
    refused_png("cropped.png", png_file([row[:60] for row in cells], 4, said), "a scale-4 PNG cropped to 60x48 cells",
                ["240x192 pixels", "64x48 grid"])
    refused_png("uneven.png", png_file(cells, 1, {"Scale": "3"}), "a PNG of 64x48 pixels at Scale 3",
                ["64x48 pixels", "3 pixels a side"])
    # The chunks after the image data say as much as those before it.
    read("scale_after.png", png_file(cells, 4, no_scale, {"Scale": "4"}), "a PNG whose Scale chunk follows the data")
    read("all_after.png", png_file(cells, 4, None, said), "a PNG whose text chunks all follow the data")
    refused_png("resized_after.png", png_file(cells, 1, no_scale, {"Scale": "4"}),
                "a resized PNG whose Scale chunk follows the data", ["64x48 pixels", "256x192 pixels"])
    refused_png("twice.png", png_file(cells, 4, said, {"Scale": "2"}), "a PNG whose two Scale chunks disagree",
                ["Scale", "4", "2"])
    # From a pipe, which cannot be read twice, a Scale chunk after the data
    # is checked once the picture is read: refused, naming the --scale that
    # reads it, which then does.
    piped = png_file(cells, 4, {"Generation": "0"}, {"Scale": "4"})
    msg = refused(d, ["--in", "/dev/stdin", "--format", "png", "--steps", "1"], "a piped PNG whose Scale chunk follows "
                  "the data", stdin=piped)
    expect("--scale 4" in msg, "... the refusal names --scale 4", msg)
    code, out, err, _ = run(["--in", "/dev/stdin", "--format", "png", "--scale", "4", "--steps", "0", "--json",
                             "--backend", "openmp"], stdin=piped)
    expect(code == 0 and '"population":%d,' % population in out and '"size":[64,48,1]' in out,
           "... and with --scale 4 it is read as its 64x48 cells", f"(exit {code}: {err.strip()})")
    # No Scale chunk: --scale (else 1) must make the Rule's grid too.
    refused_png("no_scale.png", png_file(cells, 2, no_scale), "a PNG of 2 pixels a cell without a Scale chunk",
                ["128x96 pixels", "64x48 grid", "--scale 2"])
    read("no_scale.png", png_file(cells, 2, no_scale), "the same with --scale 2", ["--scale", "2"])


# ---- generation counts past 2^64 (item 11) ---------------------------------

def test_generation_overflow(d):
    top = 2**64 - 1
    pku = write(d, "late.data", struct.pack("<QQ", 4, top) + bytes(64))
    out = os.path.join(d, "out.data")
    refused(d, [pku, out, "2"], "T = 2^64 - 1 plus 2 generations")
    refused(d, ["--in", pku, "--steps", "1", "--out", os.path.join(d, "o.lsgrid")], "T = 2^64 - 1 plus 1 generation")
    accepted([pku, out, "0"], "T = 2^64 - 1 plus 0 generations")
    data = open(out, "rb").read() if os.path.exists(out) else b""
    expect(data[8:16] == struct.pack("<Q", top), "... keeps T = 2^64 - 1")
    os.remove(out)
    os.remove(pku)


# ---- the series of --every samples (issue 25, item 11) ----------------------

SAMPLES = 2**24  # the most populations --every keeps (docs/life.md)


def test_series_bound(d):
    # --every K keeps steps / K + 1 populations (8 bytes each): a series
    # that cannot be kept is refused at once, in bounded memory, not after
    # an allocation of up to 8 TB (exit 1) or while it grows to 16 GB.
    base = run(["--dims", "2", "--size", "4", "--steps", "0"])[3]
    limit = int(base) + 50
    for steps, every in (("1e12", "1"), ("2e9", "1"), (str(SAMPLES), "1"), ("1e12", "1000")):
        msg = refused(d, ["--dims", "2", "--size", "4", "--steps", steps, "--every", every],
                      f"--steps {steps} --every {every}: more populations than are kept", max_mib=limit)
        expect("--steps" in msg and "--every" in msg and str(SAMPLES) in msg,
               f"--steps {steps} --every {every}: the refusal names both options and the limit", msg)
    # The boundary: the least K that keeps at most 2^24 of 10^12
    # generations' populations is accepted (still computing when killed),
    # and K - 1 refused, with K named as the least --every.
    k = 10**12 // SAMPLES
    while 10**12 // k + 1 > SAMPLES:
        k += 1
    msg = refused(d, ["--dims", "2", "--size", "4", "--steps", "1e12", "--every", str(k - 1)],
                  f"--steps 1e12 --every {k - 1}: one population too many")
    expect(f"at least {k}" in msg, f"... the refusal names the least --every, {k}", msg)
    code, _, err, _ = run(["--dims", "2", "--size", "4", "--steps", "1e12", "--every", str(k)], timeout=3)
    expect(code is None, f"--steps 1e12 --every {k}: 2^24 populations, accepted", f"(exit {code}: {err.strip()})")


# ---- messages (item 12) ----------------------------------------------------

def test_messages(d):
    write(d, "gun.rle", GUN)
    refused(d, ["--in", "gun.rle", "--size", "8", "--dims", "2"], "a pattern larger than the grid",
            "gun.rle: the pattern (36x9) is larger than the grid (8x8)", cwd=d)
    write(d, "g4.rle", "x = 3, y = 3, rule = B9/S23\nbo$2bo$3o!\n")
    refused(d, ["--in", "g4.rle"], "an RLE rule lockstep does not run",
            "g4.rle: its rule is not one lockstep runs (rule 'B9/S23': birth count 9 is above 8, the most "
            "neighbours a cell has in 2D); give one with --rule", cwd=d)
    os.remove(os.path.join(d, "gun.rle"))
    os.remove(os.path.join(d, "g4.rle"))
    # The PKU form names its third argument, not an option it does not
    # have (issue 34, item 17: "--N: expected an integer").
    write(d, "in.data", struct.pack("<QQ", 4, 0) + bytes(64))
    msg = refused(d, ["in.data", "out.data", "ten"], "IN OUT N with N not a number", cwd=d)
    expect(msg.startswith("lockstep: N, the generations of 'lockstep life IN OUT N': expected an integer") and
           "got 'ten'" in msg and "--N" not in msg, "... the refusal names N, the third argument", msg)
    os.remove(os.path.join(d, "in.data"))


# ---- small holes (item 13) -------------------------------------------------

def test_holes(d):
    rle = write(d, "glider.rle", GLIDER)
    pku = write(d, "in.data", struct.pack("<QQ", 8, 0) + bytes(512))
    refused(d, ["--in", rle, "--size", "50", "--at", "100,100"], "--at outside the grid")
    refused(d, ["--in", rle, "--size", "50", "--at", "48,10"], "--at that puts the pattern across the right edge")
    refused(d, ["--in", rle, "--size", "50", "--at", "10,48"], "--at that puts the pattern across the bottom edge")
    accepted(["--in", rle, "--size", "50", "--at", "47,47"], "--at that puts the pattern in the last cells")
    refused(d, ["--dims", "2", "--size", "50", "--at", "1,1"], "--at with a random grid")
    refused(d, ["--in", pku, "--at", "1,1"], "--at with a PKU grid")
    for size in ("8x", "8x8x", "8x8x8x", "x8", "8xx8"):
        refused(d, ["--size", size], f"--size {size}")
    bad_rles = {
        "an RLE header key xyz": "x = 3, y = 3, xyz = 9\nbo$2bo$3o!\n",
        "an RLE header key xyz before x": "xyz = 9, x = 3, y = 3\nbo$2bo$3o!\n",
        "an RLE header key rulez": "x = 3, y = 3, rulez = B3/S23\nbo$2bo$3o!\n",
        "an RLE header without y": "x = 3\nbo$2bo$3o!\n",
        "an RLE header with x twice": "x = 3, x = 4, y = 3\nbo$2bo$3o!\n",
        "an RLE with a NUL byte": "x = 3, y = 3\nbo$2bo\0$3o!\n",
    }
    for what, text in bad_rles.items():
        path = write(d, "bad.rle", text)
        refused(d, ["--in", path], what)
        os.remove(path)
    refused(d, ["--in", rle, "--dims", "3"], "a 2D RLE's rule on a 3D grid")
    out = accepted(["--in", rle, "--dims", "3", "--rule", "B6/S567", "--json"], "a 2D RLE on a 3D grid with --rule")
    expect('"rule":"B6/S567"' in out, "... runs the rule given", out)
    out = accepted(["--in", rle, "--dims", "3", "--rule", "B3/S23", "--json"], "a 2D rule given for a 3D grid")
    expect('"rule":"B3/S23"' in out, "... runs it with 26 neighbours", out)
    path = write(d, "norule.rle", "x = 3, y = 3\nbo$2bo$3o!\n")
    out = accepted(["--in", path, "--dims", "3", "--json"], "a 2D RLE without a rule on a 3D grid")
    expect('"rule":"B6/S567"' in out, "... runs the 3D default", out)
    for p in (rle, pku, path):
        os.remove(p)


with tempfile.TemporaryDirectory() as d:
    test_native_header(d)
    test_outputs_first(d)
    test_bounded(d)
    test_generation_overflow(d)
    test_series_bound(d)
    test_messages(d)
    test_holes(d)
    test_png_chunks(d)
finish()
