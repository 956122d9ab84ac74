#!/usr/bin/env python3
"""Command-line behaviour: bad input gives one line on stderr naming the
flag and exit code 2; --help works on every command; --json is JSON.

usage: cli_test.py LOCKSTEP
"""
import fcntl
import json
import os
import pty
import re
import struct
import subprocess
import sys
import termios

LS = sys.argv[1]
failures = 0
checks = 0


def run(*args, env=None):
    p = subprocess.run([LS, *args], capture_output=True, text=True, env=env, timeout=300)
    return p.returncode, p.stdout, p.stderr


def expect(ok, what, detail=''):
    global failures, checks
    checks += 1
    if not ok:
        failures += 1
        print('FAIL', what, detail)


def bad(args, needle):
    rc, out, err = run(*args)
    lines = [l for l in err.splitlines() if l.strip()]
    expect(rc == 2 and len(lines) == 1 and needle in err and not out,
           'bad input %r exits 2 with one line naming %r' % (args, needle),
           'rc=%d stderr=%r stdout=%r' % (rc, err, out[:200]))


def unwrapped(text):
    """--help's text with each option's lines joined into one: --help fills
    its lines to a width, an option's text continuing under its column."""
    lines = []
    for line in text.splitlines():
        if lines and line.startswith(' ' * 27) and lines[-1].startswith('  '):
            lines[-1] += ' ' + line.strip()
        else:
            lines.append(line)
    return '\n'.join(lines) + '\n'


bad(['graveler', '--battles', '0'], '--battles')
bad(['graveler', '--battles', '-5'], '--battles')
bad(['graveler', '--battles', 'abc'], '--battles')
bad(['graveler', '--battles', '1e99'], '--battles')
bad(['graveler', '--battles', '1.5'], '--battles')
bad(['graveler', '--battles', '99999999999999999999999'], '--battles')
bad(['graveler', '--battles'], '--battles')
bad(['graveler', '--turns', '0'], '--turns')
bad(['graveler', '--turns', '100000'], '--turns')
bad(['graveler', '--seed', 'x1'], '--seed')
bad(['graveler', '--seed', '18446744073709551616'], '--seed')
bad(['graveler', '--frobnicate'], '--frobnicate')
bad(['graveler', '--backend', 'vulkan'], 'vulkan')
bad(['graveler', '--backend', 'openmp:7'], 'index')
bad(['graveler', '--backend', 'openmp:x'], 'index')
bad(['graveler', '--backend', 'openmp,'], 'empty item')
bad(['graveler', '--backend', ',openmp'], 'empty item')
bad(['graveler', '--backend', 'openmp++openmp'], 'empty item')
bad(['graveler', '--backend', 'opencl: 0'], 'no spaces')
bad(['graveler', '--backend', 'openmp:+0'], 'index')
bad(['check', 'nosuch'], 'nosuch')
# check compares devices: a device named twice (or a list cut short) would
# make "N devices agree" a lie.
bad(['check', 'graveler', '--backends', 'openmp,openmp'], 'named twice')
bad(['check', 'graveler', '--backends', 'openmp:0,openmp'], 'named twice')
bad(['check', 'graveler', '--backends', 'openmp,'], 'empty item')
bad(['check', 'graveler', '--backends', 'openmp,,openmp'], 'empty item')
bad(['check', 'graveler', '--backends', 'openmp:+0'], 'index')
bad(['check', 'graveler', '--backends', 'foo:all'], 'foo')
bad(['check', 'graveler', '--backends', ','.join(['openmp:0'] * 9)], 'named twice')
bad(['check', 'graveler', '--backends', ','.join(['openmp:all'] * 2)], 'named twice')
bad(['check', 'graveler', '--backends', 'vulkan'], 'vulkan')
bad(['bench', 'graveler', '--repeat', '0'], '--repeat')
bad(['conformance', '--workload', 'nosuch'], 'nosuch')
bad(['nosuchcommand'], 'nosuchcommand')

