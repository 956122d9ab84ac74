#!/usr/bin/env python3
"""The project around the code: the main job installs only what the build
needs (the test suite's own packages, clang for the fuzzers, Oclgrind,
Random123, groff, Golly's bgolly, pip, come with tools/deps.sh --tests, which tools/test.sh
passes and tools/quickstart.sh does not, and which also puts Intel's OpenCL
CPU runtime in the git-ignored .deps/, or says why not and goes on without
it when the package index cannot be reached); the README says how to build
without root; the licence is the one meson.build names; the guide to adding
a backend names the primitives src/gpu.h and src/backend.h declare, and
files that exist; every file the README, docs/ and the code's comments
name exists (a move that leaves a page or a comment naming the old path
fails here); the scripts a new user
runs first, run on stand-ins: tools/build.sh says how far the build is,
tools/quickstart.sh installs lockstep where `lockstep` and `man lockstep`
find it (or says where it is), tools/test.sh announces its phases and the
time so far.

usage: project.py SOURCE_ROOT
"""
import os
import pty
import re
import shutil
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

# ---- every path the README, docs/ and the code's comments name ---------------------
# A path of the tree (src/..., tests/..., docs/...) in any page, or in a
# comment of a source, test, bench or tool file, exists: a file, a folder,
# or a test program built from NAME.c. Placeholders (NAME, PROGRAM) and
# patterns (tests/ref_*.c) are not paths; a path cut at the end of a line
# (docs/perf/2026-11-24-h200-graveler-) or by a shell variable
# (tests/fuzz/fuzz_$name.c) must begin a file's name. This
# file is left out: its patterns name paths by pieces.
pages = ['README.md'] + sorted(os.path.relpath(os.path.join(d, n), ROOT)
                               for d, _, names in os.walk(os.path.join(ROOT, 'docs')) for n in names
                               if n.endswith('.md'))
SOURCE_ENDS = ('.c', '.h', '.cu', '.cl', '.py', '.sh', 'meson.build')
sources = ['meson.build'] + sorted(
    os.path.relpath(os.path.join(d, n), ROOT)
    for top in ('src', 'backends', 'kernels_cu', 'kernels_cl', 'tests', 'bench', 'tools')
    for d, _, names in os.walk(os.path.join(ROOT, top)) for n in names
    if n.endswith(SOURCE_ENDS) and n != 'project.py')
named, gone = 0, []
for page in pages + sources:
    text = open(os.path.join(ROOT, page), encoding='utf-8', errors='replace').read()
    for m in re.finditer(r'(?<![\w/.$-])((?:src|backends|tests|tools|kernels_cu|kernels_cl|bench|docs)/[\w./*-]*[\w*/-])',
                         text):
        path = m.group(1)
        if re.search(r'[A-Z]{3,}|\*', path):
            continue
        named += 1
        cut = (path.endswith('-') and text.startswith('\n', m.end())) or text.startswith(('$', '{'), m.end())
        if cut:
            folder, start = os.path.split(path)
            found = os.path.isdir(os.path.join(ROOT, folder)) and any(
                n.startswith(start) for n in os.listdir(os.path.join(ROOT, folder)))
        else:
            found = any(os.path.exists(os.path.join(ROOT, path.rstrip('-') + end)) for end in ('', '.c'))
        if not found:
            gone.append('%s:%d %s' % (page, text.count('\n', 0, m.start()) + 1, path))
expect(named > 100 and not gone, 'every path the README, docs/ and comments name exists (%d named in %d files)' %
       (named, len(pages) + len(sources)), ', '.join(gone))

# ---- the scripts a new user runs first, run on stand-ins ----------------------------
# tools/build.sh, tools/quickstart.sh and tools/test.sh as they are, in a
# copy of tools/ beside stand-ins for what they call: a build.ninja of a
# few steps, a meson project that installs a stand-in lockstep and its man
# page, tests that report a summary as meson test does.
BASE_PATH = os.pathsep.join(sorted({os.path.dirname(shutil.which(p)) for p in ('meson', 'ninja', 'python3')}) +
                            ['/usr/bin', '/bin'])


