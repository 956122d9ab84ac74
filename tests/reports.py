#!/usr/bin/env python3
"""What a porting report or a CI job reads: every JSON document says which
lockstep made it and from what inputs, "device" is a spec everywhere;
conformance --list, --case and --junit (parsed by a real XML parser);
devices' vendor, driver, OpenCL C version and clock; bench all (each
row's unit); progress lines when stderr is not a terminal (Life's in
generations).

usage: reports.py LOCKSTEP VERSION SOURCE_ROOT
"""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

from harness import doc, expect, finish

LS, VERSION, SOURCE = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
SPEC = re.compile(r'^[a-z]+:\d+$')


def run(*args, env=None, timeout=300):
    e = dict(os.environ)
    e.pop('LOCKSTEP_DEBUG_FAULT', None)
    e.update(env or {})
    return subprocess.run([LS, *args], capture_output=True, text=True, env=e, timeout=timeout)


devices = doc(run('devices', '--json'), 'devices --json')
AVAILABLE = [b['backend'] for b in devices.get('backends', []) if b['available']]

# ---- the version and the commit ------------------------------------------------
commit = None
if os.path.exists(os.path.join(SOURCE, '.git')):
    head = subprocess.run(['git', '-C', SOURCE, 'rev-parse', 'HEAD'], capture_output=True, text=True)
    commit = head.stdout.strip() if head.returncode == 0 else None
version_line = run('version').stdout.strip()
expect(version_line.startswith('lockstep %s' % VERSION), 'lockstep version names the release', version_line)


def check_provenance(d, what):
    lk = d.get('lockstep', {})
    ok = lk.get('version') == VERSION
    if commit:  # "abc123def456", "abc123def456+" (changes), "v1.0-3-gabc123def456"
        c = (lk.get('commit') or '').rstrip('+').split('-g')[-1]
        ok = ok and len(c) >= 7 and commit.startswith(c)
    else:
        ok = ok and lk.get('commit') is None
    expect(ok, '%s carries the version %s and the commit %s' % (what, VERSION, commit), str(lk))


check_provenance(devices, 'devices --json')
if commit:
    expect(commit[:12] in version_line, 'lockstep version names the commit', version_line)

# ---- runs: params and the device ----------------------------------------------
RUNS = {'graveler': (['graveler', '--battles', '12345'], {'battles': 12345}),
        'bmn': (['bmn', 'search', '--deals', '3000', '--top', '4'], {'deals': 3000, 'top': 4}),
        'life': (['life', '--dims', '2', '--size', '40x30', '--steps', '3'], {'size': '40x30', 'steps': 3}),
        'ray': (['ray', '--size', '32x16', '--spp', '2'], {'size': '32x16', 'spp': 2})}
UNITS = {}  # each workload's unit, from its run's "UNIT_per_second"
for name, (args, params) in RUNS.items():
    d = doc(run(*args, '--backend', 'openmp', '--json', '--quiet'), name + ' --json')
    check_provenance(d, name + ' --json')
    UNITS[name] = next((k[:-len('_per_second')] for k in d if k.endswith('_per_second')), None)
    got = d.get('params', {})
    expect(all(got.get(k) == v for k, v in params.items()), '%s --json: params hold the options given %s' % (name, params),
           str(got))
    expect(d.get('device') == 'openmp:0' and d.get('backend') == 'openmp' and isinstance(d.get('device_name'), str)
           and d.get('device_name'), '%s --json: device is the spec, device_name the name' % name,
           '%s %s' % (d.get('device'), d.get('device_name')))

# check ray --json: the example (no size or spp before)
c = doc(run('check', 'ray', '--size', '32x16', '--spp', '2', '--backends', 'openmp', '--json', '--quiet'),
        'check ray --json')
check_provenance(c, 'check ray --json')
expect(c.get('params', {}).get('size') == '32x16' and c.get('params', {}).get('spp') == 2,
       'check ray --json has size and spp', str(c.get('params')))
runs = c.get('runs', [])
expect(runs and all(SPEC.match(r.get('device', '')) and r.get('device_name') and r.get('differs') == [] for r in runs),
       'check --json: every run has a device spec, a device_name and no differing field', str(runs))
