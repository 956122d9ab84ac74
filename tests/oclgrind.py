#!/usr/bin/env python3
"""Every OpenCL kernel on Oclgrind, a third OpenCL implementation (after
PoCL and NVIDIA's): an interpreter with its own compiler that checks every
memory access of every work-item and, with --data-races, the accesses of
work-items against each other.

- `check WORKLOAD --backends opencl,openmp` at tiny sizes under
  `oclgrind --data-races --check-api` agrees ("2 devices agree", exit 0) and
  nothing reaches stderr: Oclgrind writes its reports there ("Invalid
  read", "Data race", "Uninitialized", a fatal error, an API error), so any
  output there fails the run and is shown;
- ray's fast mode runs on it and `check ray --mode fast` beside OpenMP
  agrees: within fast mode's bound of exact mode's image (docs/ray.md);
- the kernels cut for CPUs (LOCKSTEP_SHAPE=cpu, src/shape.h), which PoCL
  and Intel's CPU runtime run, likewise; Life's at sizes that reach each
  width of a work-item's run of words, with runs at the row's ends, between
  them, and moved back to end with the row, and each of its CPU-shaped
  kernels (LS_PROGRAM_KERNELS_CPU) must have run;
- every kernel of every program in src/kernels/ ran (`oclgrind
  --inst-counts` names each kernel it ran), those a program has on the
  group shape only (LS_GROUP_SHAPE_KERNELS: Oclgrind is a device of that
  shape) included, except those of programs under
  the exact floating-point rule (docs/exact-float.md): Oclgrind does not
  claim correctly rounded divide and sqrt, so lockstep refuses to build
  them there, and that refusal is checked instead. A new kernel, or a
  driver that stops using one, fails this test until a run covers it.

Exit 77 (skipped) when oclgrind is not installed.

usage: oclgrind.py LOCKSTEP SOURCE_ROOT
"""
import glob
import os
import re
import shutil
import subprocess
import sys

from harness import expect, finish

LOCKSTEP, ROOT = sys.argv[1], sys.argv[2]
OCLGRIND = shutil.which('oclgrind')
if not OCLGRIND:
    print('skipped: oclgrind is not installed (Debian: apt-get install oclgrind)')
    sys.exit(77)