def script(tree, name, *args, env=None, stderr=subprocess.PIPE):
    """Runs tree/tools/NAME: (exit status, stdout, stderr)."""
    env = dict(os.environ, **dict({'PATH': BASE_PATH}, **(env or {})))
    p = subprocess.run(['bash', os.path.join(tree, 'tools', name), *args], stdout=subprocess.PIPE, stderr=stderr,
                       text=True, env=env, timeout=120)
    return p.returncode, p.stdout, p.stderr


def write(path, text, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)
    os.chmod(path, mode)


def copy_tools(tree, *names):
    for name in names:
        shutil.copy(os.path.join(ROOT, 'tools', name), os.path.join(tree, 'tools', name))


with tempfile.TemporaryDirectory() as tree:
    # The build says how far it is (issue 34: two silent minutes): a line at
    # every tenth of the steps when stderr is no terminal, ending at the last.
    os.makedirs(os.path.join(tree, 'tools'))
    copy_tools(tree, 'build.sh')
    steps = 23
    write(os.path.join(tree, 'b', 'build.ninja'), 'rule touch\n  command = touch $out\n' +
          ''.join('build out%d: touch\n' % i for i in range(steps)))
    rc, out, err = script(tree, 'build.sh', os.path.join(tree, 'b'))
    seen = [(int(a), int(b)) for a, b in re.findall(r'step (\d+) of (\d+)', err)]
    expect(rc == 0 and len(seen) >= 5 and seen[-1] == (steps, steps) and seen == sorted(seen),
           'tools/build.sh says how far the build is, step by step to the last', 'rc=%d %r' % (rc, err))
    log = open(os.path.join(tree, 'b.ninja.log')).read()
    expect(log.count('touch out') == steps, 'tools/build.sh keeps ninja\'s whole output in BUILDDIR.ninja.log',
           log[-300:])
    with open(os.path.join(tree, 'b', 'build.ninja'), 'a') as f:
        f.write('rule fail\n  command = echo the step that fails; false\nbuild broken: fail\n')
    rc, out, err = script(tree, 'build.sh', os.path.join(tree, 'b'))
    expect(rc == 1 and 'the step that fails' in out, 'tools/build.sh: a failed build exits 1, the log\'s end shown',
           'rc=%d %r' % (rc, out[-300:]))
    # On a terminal: one line, redrawn.
    master, slave = pty.openpty()
    os.remove(os.path.join(tree, 'b', 'out0'))
    subprocess.run(['sed', '-i', '/broken/d', os.path.join(tree, 'b', 'build.ninja')], check=True)
    rc, out, _ = script(tree, 'build.sh', os.path.join(tree, 'b'), stderr=slave)
    os.close(slave)
    shown = b''
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    expect(rc == 0 and b'\rtools/build.sh: building' in shown and b'step 1 of 1' in shown,
           'tools/build.sh on a terminal: one progress line, redrawn', repr(shown[-300:]))