# Bytes that are not UTF-8 (a file name in another encoding) become U+FFFD
# in JSON and '?' in error lines: both stay valid UTF-8.
import os
import tempfile
with tempfile.TemporaryDirectory() as tmp:
    ck = os.path.join(tmp.encode(), b'\xff\xfe.ckpt')
    p = subprocess.run([LS.encode(), b'bmn', b'search', b'--deals', b'2000', b'--backend', b'openmp', b'--checkpoint',
                        ck, b'--quiet'], capture_output=True)
    p = subprocess.run([LS.encode(), b'bmn', b'report', ck, b'--json'], capture_output=True)
    try:
        d = json.loads(p.stdout.decode('utf-8'))
    except ValueError as e:
        d = {'error': str(e)}
    expect(p.returncode == 0 and '\ufffd\ufffd.ckpt' in d.get('checkpoint', ''),
           'a checkpoint name that is not UTF-8: the JSON is valid UTF-8, with U+FFFD', repr(p.stdout[:200]))
    p = subprocess.run([LS.encode(), b'life', b'--in', os.path.join(tmp.encode(), b'\xff.rle')], capture_output=True)
    try:
        err = p.stderr.decode('utf-8')
    except ValueError:
        err = None
    expect(p.returncode == 2 and err is not None and '?.rle' in err,
           'an input name that is not UTF-8: the error line is valid UTF-8', repr(p.stderr))

# Beggar My Neighbour
bad(['bmn', 'play', 'AXJ/--'], 'X')
bad(['bmn', 'play', '/--'], 'empty')
bad(['bmn', 'play', 'AJ/'], 'empty')
bad(['bmn', 'play'], 'deal')
bad(['bmn', 'search', '--deals', '0'], '--deals')
bad(['bmn', 'search', '--top', '5000'], '--top')
bad(['bmn', 'search', '--cap', '10'], '--cap')
bad(['bmn', 'nosuch'], 'nosuch')
rc, out, err = run('bmn', 'play', '---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---')
expect(rc == 0 and '8344 cards' in out and '1164 tricks' in out, 'bmn play reproduces the Nessler record', out)
rc, out, err = run('bmn', 'play', '--J-/J-', '--json')
try:
    d = json.loads(out)
    expect(rc == 0 and d['outcome'] == 'loop' and d['loop_tricks'] == 2 and d['loop_cards'] == 6,
           'bmn play --json reports a loop with its length')
except ValueError:
    expect(False, 'bmn play --json is JSON', out)
rc, out, err = run('bmn', 'play', 'J/--', '--trace')
expect(rc == 0 and out.count('\n') >= 3 and 'A wins' in out, 'bmn play --trace prints the tricks and the result', out)
rc, out, err = run('bmn', 'play', '2345678910JQKA/-', '--json')
expect(rc == 0 and json.loads(out)['cards'] > 0, 'numerals written 2-10 are accepted', err)
rc, out, err = run('bmn', 'search', '--deals', '20000', '--backend', 'openmp', '--json', '--top', '3')
try:
    d = json.loads(out)
    expect(rc == 0 and d['deals'] == 20000 and sum(d['histogram']['counts']) == 20000 and len(d['top_by_cards']) == 3 and
           d['top_by_cards'][0]['cards'] >= d['top_by_cards'][2]['cards'],
           'bmn search --json: histogram sums to the deals, top K is sorted')
except (ValueError, KeyError) as e:
    expect(False, 'bmn search --json has the documented fields', repr(e))

for cmd in (['--help'], ['bmn', '--help'], ['bmn', 'play', '--help'], ['bmn', 'search', '--help'], ['devices', '--help'], ['graveler', '--help'], ['check', '--help'],
            ['check', 'graveler', '--help'], ['conformance', '--help'], ['bench', '--help'],
            ['bench', 'graveler', '--help']):
    rc, out, err = run(*cmd)
    expect(rc == 0 and 'usage' in out, '%s prints usage and exits 0' % ' '.join(cmd), 'rc=%d' % rc)

rc, out, err = run('devices', '--json')
try:
    d = json.loads(out)
    names = [b['backend'] for b in d['backends']]
    expect(rc == 0 and 'openmp' in names, 'devices --json lists openmp')
    for b in d['backends']:
        expect(b['available'] or b.get('why'), 'an unavailable backend says why: %s' % b['backend'])
except ValueError:
    expect(False, 'devices --json is JSON', out[:200])