call = doc(run('check', 'all', '--backends', 'openmp', '--json', '--quiet'), 'check all --json')
check_provenance(call, 'check all --json')
expect(sorted(x.get('workload') for x in call.get('checks', [])) == sorted(RUNS) and
       all(x.get('params') for x in call.get('checks', [])), 'check all --json: every workload with its params')

# ---- bench and bench all ----------------------------------------------------------
b = doc(run('bench', 'graveler', '--battles', '1e5', '--repeat', '1', '--warmup', '0', '--backend', 'openmp',
            '--json'), 'bench --json')
check_provenance(b, 'bench --json')
expect(b.get('device') == 'openmp:0' and b.get('device_name') and b.get('params', {}).get('battles') == 100000,
       'bench --json: device spec, device_name, params', str(b)[:300])
ba = run('bench', 'all', '--repeat', '1', '--warmup', '0', '--json')
bd = doc(ba, 'bench all --json')
check_provenance(bd, 'bench all --json')
ndev = sum(len(x['devices']) for x in devices.get('backends', []) if x['available'])
benches = bd.get('benches', [])
expect(ba.returncode == 0 and len(benches) == len(RUNS) * ndev and
       {x.get('workload') for x in benches} == set(RUNS) and all(SPEC.match(x.get('device', '')) for x in benches) and
       all(x.get('median_s', 0) > 0 and x.get('digest') for x in benches),
       'bench all --json: every workload on each of the %d devices, timed' % ndev, ba.stderr + str(benches)[:400])
# The same digest for a workload on every device: bench all is a cross-check too.
for w in RUNS:
    digests = {x.get('digest') for x in benches if x.get('workload') == w}
    expect(len(digests) == 1, 'bench all: %s has one digest on every device' % w, str(digests))
# Battles, deals, cell updates and rays in one table: each row names its
# unit (issue 34, item 14).
expect(all(x.get('unit') == UNITS[x.get('workload')] for x in benches) and len(set(UNITS.values())) == len(RUNS),
       'bench all --json: each row\'s "unit", the one its workload counts', str([(x.get('workload'), x.get('unit'))
                                                                           for x in benches]))
expect(b.get('unit') == UNITS['graveler'] == 'battles', 'bench --json: "unit"', str(b.get('unit')))
bt = run('bench', 'all', '--repeat', '1', '--warmup', '0', '--backends', 'openmp')
# The table ends at the first blank line; the efficiency summary follows.
lines = bt.stdout.split('\n\n')[0].splitlines()
rows = [l for l in lines[1:] if l.split() and l.split()[0] in RUNS]
expect(bt.returncode == 0 and len(rows) == len(RUNS) and all('openmp:0' in l for l in rows),
       'bench all prints one table: a row per workload and device', bt.stdout + bt.stderr)
expect(lines and ' unit ' in lines[0] and 'items' not in lines[0] and
       all((' %s ' % UNITS[l.split()[0]].replace('_', ' ')) in l for l in rows),
       'bench all\'s table: a "unit" column, each row\'s unit in it (cell updates for life)', bt.stdout)

# ---- conformance: --list, --case, --junit ------------------------------------------
listed = run('conformance', '--list').stdout.splitlines()
expect(len(listed) >= 10 and any(l.startswith('exact float') for l in listed) and
       any(l.startswith('ray ') for l in listed), 'conformance --list lists the cases', str(listed))
rays = run('conformance', '--list', '--case', 'RAY*').stdout.splitlines()
expect(rays and rays == [l for l in listed if l.startswith('ray ')], 'conformance --case takes a glob, ignoring case',
       str(rays))
sub = run('conformance', '--list', '--case', 'turn').stdout.splitlines()
expect(sub and sub == [l for l in listed if 'turn' in l], 'conformance --case takes a substring', str(sub))
lj = doc(run('conformance', '--list', '--json', '--workload', 'bmn'), 'conformance --list --json')
expect(lj.get('cases') == [l for l in listed if l.startswith('bmn ')], 'conformance --list --workload bmn --json',
       str(lj))
none = run('conformance', '--case', 'no such case')
expect(none.returncode == 2 and '--case' in none.stderr and not none.stdout,
       'conformance --case matching nothing exits 2', none.stderr)

