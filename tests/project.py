#!/usr/bin/env python3
"""The project around the code: the main job installs only what the build
needs (the test suite's own packages, clang for the fuzzers, Oclgrind,
Random123, groff, Golly's bgolly, pip, come with tools/deps.sh --tests, which tools/test.sh
passes and tools/quickstart.sh does not, and which also puts Intel's OpenCL
CPU runtime in the git-ignored .deps/, or says why not and goes on without
it when the package index cannot be reached); the README says how to build
without root; the licence is the one meson.build names; the guide to adding
a backend names the primitives src/gpu.h and src/backend.h declare, and
files that exist; every file the README and docs/ name exists (a move
that leaves a page naming the old path fails here).

usage: project.py SOURCE_ROOT
"""
import os
import re
import subprocess
import sys
import tempfile

from harness import expect, finish

ROOT = sys.argv[1]


def packages(*flags):
    p = subprocess.run(['bash', os.path.join(ROOT, 'tools/deps.sh'), '--print', *flags], capture_output=True,
                       text=True)
    expect(p.returncode == 0, 'tools/deps.sh --print %s' % ' '.join(flags), p.stderr)
    return p.stdout.split()


main, tests = packages(), packages('--tests')
TEST_ONLY = {'clang', 'libclang-rt-dev', 'oclgrind', 'librandom123-dev', 'groff-base', 'golly', 'python3-pip'}
expect(main and not TEST_ONLY & set(main), 'the main job installs none of the test-only packages', str(main))
expect(set(main) | TEST_ONLY == set(tests), 'deps.sh --tests adds exactly the test-only packages', str(tests))
bad = subprocess.run(['bash', os.path.join(ROOT, 'tools/deps.sh'), '--frobnicate'], capture_output=True, text=True)
expect(bad.returncode == 2 and 'usage' in bad.stderr, 'deps.sh refuses an unknown flag', bad.stderr)

# Intel's OpenCL CPU runtime (tools/intel_opencl.sh): deps.sh runs it with
# --tests only; into a git-ignored directory; without the package index
# (one on a closed port of this machine) it says so, exits 0 and leaves
# nothing behind, so that the tests needing it skip.
deps = open(os.path.join(ROOT, 'tools/deps.sh')).read()
expect(re.search(r'^\[ "\$tests" = 1 \] \|\| exit 0\nbash "\$\(dirname "\$0"\)/intel_opencl.sh"$', deps, re.M),
       'deps.sh installs Intel\'s OpenCL runtime with --tests only')
expect('/.deps/' in open(os.path.join(ROOT, '.gitignore')).read().split(), '.deps/ is git-ignored')
with tempfile.TemporaryDirectory() as tmp:
    offline = dict(os.environ, PIP_INDEX_URL='http://127.0.0.1:9/simple', PIP_FIND_LINKS='', PIP_NO_CACHE_DIR='1')
    p = subprocess.run(['bash', os.path.join(ROOT, 'tools/intel_opencl.sh'), os.path.join(tmp, 'intel-opencl')],
                       capture_output=True, text=True, env=offline, timeout=300)
    expect(p.returncode == 0 and 'its tests will be skipped' in p.stderr and not os.listdir(tmp),
           'tools/intel_opencl.sh without the package index: says so, exit 0, nothing left',
           'rc=%d %s %s' % (p.returncode, p.stderr, os.listdir(tmp)))


def calls(script):
    return [l.split() for l in open(os.path.join(ROOT, 'tools', script)) if 'tools/deps.sh' in l and
            not l.lstrip().startswith('#')]


expect([c[:3] for c in calls('test.sh')] == [['bash', 'tools/deps.sh', '--tests']], 'tools/test.sh asks for --tests',
       str(calls('test.sh')))
expect([c for c in calls('quickstart.sh')] == [['bash', 'tools/deps.sh']],
       'tools/quickstart.sh installs the main job\'s packages only', str(calls('quickstart.sh')))