rc, out, err = run('graveler', '--battles', '100000', '--backend', 'openmp', '--json')
try:
    d = json.loads(out)
    expect(rc == 0 and d['battles'] == 100000 and sum(d['histogram']) == 100000 and
           len(d['histogram']) == 232 and d['max'] == max(i for i, c in enumerate(d['histogram']) if c),
           'graveler --json: histogram sums to the battles and max is its top bin')
except (ValueError, KeyError) as e:
    expect(False, 'graveler --json is JSON with the documented fields', repr(e))

rc, out, err = run('graveler', '--battles', '1e5', '--backend', 'openmp', '--quiet')
expect(rc == 0 and 'max:' in out and err == '', 'graveler prints a readable result and nothing on stderr')

env = {'LOCKSTEP_BACKEND': 'nosuch', 'PATH': '/usr/bin:/bin'}
rc, out, err = run('graveler', '--battles', '1000', env=env)
expect(rc == 2 and 'LOCKSTEP_BACKEND' in err and 'nosuch' in err and '--backend' not in err,
       'a bad LOCKSTEP_BACKEND is blamed on the variable, not on --backend', err)
rc, out, err = run('devices', env=env)
expect(rc == 2 and 'LOCKSTEP_BACKEND' in err and not out, 'devices refuses a bad LOCKSTEP_BACKEND', out + err)

# LOCKSTEP_CPU_ISA caps the CPU code's compiled copy (src/cpu_isa.h): a
# value it does not know is the user's error before any command runs;
# every copy gives the same answers (but the raytracer's fast mode, whose
# copies round differently: docs/ray.md).
env = {'LOCKSTEP_CPU_ISA': 'avx9', 'PATH': '/usr/bin:/bin'}
for args in (['graveler', '--battles', '1000', '--backend', 'openmp'], ['check', 'graveler', '--battles', '1000'],
             ['bench', 'graveler', '--battles', '1000', '--backend', 'openmp'], ['conformance', '--backend', 'openmp']):
    rc, out, err = run(*args, env=env)
    lines = [l for l in err.splitlines() if l.strip()]
    expect(rc == 2 and len(lines) == 1 and 'LOCKSTEP_CPU_ISA' in err and "'avx9'" in err,
           '%s refuses LOCKSTEP_CPU_ISA=avx9 in one line' % args[0], 'rc=%d %r' % (rc, err))
same = [['graveler', '--battles', '3e5'], ['bmn', 'search', '--deals', '2e4'], ['ray', '--size', '24x16', '--spp', '3'],
        ['life', '--dims', '3', '--size', '40', '--steps', '6'], ['life', '--dims', '2', '--size', '130', '--steps', '9']]
for args in same:
    digests = {}
    for level in ('', 'generic', 'avx2', 'avx512'):
        rc, out, err = run(*args, '--backend', 'openmp', '--json', '--quiet',
                           env={'LOCKSTEP_CPU_ISA': level, 'PATH': '/usr/bin:/bin'})
        try:
            digests[level or 'unset'] = json.loads(out)['digest'] if rc == 0 else 'exit %d: %s' % (rc, err)
        except (ValueError, KeyError):
            digests[level or 'unset'] = out[:100]
    # avx2 and avx512 are refused where the CPU lacks them: only the copies it runs are compared.
    ran = {k: v for k, v in digests.items() if not v.startswith('exit 2: lockstep: LOCKSTEP_CPU_ISA=')}
    expect(len(set(ran.values())) == 1 and 'generic' in ran and 'unset' in ran,
           '%s: the same digest with every copy of the CPU code this CPU runs (%s)' % (' '.join(args), ', '.join(ran)),
           str(digests))

# check: nothing compared is "skipped" (77), never a pass; a device index
# the backend does not have is the user's error (2).
rc, out, err = run('check', 'graveler', '--battles', '1e5', '--backends', 'openmp', '--quiet')
expect(rc == 77 and 'skipped' in out, 'check with one device exits 77 and says nothing was compared', out)
rc, out, err = run('check', 'all', '--backends', 'openmp', '--json', '--quiet')
try:
    d = json.loads(out)
    expect(rc == 77 and d['status'] == 'skipped' and {'graveler', 'bmn'} <= {c['workload'] for c in d['checks']},
           'check all --json is one document covering every workload')