with tempfile.TemporaryDirectory() as tmp:
    junit = os.path.join(tmp, 'conf.xml')
    backends = ','.join(b for b in AVAILABLE if b in ('openmp', 'opencl'))
    p = run('conformance', '--backend', backends, '--case', 'graveler 1 turn*', '--junit', junit)
    try:
        root = ET.parse(junit).getroot()
    except (OSError, ET.ParseError) as e:
        root = None
        expect(False, 'conformance --junit writes XML', repr(e) + p.stdout + p.stderr)
    if root is not None:
        suites = root.findall('testsuite')
        names = [s.get('name') for s in suites]
        cases = [(s.get('name'), t.get('name')) for s in suites for t in s.findall('testcase')]
        expect(p.returncode == 0 and root.tag == 'testsuites' and sorted(names) == sorted(b + ':0' for b in backends.split(',')),
               'conformance --junit: one testsuite per device', '%s %s' % (names, p.stderr))
        expect(all(t == 'graveler 1 turn, max seed' for _, t in cases) and len(cases) == len(suites) and
               all(s.get('tests') == '1' and s.get('failures') == '0' for s in suites) and
               not list(root.iter('failure')), 'conformance --junit: one testcase per case, all passing', str(cases))
        props = {x.get('name'): x.get('value') for x in suites[0].iter('property')}
        expect(props.get('lockstep_version') == VERSION and props.get('device_name'),
               'conformance --junit: the version and the device name as properties', str(props))
    # A failure: a testcase with a <failure> that carries the detail.
    p = run('conformance', '--backend', 'openmp', '--case', 'turn', '--junit', junit, '--json',
            env={'LOCKSTEP_DEBUG_FAULT': 'openmp:conformance'})
    try:
        root = ET.parse(junit).getroot()
    except (OSError, ET.ParseError) as e:
        expect(False, 'conformance --junit with failures writes XML', repr(e))
        root = ET.Element('testsuites')
    fails = [t for t in root.iter('testcase') if t.find('failure') is not None]
    detail = fails[0].find('failure').get('message') if fails else ''
    expect(p.returncode == 1 and len(fails) == len(sub) and root.get('failures') == str(len(sub)) and
           '"<&>"' in detail and 'max' in (fails[0].find('failure').text or ''),
           'a failed case is a <failure> with the detail (escaped and read back), exit 1',
           'rc=%d %s %s' % (p.returncode, detail, p.stderr))
    j = doc(p, 'conformance --json')
    check_provenance(j, 'conformance --json')
    expect(j.get('failed') == len(sub) and all(c['device'] == 'openmp:0' and c['device_name'] and not c['pass']
                                               for c in j.get('cases', [])) and
           j.get('params', {}).get('case') == 'turn', 'conformance --json: device spec, device_name, params')
    # Whole or not at all: a refused run leaves the file as it was; a directory is refused before any case runs.
    with open(junit, 'w') as f:
        f.write('old')
    p = run('conformance', '--case', 'no such case', '--junit', junit)
    expect(p.returncode == 2 and open(junit).read() == 'old', 'a refused conformance leaves the JUnit file alone')
    p = run('conformance', '--backend', 'openmp', '--junit', tmp)
    expect(p.returncode == 2 and 'directory' in p.stderr and not p.stdout.strip(),
           'conformance --junit DIRECTORY exits 2 before running', p.stdout + p.stderr)
    # Interrupted: a signal after the first case leaves the old file as it was.
    proc = subprocess.Popen([LS, 'conformance', '--backend', 'openmp', '--junit', junit], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    first = proc.stdout.readline() + proc.stdout.readline()  # the header, then the first case
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    expect(proc.returncode == 130 and open(junit).read() == 'old' and 'interrupted' in out,
           'conformance stopped by Ctrl-C exits 130 and leaves the JUnit file as it was',
           'rc=%d %s %s' % (proc.returncode, first + out[-300:], err))

# ---- devices -----------------------------------------------------------------------------
for be in devices.get('backends', []):
    for i, dv in enumerate(be['devices']):
        keys = {'device', 'device_name', 'vendor', 'driver_version', 'opencl_c_version', 'clock_mhz', 'platform'}
        expect(keys <= set(dv) and dv['device'] == '%s:%d' % (be['backend'], i) and dv['device_name'] and
               (be['backend'] != 'opencl' or (dv['opencl_c_version'] or '').startswith('OpenCL C')) and
               (be['backend'] == 'openmp' or (dv['vendor'] and dv['driver_version'] and dv['clock_mhz'])),
               'devices --json: %s has its vendor, driver, OpenCL C version and clock' % dv.get('device'), str(dv))
text = run('devices').stdout
expect(text.count('vendor ') == ndev and ('opencl' not in AVAILABLE or 'OpenCL C' in text),
       'devices prints the vendor and driver of each device', text)
specs = run('devices', '--specs').stdout.split()
want = ['auto'] + [s for b in devices.get('backends', []) if b['available']
                   for s in [b['backend']] + ['%s:%d' % (b['backend'], i) for i in range(len(b['devices']))] +
                   [b['backend'] + ':all']]
expect(specs == want, 'devices --specs lists what --backend accepts here', '%s != %s' % (specs, want))

# ---- progress without a terminal -----------------------------------------------------------
def progress_lines(*extra, wait=4.0, what=('graveler', '--battles', '1e15')):
    """Starts a long run (graveler unless `what`) with stderr on a pipe, stops
    it with SIGINT after the first progress line (or `wait` seconds), returns
    its lines."""
    proc = subprocess.Popen([LS, *what, '--backend', 'openmp', *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    os.set_blocking(proc.stderr.fileno(), False)
    got, end = b'', time.time() + wait
    while time.time() < end and b'\n' not in got:
        got += proc.stderr.read() or b''
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    return [l for l in (got + (err or b'')).decode().splitlines() if ' s elapsed, ' in l], proc.returncode


lines, rc = progress_lines('--progress-every', '1', wait=30)
expect(rc == 130 and lines and re.match(r'^graveler on openmp:0: +[\d.]+% of 1e15 battles, \d+ s elapsed, ~\d+ s left, '
                                        r'[\d.e]+ battles/s; max so far \d+$', lines[0]),
       '--progress-every 1 without a terminal: whole lines with the rate and the maximum so far',
       'rc=%d %s' % (rc, lines))
# Life speaks in generations, its rate in cell updates (issue 34, item 14).
lines, rc = progress_lines('--progress-every', '1', wait=30,
                           what=('life', '--dims', '2', '--size', '1024', '--steps', '1e9'))
expect(rc == 130 and lines and re.match(r'^life on openmp:0: generation \d+ of 1e9 \([\d.]+%\), \d+ s elapsed, '
                                        r'~\d+ s left, [\d.e]+ cell updates/s$', lines[0]),
       'Life\'s progress lines: "generation N of M" and cell updates/s', 'rc=%d %s' % (rc, lines))
lines, rc = progress_lines(wait=3)
expect(rc == 130 and not lines, 'without a terminal the default is a line a minute: none in 3 s', str(lines))
lines, rc = progress_lines('--progress-every', '1', '--quiet', wait=3)
expect(rc == 130 and not lines, '--quiet wins over --progress-every', str(lines))
# BMN: the progress line carries the best game so far (what a hunt is for).
proc = subprocess.Popen([LS, 'bmn', 'search', '--deals', '1e12', '--backend', 'openmp', '--progress-every', '1'],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
time.sleep(3.5)
proc.send_signal(signal.SIGINT)
out, err = proc.communicate(timeout=120)
blines = [l for l in err.decode().splitlines() if '% of' in l]
expect(proc.returncode == 130 and blines and re.search(r'deals/s; best so far \d+ cards \(deal \d+\)$', blines[-1]),
       'bmn search without a terminal: progress lines with the best game so far', str(blines[-2:]))
# bmn play and bmn report print JSON of their own: they carry the version too.
check_provenance(doc(run('bmn', 'play', '--json', 'A-/K-'), 'bmn play --json'), 'bmn play --json')
with tempfile.TemporaryDirectory() as tmp:
    ck = os.path.join(tmp, 'r.ckpt')
    run('bmn', 'search', '--deals', '2000', '--backend', 'openmp', '--checkpoint', ck, '--quiet')
    check_provenance(doc(run('bmn', 'report', ck, '--json'), 'bmn report --json'), 'bmn report --json')
p = run('graveler', '--progress-every', '0')
expect(p.returncode == 2 and '--progress-every' in p.stderr, '--progress-every 0 is refused', p.stderr)

finish()