# Runs under `check`, at sizes of a second or so each on the interpreter,
# chosen to reach every kernel: Graveler's private and (turns + 1 bins too
# many for local memory) shared histogram; BMN's deal and play; Life in 2D
# and 3D, with the default rule (a kernel with it built in) and another,
# rows of whole words (aligned) and not, and in 2D an odd step count (one
# launch of two generations, one of one); on tori and bounded planes.
CHECKS = [
    ['graveler', '--battles', '1000'],
    ['graveler', '--battles', '50', '--turns', '4096'],
    ['bmn', '--deals', '200'],
    ['life', '--dims', '2', '--size', '32x6', '--steps', '4', '--every', '2'],
    ['life', '--dims', '2', '--size', '37x5', '--steps', '3'],
    ['life', '--dims', '2', '--size', '32x6', '--steps', '3', '--rule', 'B36/S23'],
    ['life', '--dims', '2', '--size', '37x5', '--steps', '3', '--rule', 'B36/S23'],
    # 3D: three steps, one launch of the tile walk's two generations
    # (LIFE_GPU_3D_DEPTH, src/algo/life.h) and one of the walk of one.
    ['life', '--dims', '3', '--size', '32x4x4', '--steps', '3'],
    ['life', '--dims', '3', '--size', '9x5x4', '--steps', '3'],
    ['life', '--dims', '3', '--size', '32x4x4', '--steps', '3', '--rule', 'B5/S45'],
    ['life', '--dims', '3', '--size', '9x5x4', '--steps', '3', '--rule', 'B5/S45'],
    # The wide tile walk (rows of 33 to 64 words, two warps a row): rows
    # of whole words and not (1045 cells: 33 words, the last of 21), both
    # rules, and below a bounded plane.
    ['life', '--dims', '3', '--size', '1056x4x4', '--steps', '3'],
    ['life', '--dims', '3', '--size', '1045x5x4', '--steps', '3'],
    ['life', '--dims', '3', '--size', '1056x4x4', '--steps', '3', '--rule', 'B5/S45'],
    ['life', '--dims', '3', '--size', '1045x5x4', '--steps', '3', '--rule', 'B5/S45'],
    # Bounded planes (Golly's :P grids): the 2D kernels of one and two
    # generations (an odd step count) and the 3D one, with a B0 rule, whose
    # births along the edges show a wrap that leaked through.
    ['life', '--steps', '3', '--rule', 'B03/S23:P37,5'],
    ['life', '--steps', '3', '--rule', 'B0,6/S5-7:P9,5,4'],
    ['life', '--steps', '3', '--rule', 'B0,6/S5-7:P1045,5,4'],
    # The 2D kernels of LIFE_2D_GENS (16, src/algo/life.h: the step count
    # must reach it) generations a launch: aligned
    # rows and not (37: two margin lanes), both rules, a bounded plane.
    ['life', '--dims', '2', '--size', '32x9', '--steps', '16'],
    ['life', '--dims', '2', '--size', '37x9', '--steps', '16'],
    ['life', '--dims', '2', '--size', '32x9', '--steps', '16', '--rule', 'B36/S23'],
    ['life', '--dims', '2', '--size', '37x9', '--steps', '16', '--rule', 'B36/S23'],
    ['life', '--steps', '16', '--rule', 'B03/S23:P37,9'],
]
# The group shape's own 2D walk of LIFE_GROUP_2D_GENS (16) generations a
# pass (life_group_2d_*), which the driver takes on Oclgrind where
# LOCKSTEP_DEBUG_LIFE_MANY does not ask for life_many_2d's: aligned rows
# and not (37: each lane reads 32 cells of the row repeated), both rules,
# a bounded plane whose short last word takes two margin lanes, rows of
# two runs (2021 cells: 64 words), and step counts past 16 with --every.
GROUP_CHECKS = [
    ['life', '--dims', '2', '--size', '32x9', '--steps', '17'],
    ['life', '--dims', '2', '--size', '37x9', '--steps', '16'],
    ['life', '--dims', '2', '--size', '32x9', '--steps', '16', '--rule', 'B36/S23'],
    ['life', '--dims', '2', '--size', '2021x5', '--steps', '16', '--rule', 'B36/S23'],
    ['life', '--steps', '18', '--every', '17', '--rule', 'B03/S23:P37,9'],
]
RAY = ['--size', '16x16', '--spp', '2', '--quiet']
# The CPU kernel shape (src/shape.h; what PoCL and Intel's CPU runtime
# run), forced here by LOCKSTEP_SHAPE=cpu: Graveler's blocks of 16 streams
# cut at both ends of the range, its shared counters, BMN; ray's fast mode
# below. Every kernel of these programs must have run in this shape too.
CPU_SHAPE = {'LOCKSTEP_SHAPE': 'cpu'}
CPU_CHECKS = [
    ['graveler', '--battles', '1000', '--first', '37'],
    ['graveler', '--battles', '50', '--turns', '4096', '--first', '3'],
    ['bmn', '--deals', '200'],
]
CPU_PROGRAMS = ['graveler', 'bmn', 'ray_fast']
# Life under LOCKSTEP_SHAPE=cpu, reaching every CPU-shaped Life kernel
# (src/kernels/life_kernels.h) and each width of a run of words
# (life_cpu_lanes, src/workloads/life/life_gpu.c): 1024 cells a row are 32
# words, two runs of 16 (aligned), and 16 steps or more reach the walk of
# LIFE_CPU_2D_GENS generations (src/algo/life.h), whose runs store 14
# words (at 0 and, moved back, 18); 620 are 20 words (the last of 12
# cells), runs of 8 at words 0, 8 and 12 (the last moved back); 37 cells
# runs of 2, 32 cells one word. 3D: rows of 10 words (300 cells) in runs
# of 4 at 0, 4 and 6, and of 16 (512), 1 (32, 9); five rows, so that the
# second group of four is moved up; bounded planes of both.
CPU_CHECKS += [
    ['life', '--dims', '2', '--size', '1024x6', '--steps', '3'],
    ['life', '--dims', '2', '--size', '1024x6', '--steps', '17'],
    ['life', '--dims', '2', '--size', '1024x6', '--steps', '16', '--rule', 'B36/S23'],
    ['life', '--dims', '2', '--size', '620x5', '--steps', '3'],
    ['life', '--dims', '2', '--size', '37x5', '--steps', '3', '--rule', 'B36/S23'],
    ['life', '--dims', '2', '--size', '32x6', '--steps', '3', '--rule', 'B36/S23'],
    ['life', '--steps', '3', '--rule', 'B03/S23:P37,5'],
    ['life', '--steps', '3', '--rule', 'B03/S23:P620,5'],
    ['life', '--dims', '3', '--size', '32x4x4', '--steps', '2'],
    ['life', '--dims', '3', '--size', '300x5x4', '--steps', '2'],
    ['life', '--dims', '3', '--size', '512x4x4', '--steps', '2', '--rule', 'B5/S45'],
    ['life', '--dims', '3', '--size', '9x5x4', '--steps', '2', '--rule', 'B5/S45'],
    ['life', '--steps', '2', '--rule', 'B0,6/S5-7:P9,5,4'],
    ['life', '--steps', '2', '--rule', 'B0,6/S5-7:P300,5,4'],
]