except ValueError:
    expect(False, 'check all --json is one JSON document', out[:300])

# -V is --version; `lockstep help COMMAND` is that command's --help (as git
# and cargo have them), and an unknown command there is refused by name.
v1, v2 = run('-V'), run('version')
expect(v1[0] == 0 and v1[1] == v2[1] and v1[1].strip(), '-V prints what `lockstep version` prints', repr(v1))
for cmd in (['graveler'], ['bmn'], ['check'], ['life']):
    h1, h2 = run('help', *cmd), run(*cmd, '--help')
    expect(h1[0] == 0 and h1[1] == h2[1] and h1[1].strip(), '`lockstep help %s` is `lockstep %s --help`' % (cmd[0], cmd[0]),
           '%r %r' % (h1[:2], h2[:2]))
bad(['help', 'nosuchcommand'], 'nosuchcommand')

# One is singular in the reports (issue 27): "1 generation", "(1 run after 1 warm-up)".
rc, out, err = run('life', '--dims', '2', '--size', '16', '--steps', '1', '--backend', 'openmp')
expect(rc == 0 and ', 1 generation\n' in out and '1 generations' not in out, 'life --steps 1 says "1 generation"', out[:200])
rc, out, err = run('bench', 'graveler', '--battles', '1e4', '--repeat', '1', '--warmup', '1', '--backend', 'openmp')
expect(rc == 0 and '(1 run after 1 warm-up)' in out, 'bench --repeat 1 --warmup 1 says "(1 run after 1 warm-up)"',
       out[-300:] + err[-300:])

# ---- one --backend everywhere (issue 27) --------------------------------------
# check, bench all and conformance take --backend SPEC like every other
# command; --backends, their older spelling, is the same option everywhere.
for flag in ('--backend', '--backends'):
    rc, out, err = run('check', 'graveler', '--battles', '1e4', flag, 'openmp', '--quiet')
    expect(rc == 77 and 'skipped' in out, 'check %s openmp: accepted (one device: 77)' % flag, 'rc=%d %s' % (rc, err))
    bad(['check', 'graveler', flag, 'openmp,openmp'], 'named twice')
    rc, out, err = run('bench', 'all', flag, 'openmp', '--repeat', '1', '--warmup', '0', '--json')
    try:
        benches = json.loads(out)['benches']
    except (ValueError, KeyError):
        benches = []
    expect(rc == 0 and benches and all(b['device'] == 'openmp:0' for b in benches),
           'bench all %s openmp: every bench on openmp:0' % flag, 'rc=%d %s' % (rc, err[-300:]))
    rc, out, err = run('bench', 'graveler', '--battles', '1e4', '--repeat', '1', flag, 'openmp', '--json')
    expect(rc == 0 and json.loads(out or '{}').get('device') == 'openmp:0', 'bench graveler %s openmp' % flag,
           'rc=%d %s' % (rc, err))
    rc, out, err = run('graveler', '--battles', '1e4', flag, 'openmp', '--json', '--quiet')
    expect(rc == 0 and json.loads(out or '{}').get('device') == 'openmp:0', 'graveler %s openmp' % flag, err)
    rc, out, err = run('conformance', '--case', 'graveler 1 turn', flag, 'openmp', '--json')
    expect(rc == 0 and {c['device'] for c in json.loads(out or '{"cases":[]}')['cases']} == {'openmp:0'},
           'conformance %s openmp: the cases on openmp:0 only' % flag, 'rc=%d %s' % (rc, err))
bad(['check', 'graveler', '--backends', 'openmp:5'], '--backend')
# auto is the device auto picks, also in check and conformance.
rc, out, err = run('check', 'graveler', '--battles', '1e4', '--backend', 'auto', '--quiet', '--json')
expect(rc == 77 and len(json.loads(out or '{"runs":[]}')['runs']) == 1, 'check --backend auto: one device',
       'rc=%d %s' % (rc, err))