with tempfile.TemporaryDirectory() as tree:
    # tools/quickstart.sh: `lockstep` and `man lockstep` work as the README
    # writes them where ~/.local/bin is on PATH (installed there, no root);
    # elsewhere it says where the binary is.
    os.makedirs(os.path.join(tree, 'tools'))
    copy_tools(tree, 'quickstart.sh', 'build.sh')
    write(os.path.join(tree, 'tools', 'deps.sh'), 'exit 0\n')
    write(os.path.join(tree, 'meson_options.txt'), "option('cuda', type: 'feature', value: 'auto')\n")
    write(os.path.join(tree, 'meson.build'),
          "project('stand-in', version: '0')\n"
          "install_data('lockstep', install_dir: get_option('bindir'), install_mode: 'rwxr-xr-x')\n"
          "subdir('docs')\n")
    write(os.path.join(tree, 'docs', 'meson.build'),
          "configure_file(input: 'lockstep.1.in', output: 'lockstep.1', copy: true, install: true,\n"
          "  install_dir: get_option('mandir') / 'man1')\n")
    write(os.path.join(tree, 'docs', 'lockstep.1.in'), '.TH LOCKSTEP 1\n.SH NAME\nlockstep \\- a stand-in\n')
    write(os.path.join(tree, 'lockstep'), '#!/bin/sh\necho "stand-in lockstep $*"\n[ "$1" != check ] || exit 77\n',
          0o755)
    home = os.path.join(tree, 'home')
    local_bin = os.path.join(home, '.local', 'bin')
    os.makedirs(local_bin)

    def quickstart(path_first):
        """Runs the quickstart with HOME at home and path_first before PATH."""
        build = os.path.join(tree, 'build')
        os.makedirs(build, exist_ok=True)
        env = {'HOME': home, 'PATH': os.pathsep.join(path_first + [BASE_PATH])}
        if not os.path.exists(os.path.join(build, 'lockstep')):
            os.symlink(os.path.join(tree, 'lockstep'), os.path.join(build, 'lockstep'))
        return script(tree, 'quickstart.sh', env=env)

    rc, out, err = quickstart([])
    where = os.path.join(tree, 'build', 'lockstep')
    expect(rc == 0 and not os.listdir(local_bin) and where in out and os.access(where, os.X_OK),
           'quickstart, ~/.local/bin not on PATH: nothing installed; it names the binary\'s path',
           'rc=%d %s %s' % (rc, out[-500:], err[-500:]))
    rc, out, err = quickstart([local_bin])
    env = dict(os.environ, HOME=home, PATH=os.pathsep.join([local_bin, BASE_PATH]))
    found = shutil.which('lockstep', path=env['PATH'])
    ran = subprocess.run(['lockstep', 'version'], capture_output=True, text=True, env=env) if found else None
    expect(rc == 0 and found == os.path.join(local_bin, 'lockstep') and ran.stdout.startswith('stand-in lockstep'),
           'quickstart, ~/.local/bin on PATH: `lockstep` runs the installed binary',
           'rc=%d found=%s %s %s' % (rc, found, out[-500:], err[-500:]))
    expect(local_bin in out or '~/.local' in out, 'quickstart says where it installed lockstep', out[-300:])
    if shutil.which('man'):
        man = subprocess.run(['man', '-w', 'lockstep'], capture_output=True, text=True, env=env)
        expect(man.returncode == 0 and man.stdout.strip().startswith(os.path.join(home, '.local', 'share', 'man')),
               'quickstart, ~/.local/bin on PATH: `man lockstep` finds the installed page', man.stdout + man.stderr)

with tempfile.TemporaryDirectory() as tree:
    # tools/test.sh says which of its phases starts and how long it has run
    # (the whole suite takes about 30 minutes), and still ends on the tally.
    os.makedirs(os.path.join(tree, 'tools'))
    copy_tools(tree, 'test.sh')
    write(os.path.join(tree, 'tools', 'deps.sh'), 'exit 0\n')
    write(os.path.join(tree, 'tools', 'build.sh'), 'mkdir -p "$1"\n')
    write(os.path.join(tree, 'tools', 'fuzz.sh'), 'echo "fuzz stand-in: ok"\n')
    stand_ins = os.path.join(tree, 'bin')
    write(os.path.join(stand_ins, 'meson'), '#!/bin/sh\nprintf "Ok: 3\\nFail: 0\\nSkipped: 1\\nTimeout: 0\\n"\n',
          0o755)
    rc, out, err = script(tree, 'test.sh', env={'PATH': stand_ins + os.pathsep + BASE_PATH})
    phases = re.findall(r'^tools/test\.sh: phase (\d+) of (\d+), .*; (\d+) min (\d+) s so far$', err, re.M)
    expect(rc == 0 and out.rstrip().endswith('\n7 passed, 0 failed') and
           [int(p[0]) for p in phases] == list(range(1, int(phases[-1][1]) + 1 if phases else 2)),
           'tools/test.sh announces each phase in turn with the time so far, and ends on the tally',
           'rc=%d %r %r' % (rc, out[-300:], err))
    expect(re.search(r'about \d+ minutes', err) and re.search(r'done in \d+ min \d+ s', err),
           'tools/test.sh says how long the suite takes, and how long it took', err)
    readme_time = re.search(r'`tools/test\.sh`[^.]*takes about (\d+) min', readme)
    expect(readme_time, 'the README says how long tools/test.sh takes')
finish()