readme = open(os.path.join(ROOT, 'README.md')).read()
quick = readme[:readme.index('## Workloads')]
expect('meson setup build' in quick and 'ninja -C build' in quick and 'root' in quick,
       'the README\'s quick start says how to build without root')

# ---- the licence ----------------------------------------------------------------
meson = open(os.path.join(ROOT, 'meson.build')).read()
licence = open(os.path.join(ROOT, 'LICENSE')).read()
expect("license: 'MIT'" in meson and licence.startswith('MIT License') and
       'Copyright (c) 2026 the lockstep authors' in licence, 'LICENSE is the MIT licence meson.build names')

# ---- docs/adding-a-backend.md against the headers ----------------------------------
guide = open(os.path.join(ROOT, 'docs/adding-a-backend.md')).read()


def members(header, struct):
    text = open(os.path.join(ROOT, header)).read()
    body = text[text.index('typedef struct %s {' % struct):]
    body = body[:body.index('} %s;' % struct)]
    return re.findall(r'\(\*(\w+)\)\(', body)


gpu = members('src/gpu.h', 'ls_gpu')
rows = set(re.findall(r'^\| `(\w+)`(?:, `(\w+)`)? \|', guide, re.M))
named = {x for row in rows for x in row if x}
expect(gpu and set(gpu) <= named, 'the guide names every primitive of src/gpu.h', 'missing %s' % (set(gpu) - named))
expect(named - {'ls_backend'} <= set(gpu) | {'info'}, 'the guide names no primitive gpu.h lacks', str(named - set(gpu)))
backend = members('src/backend.h', 'ls_backend')
expect(backend and all('.%s =' % m in guide for m in backend), 'the guide fills every entry of ls_backend',
       '%s' % backend)
info = open(os.path.join(ROOT, 'src/backend.h')).read()
info = info[info.index('typedef struct ls_device_info {'):info.index('} ls_device_info;')]
fields = re.findall(r'^\s+\w+(?: \w+)? (\w+)(?:\[\d+\])?;', info, re.M)
expect(len(fields) >= 9 and all('`%s`' % f in guide for f in fields),
       'the guide names every field of ls_device_info (%d)' % len(fields),
       str([f for f in fields if '`%s`' % f not in guide]))
paths = re.findall(r'`((?:src|backends|tests|tools|kernels_cu|kernels_cl)/[\w./]+)`', guide)
missing = [p for p in paths if not os.path.exists(os.path.join(ROOT, p)) and 'NAME' not in p and 'PROGRAM' not in p]
expect(paths and not missing, 'every file the guide names exists (%d)' % len(paths), str(missing))
expect('docs/adding-a-backend.md' in readme, 'the README links the guide')

# ---- every path the README and docs/ name ------------------------------------------
# A path of the tree (src/..., tests/..., docs/...) in any page exists: a file,
# a folder, or a test program built from NAME.c. Placeholders (NAME,
# PROGRAM) and patterns (tests/ref_*.c) are not paths.
pages = ['README.md'] + sorted(os.path.relpath(os.path.join(d, n), ROOT)
                               for d, _, names in os.walk(os.path.join(ROOT, 'docs')) for n in names
                               if n.endswith('.md'))
named, gone = 0, []
for page in pages:
    text = open(os.path.join(ROOT, page)).read()
    for m in re.finditer(r'(?<![\w/.-])((?:src|backends|tests|tools|kernels_cu|kernels_cl|bench|docs)/[\w./*-]*[\w*/])',
                         text):
        path = m.group(1)
        if re.search(r'[A-Z]{3,}|\*', path):
            continue
        named += 1
        if not any(os.path.exists(os.path.join(ROOT, path + end)) for end in ('', '.c')):
            gone.append('%s:%d %s' % (page, text.count('\n', 0, m.start()) + 1, path))
expect(named > 100 and not gone, 'every path the README and docs/ name exists (%d named in %d pages)' % (named, len(pages)),
       ', '.join(gone))
finish()
