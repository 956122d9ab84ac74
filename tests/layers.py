#!/usr/bin/env python3
"""The floors of the host program (issue 15): the command layer
(src/commands/, main.c, manual.c) sits above the workloads, which sit above
the set (set.h, the set runner, the registry) and the backends.

  - no file below the command layer includes it or calls a command
    (ls_cmd_*): the workloads' subcommands are declared in their table and
    dispatched from above;
  - no workload reads the process's MPI state (ls_cluster_*): the rank and
    size come with the set (set->job);
  - no workload talks to other ranks itself (ls_job_*, src/set/job.h): it
    hands its work to one of the set's runners (set_run.h, slab_run.h),
    which owns every message and collective;
  - which workloads run on a set is said in the workload table alone: no
    source, meson.build, meson_options.txt or tools/ script names "graveler
    and bmn" as the ones that do;
  - no file calls a GPU backend's primitives (gpu.h's ls_gpu) but the
    wrappers that check their arguments once (gpu_call.c, and gpu_timer.c
    for the timer): the others reach a device's memory through them;
  - every device, the host CPU too, offers gpu.h's primitives (issue 37):
    no workload branches on its backend's table (backend->gpu) to run a
    CPU path or a GPU one, and no file but the wrappers reads the table;
  - Life's slabs too (issue 37): no workload asks whether a device runs
    the programs of src/kernels (LS_CAP_KERNELS, life_runs_kernels) to
    choose its CPU code or its kernels (the device's shape chooses its
    kernels), and the slab runner keeps no slab in host memory of its own
    (the slab table's host planes, host_plane): every slab, on the host
    CPU too, is its device's buffers, moved by read, write and copy;
  - no file asks the CPU which instruction sets it has but cpu_isa.c: the
    choice of the CPU code's compiled copy is made there once;
  - no file asks whether a device can do something but through caps.h's
    query (issue 37): only gpu_call.c (ls_caps_from_methods) reads a
    method's presence in a backend's table as a capability (gpu->copy,
    ->share, ->kernel_with ...) and only caps.c the bits of
    ls_device_caps, and the old questions (ls_gpu_can_copy,
    ls_gpu_can_share, ls_gpu_shares, exact_fp_refused,
    LS_CASE_NOT_SUPPORTED, ls_set_exact_fp) are gone from every source.

usage: layers.py SOURCE_ROOT
"""
import os
import re
import sys

from harness import expect, finish

ROOT = sys.argv[1]
COMMAND_LAYER = ('src/commands/', 'src/main.c', 'src/manual.c', 'src/manual.h')


def sources(*dirs):
    for d in dirs:
        for base, _, names in os.walk(os.path.join(ROOT, d)):
            for n in sorted(names):
                if n.endswith(('.c', '.h', '.cu', '.cpp')):
                    path = os.path.join(base, n)
                    yield os.path.relpath(path, ROOT), open(path, encoding='utf-8', errors='replace').read()


below = [(p, t) for p, t in sources('src', 'backends') if not p.startswith(COMMAND_LAYER)]
expect(len(below) > 20, 'the files below the command layer were found', str(len(below)))

up = [p for p, t in below if re.search(r'#include\s+"(commands/)?(commands|devlist|json_diff)\.h"', t)
      or re.search(r'\bls_cmd_\w+\s*\(', t)]
expect(not up, 'no file below the command layer includes it or calls a command', ', '.join(up))

ranks = [p for p, t in below if p.startswith('src/workloads/') and
         (re.search(r'\bls_cluster_\w+\s*\(', t) or '#include "cluster.h"' in t)]
expect(not ranks, 'no workload reads MPI rank or size from cluster.c (it has the set\'s job)', ', '.join(ranks))

talking = [p for p, t in below if p.startswith('src/workloads/') and
           (re.search(r'\bls_job_(?!device\b)\w+\s*\(|\bls_job_msg\b', t) or '#include "job.h"' in t)]
expect(not talking, 'no workload talks to other ranks (ls_job_*): the set\'s runners do', ', '.join(talking))