# How each program under the exact rule is started on the device, and the
# exit status of its refusal for want of correctly rounded divide and sqrt:
# a run fails (1); conformance reports the case "not supported" with that
# reason and exits 0 (a refusal is no failure).
EXACT_REFUSALS = {
    'ray': (['ray', '--backend', 'opencl'] + RAY, 1),
    'fpcheck': (['conformance', '--backend', 'opencl', '--workload', 'float'], 0),
}
REFUSAL = 'CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT'


def kernel_headers():
    """(program, text) of each src/kernels/NAME_kernels.h."""
    for path in sorted(glob.glob(os.path.join(ROOT, 'src', 'kernels', '*_kernels.h'))):
        yield os.path.basename(path)[:-len('_kernels.h')], open(path).read()


def listed(text, macro):
    """The kernel names an X-macro `#define MACRO(X) X(a) X(b) ...` lists, or None without it."""
    found = re.search(r'#define %s\(X\)((?:[^\n]*\\\n)*[^\n]*)' % macro, text)
    return re.findall(r'X\((\w+)\)', found.group(1)) if found else None


def programs():
    """{program: (kernel names, under the exact rule)} from src/kernels/NAME_kernels.h:
    LS_PROGRAM_KERNELS's, and LS_GROUP_SHAPE_KERNELS's (the group shape's only)."""
    return {name: ((listed(text, 'LS_PROGRAM_KERNELS') or []) + (listed(text, 'LS_GROUP_SHAPE_KERNELS') or []),
                   re.search(r'^#define LS_EXACT_FP\b', text, re.M) is not None)
            for name, text in kernel_headers()}


def cpu_shape_kernels():
    """{program: its CPU-shaped kernels' names} from src/kernels/NAME_kernels.h
    (LS_PROGRAM_KERNELS_CPU: entry points only the CPU shape's program has)."""
    return {name: kernels for name, text in kernel_headers()
            if (kernels := listed(text, 'LS_PROGRAM_KERNELS_CPU')) is not None}


def oclgrind(args, env=None):
    """Runs lockstep under Oclgrind: (exit status, stdout, stderr, kernels it ran).
    Life's many-generation kernels of the warp shape (2D, and 3D's tile
    walk) run there too (Oclgrind is a simulated GPU without shuffles, where
    the driver would not choose them; env LOCKSTEP_DEBUG_LIFE_MANY '0'
    leaves the driver's choice, the group shape's own 2D walk), with the local memory and group
    size the tile walk's groups of 12 warps fit in (a GPU's 64 KiB and 1024
    work-items)."""
    r = subprocess.run([OCLGRIND, '--data-races', '--check-api', '--inst-counts', '--local-mem-size', '65536',
                        '--max-wgsize', '1024', LOCKSTEP] + args,
                       capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, **dict({'LOCKSTEP_DEBUG_LIFE_MANY': '1'}, **(env or {}))))
    ran = set(re.findall(r"^Instructions executed for kernel '(\w+)'", r.stdout, re.M))
    return r.returncode, r.stdout, r.stderr, ran