def conformance_devices(env_backend=None, *args):
    env = dict(os.environ)
    env.pop('LOCKSTEP_BACKEND', None)
    if env_backend is not None:
        env['LOCKSTEP_BACKEND'] = env_backend
    rc, out, err = run('conformance', '--case', 'graveler 1 turn', '--json', *args, env=env)
    try:
        return rc, sorted({c['device'] for c in json.loads(out)['cases']}), err
    except (ValueError, KeyError):
        return rc, None, err


# conformance honours LOCKSTEP_BACKEND as every command does; --backend
# overrides it, and without either it runs on every device.
every = conformance_devices()
expect(every[0] in (0, 1) and every[1] and 'openmp:0' in every[1], 'conformance: every device by default', str(every))
got = conformance_devices('openmp')
expect(got[0] == 0 and got[1] == ['openmp:0'], 'conformance under LOCKSTEP_BACKEND=openmp: openmp:0 alone', str(got))
got = conformance_devices('auto')
expect(got[0] == 0 and got[1] and len(got[1]) == 1, 'conformance under LOCKSTEP_BACKEND=auto: auto\'s one device',
       str(got))
if len(every[1] or []) > 1:
    other = [d for d in every[1] if d != 'openmp:0'][0]
    got = conformance_devices('openmp', '--backend', other)
    expect(got[1] == [other], 'conformance --backend %s overrides LOCKSTEP_BACKEND=openmp' % other, str(got))
env = dict(os.environ, LOCKSTEP_BACKEND='nosuch')
rc, out, err = run('conformance', '--case', 'graveler 1 turn', env=env)
expect(rc == 2 and 'LOCKSTEP_BACKEND' in err and 'nosuch' in err and len(err.strip().splitlines()) == 1,
       'conformance blames a bad LOCKSTEP_BACKEND on the variable', 'rc=%d %r' % (rc, err))
rc, out, err = run('conformance', '--help')
backend_line = [l for l in unwrapped(out).splitlines() if l.startswith('  --backend ')]
expect(backend_line and 'default $LOCKSTEP_BACKEND when set, else every device' in backend_line[0] and
       'else auto' not in out, 'conformance --help says one thing about the devices it uses', str(backend_line))

# bench --help lists every option bench accepts, of bench all and of bench
# WORKLOAD alike (the workload's own options aside: bench WORKLOAD --help).
def help_options(*path):
    return set(re.findall(r'^  --([a-z0-9-]+)', run(*path, '--help')[1], re.M))


bench_help = help_options('bench')
workload_own = help_options('graveler') - help_options('check')
for path in (('bench', 'all'), ('bench', 'graveler')):
    accepted = help_options(*path) - workload_own
    expect(accepted and accepted <= bench_help, 'bench --help lists the options of %s' % ' '.join(path),
           'missing %s' % sorted(accepted - bench_help))

# An unknown option names the nearest one; one far from every option is
# only refused.
bad(['graveler', '--backedn', 'openmp'], 'did you mean --backend?')
bad(['graveler', '--bakcend', 'openmp'], 'did you mean --backend?')
bad(['graveler', '--battle', '5'], 'did you mean --battles?')
bad(['bmn', 'search', '--seeds', '3'], 'did you mean --seed?')
bad(['conformance', '--cases', 'x'], 'did you mean --case?')
bad(['check', 'graveler', '--bakends', 'openmp'], 'did you mean --backends?')
bad(['graveler', '-backend', 'openmp'], 'did you mean --backend?')
rc, out, err = run('graveler', '--frobnicate')
expect(rc == 2 and 'did you mean' not in err, 'an option near none is refused without a guess', err)

# ---- --help shows each option's default, as the run uses it -------------------
# The default each --help line gives is the value a run's "params" holds
# when the option is not given (the options that make a run slow given).
HELP_NOTES = re.compile(r'^  --([a-z0-9-]+)(?: (\S+))?\s.*\(([^()]*)\)$')
CHEAP = {('graveler',): ['--battles', '1e4'], ('bmn', 'search'): ['--deals', '1000'],
         ('life',): ['--dims', '2', '--size', '16', '--steps', '1'], ('ray',): ['--size', '8x8', '--spp', '1']}