def build_files():
    for base, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if not d.startswith(('.', 'build', 'subprojects'))]
        for n in sorted(names):
            if n in ('meson.build', 'meson_options.txt') or (os.path.basename(base) == 'tools' and n.endswith('.sh')):
                path = os.path.join(base, n)
                yield os.path.relpath(path, ROOT), open(path, encoding='utf-8', errors='replace').read()


named = [p for p, t in list(sources('src')) + list(build_files()) if re.search(r'graveler (and|or) bmn', t, re.I)]
expect(not named, 'no source, build file or tool names the workloads that run on a set (the table says which)',
       ', '.join(named))

PRIMITIVES = r'info|alloc|free|write|read|kernel|kernel_with|groups_per_unit|launch|timer_start|timer_stop|copy'
WRAPPERS = ('src/gpu_call.c', 'src/gpu_timer.c')
direct = [p for p, t in sources('src') if p not in WRAPPERS and re.search(r'\bgpu\s*->\s*(%s)\b' % PRIMITIVES, t)]
expect(not direct, 'only the wrappers (%s) call a backend\'s GPU primitives' % ', '.join(WRAPPERS), ', '.join(direct))
wrapped = [p for p in WRAPPERS if re.search(r'\bgpu\w*\([^)]*\)\s*->\s*(%s)\b|\bgpu\s*->\s*(%s)\b' %
                                           (PRIMITIVES, PRIMITIVES), open(os.path.join(ROOT, p)).read())]
expect(wrapped == list(WRAPPERS), 'the wrappers are found calling the primitives', str(wrapped))

TABLE = r'\bbackend\s*->\s*gpu\b'
branching = [p for p, t in sources('src/workloads') if re.search(TABLE, t)]
expect(not branching, 'no workload branches on backend->gpu: the host CPU is a device of gpu.h too', ', '.join(branching))
reading = [p for p, t in sources('src', 'backends') if p not in WRAPPERS and re.search(TABLE, t)]
expect(not reading, 'only the wrappers (%s) read a backend\'s method table' % ', '.join(WRAPPERS), ', '.join(reading))

choosing = [p for p, t in sources('src/workloads') if re.search(r'\bLS_CAP_KERNELS\b', t)]
choosing += [p for p, t in sources('src', 'backends', 'tests') if re.search(r'\blife_runs_kernels\b', t)]
expect(not choosing, 'no workload chooses its CPU code or its kernels by LS_CAP_KERNELS: the shape chooses kernels',
       ', '.join(choosing))
hosted = [p for p, t in sources('src/set') if re.search(r'\bhost_plane\b|->\s*host\s*\(', t)]
hosted += [p for p, t in sources('src') if re.search(r'^\s*\.host\s*=', t, re.M)]
expect(not hosted, 'the slab runner keeps no slab in host memory of its own: every slab is its device\'s buffers',
       ', '.join(hosted))

asking = [p for p, t in sources('src', 'backends') if p != 'src/cpu_isa.c' and re.search(r'__builtin_cpu_(supports|is)\b|\bcpuid\b', t)]
expect(not asking, 'only src/cpu_isa.c asks the CPU what it runs', ', '.join(asking))

CAP_METHODS = r'copy|share|open_shared|close_shared|kernel_with'
everything = list(sources('src', 'backends', 'tests'))
presence = [p for p, t in everything if p != 'src/gpu_call.c' and
            re.search(r'->\s*(%s)\b(?!\s*\()' % CAP_METHODS, t)]
expect(not presence, 'only src/gpu_call.c (ls_caps_from_methods) reads a backend method\'s presence as a capability', ', '.join(presence))
bits = [p for p, t in everything if p not in ('src/caps.c', 'src/caps.h', 'tests/test_shape.c') and
        re.search(r'(\.|->)can\b(?!\'t)', t)]
expect(not bits, 'only src/caps.c reads the bits of ls_device_caps (the others ask ls_caps_supports)',
       ', '.join(bits))
OLD = r'\b(ls_gpu_can_copy|ls_gpu_can_share|ls_gpu_shares|exact_fp_refused|LS_CASE_NOT_SUPPORTED|ls_set_exact_fp)\b'
old = [p for p, t in everything if re.search(OLD, t)]
expect(not old, 'the old ways to ask what a device can do are gone', ', '.join(old))

finish()