def first_lines(text, n=30):
    lines = text.strip().split('\n')
    return '\n'.join(lines[:n]) + ('\n... (%d lines)' % len(lines) if len(lines) > n else '')


progs = programs()
expect(progs and all(kernels for kernels, _ in progs.values()), 'the kernels of every program are listed',
       str(progs))
ran = set()

ran_cpu = set()
RUNS = ([(a, None, '') for a in CHECKS] + [(a, CPU_SHAPE, ' (CPU shape)') for a in CPU_CHECKS]
        + [(a, {'LOCKSTEP_DEBUG_LIFE_MANY': '0'}, ' (group walk)') for a in GROUP_CHECKS])
for args, env, label in RUNS:
    rc, out, err, kernels = oclgrind(['check'] + args + ['--backends', 'opencl,openmp', '--quiet'], env)
    ran |= kernels
    if env is CPU_SHAPE:
        ran_cpu |= kernels
    expect(rc == 0 and '2 devices agree' in out and not err,
           'check %s on Oclgrind%s: agrees, no report (kernels %s)' % (' '.join(args), label, ', '.join(sorted(kernels))),
           '\nexit %d\nstdout (without instruction counts):\n%s\nstderr:\n%s'
           % (rc, first_lines('\n'.join(l for l in out.split('\n') if l and not l.startswith(' ')
                                        and not l.startswith('Instructions executed'))), first_lines(err)))

# Fast mode beside OpenMP: `check` measures each fast image against exact
# mode's (rendered on openmp) and holds it to fast mode's bound.
for env, shape in [(None, ''), (CPU_SHAPE, ' (CPU shape)')]:
    rc, out, err, kernels = oclgrind(['check', 'ray', '--mode', 'fast', '--backends', 'openmp,opencl'] + RAY, env)
    ran |= kernels
    if env:
        ran_cpu |= kernels
    figure = re.search(r'^  opencl:0: (.*)$', out, re.M)
    expect(rc == 0 and re.search(r"^2 devices agree .*within fast mode's bound", out, re.M) and not err,
           'check ray --mode fast on Oclgrind%s: within fast mode\'s bound of exact mode (%s), no report'
           % (shape, figure.group(1) if figure else 'no figure'),
           'exit %d\nstdout:\n%s\nstderr:\n%s' % (rc, first_lines('\n'.join(
               l for l in out.split('\n') if not l.startswith('Instructions executed'))), first_lines(err)))

for name in CPU_PROGRAMS:
    missing = sorted(set(progs[name][0]) - ran_cpu)
    expect(not missing, 'program %s: every kernel ran on Oclgrind in the CPU shape' % name,
           'never ran: %s (add a run to CPU_CHECKS that reaches it)' % ', '.join(missing))
cpu_only = cpu_shape_kernels()
expect('life' in cpu_only, "Life's CPU-shaped kernels are listed (LS_PROGRAM_KERNELS_CPU)", str(cpu_only))
for name, kernels in cpu_only.items():
    missing = sorted(set(kernels) - ran_cpu)
    expect(not missing, 'program %s: every CPU-shaped kernel ran on Oclgrind' % name,
           'never ran: %s (add a run to CPU_CHECKS that reaches it)' % ', '.join(missing))

for name, (kernels, exact) in progs.items():
    if not exact:
        missing = sorted(set(kernels) - ran)
        expect(not missing, 'program %s: every kernel ran on Oclgrind' % name,
               'never ran: %s (add a run that reaches it)' % ', '.join(missing))
        continue
    args, status = EXACT_REFUSALS.get(name, (None, None))
    if not expect(args is not None, 'program %s (exact rule): a run that starts it' % name,
                  'add it to EXACT_REFUSALS'):
        continue
    rc, out, err, _ = oclgrind(args)
    oclgrind_lines = [l for l in err.split('\n') if l and not l.startswith('lockstep: ')]
    expect(rc == status and REFUSAL in out + err and not oclgrind_lines and
           (status == 1 or 'not supported' in out),
           'program %s (exact rule): refused on Oclgrind for want of correctly rounded divide and sqrt' % name,
           'exit %d (if Oclgrind now offers %s, move its kernels into the runs above)\nstdout:\n%s\nstderr:\n%s'
           % (rc, REFUSAL, first_lines(out), first_lines(err)))

finish()