def help_defaults(*path):
    """{option: (default or None, minimum of its range or None)} from --help."""
    rc, out, err = run(*path, '--help')
    got = {}
    for line in unwrapped(out).splitlines():
        m = HELP_NOTES.match(line)
        if not m:
            continue
        notes = m.group(3).split('; ')
        default = [n[len('default '):] for n in notes if n.startswith('default ')]
        low = [n.split(' to ')[0] for n in notes if ' to ' in n and n.split(' to ')[0].isdigit()]
        got[m.group(1)] = (default[0] if default else None, int(low[0]) if low else None)
    return got


def as_value(text):
    try:
        return int(float(text)) if re.match(r'^\d+(e\d+)?$', text) else text
    except ValueError:
        return text


for path, cheap in CHEAP.items():
    defaults = help_defaults(*path)
    rc, out, err = run(*path, *cheap, '--backend', 'openmp', '--json', '--quiet')
    params = json.loads(out).get('params', {}) if rc == 0 else {}
    given = {cheap[i][2:] for i in range(0, len(cheap), 2)}
    shown = 0
    for name, value in params.items():
        if name in given or value is None or isinstance(value, bool):
            continue
        default, low = defaults.get(name, (None, None))
        if low is not None and isinstance(value, int) and value < low:
            continue  # below its range: the option's "unset", which has no value to show
        ok = default is not None and (' ' in default or as_value(default) == value)
        shown += ok
        expect(ok, 'lockstep %s --help: --%s (default %s) as a run uses it (%r)' %
               (' '.join(path), name, default, value))
    expect(shown >= 2, 'lockstep %s --help shows defaults (%d compared)' % (' '.join(path), shown))
# Help asked for after other options still shows the defaults, not them.
h1, h2 = run('graveler', '--help'), run('graveler', '--battles', '5', '--turns', '7', '--help')
expect(h1[0] == h2[0] == 0 and h1[1] == h2[1] and 'default 1e9' in unwrapped(h1[1]),
       'graveler --battles 5 --help: the same help, the defaults as they are', h2[1][:300])

# ---- what a new user meets first (issue 34) -------------------------------------
def command_paths():
    """Every command path, as the help lists them: each command of
    `lockstep --help`, the subcommands a command's --help names, and a
    workload and `all` after check and bench."""
    paths = []
    for line in run('--help')[1].split('commands:')[1].splitlines():
        m = re.match(r'^  ([a-z]+)( WORKLOAD)?', line)
        if not m:
            continue
        name = m.group(1)
        subs = sorted(set(re.findall(r'lockstep %s ([a-z]+)' % name, run(name, '--help')[1])))
        if m.group(2):
            paths += [[name, 'graveler'], [name, 'all']]
        elif subs:
            paths += [[name, sub] for sub in subs]
        else:
            paths.append([name])
    return paths


PATHS = command_paths()
expect(['devices'] in PATHS and ['bmn', 'search'] in PATHS and ['check', 'all'] in PATHS and ['version'] in PATHS,
       'the help names every command path (%d)' % len(PATHS), str(PATHS))
# The common options on every command: a script may pass --quiet and
# --json to any (devices and conformance refused --quiet).
for path in PATHS:
    listed = help_options(*path)
    expect({'json', 'quiet'} <= listed, 'lockstep %s --help lists --json and --quiet' % ' '.join(path), str(listed))
    rc, out, err = run(*path, '--quiet', '--json', '--no-such-option')
    expect(rc == 2 and "'--no-such-option'" in err and "'--quiet'" not in err and "'--json'" not in err,
           'lockstep %s takes --quiet and --json' % ' '.join(path), err)
for args in (['devices'], ['conformance', '--list'], ['version']):
    plain, quiet = run(*args), run(*args, '--quiet')
    expect(quiet[0] == 0 and quiet[1] and (args == ['devices'] or quiet[1] == plain[1]),
           'lockstep %s --quiet runs' % ' '.join(args), 'rc=%d %r' % (quiet[0], quiet[2]))
rc, out, err = run('version', '--json')
try:
    d = json.loads(out)
    expect(rc == 0 and d['lockstep']['version'] in run('version')[1], 'version --json: the version, as JSON')
except (ValueError, KeyError):
    expect(False, 'version --json is JSON', out)
bad(['version', '--bogus'], '--bogus')
# A command, subcommand or workload mistyped is refused naming the nearest.
bad(['lif'], 'did you mean life?')
bad(['help', 'lif'], 'did you mean life?')
bad(['bmn', 'serch'], 'did you mean search?')
bad(['check', 'lif'], 'did you mean life?')
bad(['bench', 'rya'], 'did you mean ray?')
bad(['conformance', '--workload', 'flaot'], 'did you mean float?')
rc, out, err = run('frobnicate')
expect(rc == 2 and 'did you mean' not in err, 'a command near none is refused without a guess', err)


def help_on_terminal(path, columns):
    """`lockstep PATH --help` with its stdout on a terminal of `columns`."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack('HHHH', 24, columns, 0, 0))
    p = subprocess.Popen([LS, *path, '--help'], stdout=slave, stderr=subprocess.DEVNULL)
    os.close(slave)
    shown = b''
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        shown += chunk
    os.close(master)
    p.wait(timeout=60)
    return p.returncode, shown.decode().replace('\r\n', '\n')


# Help is filled to 80 columns when it is not on a terminal, else to the
# terminal's width (life --help had lines of 495 characters), words
# moved, never cut or lost.
for path in [[]] + [[p[0]] for p in PATHS if len(p) > 1 and p[0] not in ('check', 'bench')] + PATHS:
    rc, out, err = run(*path, '--help')
    longest = max((len(l) for l in out.splitlines()), default=0)
    expect(rc == 0 and longest <= 80, 'lockstep %s --help: lines of at most 80 columns (%d)' % (' '.join(path), longest))
    rc, narrow = help_on_terminal(path, 60)
    longest = max((len(l) for l in narrow.splitlines()), default=0)
    expect(rc == 0 and longest <= 60 and narrow.split() == out.split(),
           'lockstep %s --help on a terminal of 60 columns: lines of at most 60, the same words (%d)'
           % (' '.join(path), longest), narrow[:300])
# A subcommand's --help says what it does, not what its command does.
summaries = {m.group(1): ' '.join(m.group(2).split()) for m in
             re.finditer(r'^  ([a-z]+)\s+(.*(?:\n {27}.*)*)', run('--help')[1].split('commands:')[1], re.M)}
for path in PATHS:
    if len(path) == 2 and path[0] not in ('check', 'bench'):
        text = ' '.join(run(*path, '--help')[1].split('options:')[0].split())
        expect(summaries.get(path[0]) and summaries[path[0]] not in text,
               'lockstep %s --help describes %s, not %s' % (' '.join(path), path[1], path[0]), text[:300])

# --timings on every workload: Life's phases, the others the command's
# (opening the devices and the run); the result the same with them.
for args in (['graveler', '--battles', '1000'], ['bmn', 'search', '--deals', '20'], ['ray', '--size', '8', '--spp', '1'],
             ['life', '--size', '16', '--steps', '2']):
    rc, out, err = run(*args, '--backend', 'openmp', '--timings', '--json', '--quiet')
    doc = json.loads(out) if rc == 0 else {}
    t = doc.get('timings', {})
    phases = ['open', 'run'] if args[0] != 'life' else ['open', 'input', 'start', 'kernels']
    expect(all(isinstance(t.get(p), float) and t[p] >= 0 for p in phases),
           'lockstep %s --timings --json: the phases %s' % (args[0], ', '.join(phases)), '%s %s' % (t, err[-200:]))
    rc, plain, _ = run(*args, '--backend', 'openmp', '--json', '--quiet')
    expect(rc == 0 and 'timings' not in json.loads(plain) and json.loads(plain).get('digest') == doc.get('digest'),
           'lockstep %s: no timings without --timings, the same digest' % args[0])
    rc, out, _ = run(*args, '--backend', 'openmp', '--timings', '--quiet')
    expect(rc == 0 and len([line for line in out.splitlines() if line.startswith('timings:')]) == 1,
           'lockstep %s --timings: a timings line in the report for people' % args[0], out[-300:])
    rc, out, _ = run(*args[:2 if args[0] == 'bmn' else 1], '--help')
    expect(out.count('--timings') == 1, 'lockstep %s --help: one --timings' % ' '.join(args[:1]), out[-300:])

print('%d passed, %d failed' % (checks - failures, failures))
sys.exit(1 if failures else 0)
