#!/usr/bin/env python3
"""`meson install` installs the binary, a man page and a bash completion
generated from the option tables of --help, and the licence. From
`meson install --destdir TMP`: the man page has every command and every
option --help lists (and renders without a warning where groff is
installed); the completion, sourced in bash, completes commands, options,
subcommands, workloads and device specs.

usage: install.py BUILD_DIR
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from harness import expect, finish

BUILD = sys.argv[1]


def one(dest, pattern):
    found = glob.glob(os.path.join(dest, '**', pattern), recursive=True)
    return found[0] if len(found) == 1 else None


def help_paths(ls):
    """Every command path whose --help lists options: from --help itself."""
    out = subprocess.run([ls, '--help'], capture_output=True, text=True).stdout
    # (A command's line starts with its name; a summary continues under its column.)
    commands = [l.split()[0] for l in out.split('commands:')[1].splitlines() if re.match(r'^  [a-z]', l)]
    paths = []
    for c in commands:
        text = subprocess.run([ls, c, '--help'], capture_output=True, text=True).stdout
        subs = sorted(set(re.findall(r'lockstep %s ([a-z]+)' % c, text)))
        if c == 'bmn':
            paths += [[c, s] for s in subs]
        else:
            paths.append([c])
    return commands, paths


def options(ls, path):
    text = subprocess.run([ls, *path, '--help'], capture_output=True, text=True).stdout
    return re.findall(r'^  --([a-z0-9-]+)', text, re.M)


def sh_section(page, title):
    """The text of a .SH section, its roff escapes undone."""
    m = re.search(r'^\.SH %s\n(.*?)(?=^\.SH |\Z)' % re.escape(title), page, re.M | re.S)
    return m.group(1).replace('\\-', '-').replace('\\e', '\\').replace('\\&', '') if m else ''


def check_sections(ls, page, dest):
    """What the man page's own sections say holds: the documentation it
    names is installed, its examples use options their commands have, its
    rule names are rules, its formats are --format's."""
    # SEE ALSO: every file it names is installed, and every page of docs/ is.
    see = sh_section(page, '"SEE ALSO"')
    named = re.findall(r'^(/\S+)$', see, re.M)
    missing = [p for p in named if not os.path.isfile(dest + p)]
    expect(named and not missing, 'every document SEE ALSO names is installed (%d)' % len(named), str(missing))
    info = json.load(open(os.path.join(BUILD, 'meson-info', 'meson-info.json')))
    source = info['directories']['source']
    pages = sorted(n for n in os.listdir(os.path.join(source, 'docs')) if n.endswith('.md'))
    want = ['README.md'] + ['docs/' + n for n in pages]
    expect(sorted(p.split('/doc/lockstep/', 1)[-1] for p in named) == sorted(want),
           'SEE ALSO names the README and every page of docs/', '%s != %s' % (named, want))
    # EXAMPLES: every option of an example is one its command takes.
    examples = re.findall(r'^\.TP\n\.B (.*)$', sh_section(page, 'EXAMPLES'), re.M)
    expect(len(examples) >= 10, 'the man page has examples (%d)' % len(examples))
    for ex in examples:
        words = ex.split()
        words = words[words.index('lockstep') + 1:]
        path = words[:2] if words[0] in ('bmn', 'check', 'bench') and len(words) > 1 and \
            not words[1].startswith('-') else words[:1]
        if words[0] == 'bmn':
            path = words[:2]
        have = options(ls, path) + ['backends']
        used = [w[2:] for w in words if w.startswith('--') and re.match(r'^--[a-z]', w)]
        expect(used or len(words) <= 4, 'example: %s' % ex)
        expect(all(u in have for u in used), 'example %r: every option is one of lockstep %s' % (ex, ' '.join(path)),
               str([u for u in used if u not in have]))
    # LIFE RULES: every name it lists is that rule to `life --rule`.
    names = re.findall(r'([A-Za-z0-9 &]+?) (B\d*/S\d*)[,.]', sh_section(page, '"LIFE RULES"').split('The names:')[-1])
    expect(len(names) >= 20, 'LIFE RULES lists the rule names (%d)' % len(names))
    for name, rule in names:
        p = subprocess.run([ls, 'life', '--rule', name.strip(), '--size', '8', '--steps', '0', '--backend', 'openmp',
                            '--json', '--quiet'], capture_output=True, text=True)
        got = json.loads(p.stdout).get('rule') if p.returncode == 0 else p.stderr
        expect(got == rule, 'LIFE RULES: %s is %s' % (name.strip(), rule), str(got))
    # FILE FORMATS: the formats --format takes, each with its extensions.
    formats = re.findall(r'^(\w+) \(([^)]*)\): ', sh_section(page, '"FILE FORMATS"'), re.M)
    life_help = subprocess.run([ls, 'life', '--help'], capture_output=True, text=True).stdout
    choices = re.search(r'--format (\S+)', life_help).group(1).split('|')
    expect([f for f, _ in formats] == choices and all(e.startswith('.') for _, e in formats),
           'FILE FORMATS lists the formats --format takes', '%s != %s' % (formats, choices))


with tempfile.TemporaryDirectory() as dest:
    p = subprocess.run(['meson', 'install', '-C', BUILD, '--no-rebuild', '--destdir', dest, '--quiet'],
                       capture_output=True, text=True)
    expect(p.returncode == 0, 'meson install --destdir', p.stdout + p.stderr)
    ls = one(dest, 'bin/lockstep')
    man = one(dest, 'man1/lockstep.1')
    comp = one(dest, 'bash-completion/completions/lockstep')
    expect(ls and man and comp and one(dest, 'doc/lockstep/LICENSE'),
           'installed: bin/lockstep, man1/lockstep.1, bash-completion/completions/lockstep, doc/lockstep/LICENSE',
           str(glob.glob(dest + '/**', recursive=True)))
    if not (ls and man and comp):
        finish()
    ver = subprocess.run([ls, 'version'], capture_output=True, text=True)
    expect(ver.returncode == 0 and ver.stdout.startswith('lockstep '), 'the installed binary runs', ver.stderr)

    # ---- the man page: roff structure, every command, every option -----------
    page = open(man).read()
    expect(page.startswith('.\\"') and re.search(r'^\.TH LOCKSTEP 1 ', page, re.M),
           'the man page starts with a comment and .TH LOCKSTEP 1', page[:200])
    for section in ('NAME', 'SYNOPSIS', 'DESCRIPTION', 'COMMANDS', 'OPTIONS', '"LIFE RULES"', '"GRID SUFFIXES"',
                    '"FILE FORMATS"', '"EXIT STATUS"', 'ENVIRONMENT', 'EXAMPLES', '"SEE ALSO"'):
        expect(re.search(r'^\.SH %s$' % section, page, re.M), 'the man page has .SH %s' % section)
    # Help text is escaped: every line that starts with '.' or "'" is one of the requests the generator writes.
    requests = {'\\"', 'TH', 'SH', 'SS', 'TP', 'B', 'I', 'BR', 'RI', 'PP', 'nf', 'fi', 'nh'}
    odd = [l for l in page.split('\n') if l[:1] in ('.', "'") and l[1:].split(' ')[0] not in requests]
    expect(not odd, 'every roff request in the page is one of the generator\'s', str(odd[:5]))
    commands, paths = help_paths(ls)
    expect('graveler' in commands and 'conformance' in commands, '--help lists the commands', str(commands))
    for path in paths:
        name = ' '.join(path)
        m = re.search(r'^\.SS "lockstep %s"\n(.*?)(?=^\.SS |^\.SH )' % re.escape(name).replace('\\ ', ' '),
                      page, re.M | re.S)
        expect(m, 'the man page has a section for lockstep %s' % name)
        if not m:
            continue
        want = options(ls, path)
        missing = [o for o in want if '\\fB\\-\\-%s\\fR' % o.replace('-', '\\-') not in m.group(1)]
        expect(want and not missing, 'lockstep %s: every option of --help is in its section (%d)' % (name, len(want)),
               'missing %s' % missing)
    for code in ('0', '1', '2', '77', '128+N'):
        expect(re.search(r'^\.TP\n\.B %s\n' % re.escape(code), page, re.M), 'EXIT STATUS lists %s' % code)
    check_sections(ls, page, dest)
    groff = shutil.which('groff')
    if groff:
        r = subprocess.run([groff, '-man', '-Tutf8', '-ww', '-z', man], capture_output=True, text=True)
        expect(r.returncode == 0 and not r.stderr.strip(), 'groff -man -ww renders it without a warning', r.stderr)
        r = subprocess.run([groff, '-man', '-Tutf8', man], capture_output=True, text=True)
        text = re.sub(r'.\x08', '', r.stdout)
        expect('lockstep bmn play' in text and '--backend SPEC' in text.replace('\u2010', '-').replace('\u2212', '-'),
               'the rendered page reads as text', text[:300])
    else:
        print('groff not installed: the page was checked as roff only')

    # ---- the completion, sourced in bash ---------------------------------------
    specs = subprocess.run([ls, 'devices', '--specs'], capture_output=True, text=True).stdout.split()
    script = r'''
source "$1"
complete -p lockstep
comp() {
    COMP_LINE=$1 COMP_POINT=${#1}
    read -ra COMP_WORDS <<<"$1"
    [[ $1 == *' ' ]] && COMP_WORDS+=("")
    COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    _lockstep
    echo "${COMPREPLY[*]}"
}
ls=$2
comp "lockstep gra"
comp "$ls graveler --backend "
comp "$ls graveler --backend opencl:"
comp "$ls check ray --sp"
comp "lockstep bmn "
comp "lockstep check "
comp "lockstep ray --mode f"
comp "$ls check graveler --backends openmp,ope"
comp "$ls life --format r"
comp "$ls life --rule "
comp "$ls conformance --case graveler\\ 1\\ t"
comp "$ls conformance --case life\\ 2D\\ 3"
comp "$ls conformance --case=ray\\ 1x"
comp "$ls conformance --case exact\\ float:\\ no"
comp "$ls check graveler --backend openmp,ope"
'''
    r = subprocess.run(['bash', '--norc', '--noprofile', '-c', script, 'bash', comp, ls], capture_output=True,
                       text=True)
    lines = r.stdout.split('\n')
    expect(r.returncode == 0 and lines[0] == 'complete -F _lockstep lockstep', 'complete -p lockstep',
           r.stdout + r.stderr)
    if len(lines) >= 9:
        expect(lines[1] == 'graveler', 'lockstep gra<TAB>: graveler', lines[1])
        expect(lines[2].split() == specs and 'openmp:0' in specs, '--backend <TAB>: every spec of devices --specs',
               '%r != %r' % (lines[2], specs))
        opencl = [s.split(':', 1)[1] for s in specs if s.startswith('opencl:')]
        expect(lines[3].split() == opencl, '--backend opencl:<TAB>: what follows the colon', lines[3])
        expect(lines[4] == '--spp', 'check ray --sp<TAB>: --spp', lines[4])
        expect(lines[5].split() == ['play', 'search', 'report'], 'bmn <TAB>: its subcommands', lines[5])
        expect(lines[6].split() == ['graveler', 'bmn', 'life', 'ray', 'all'], 'check <TAB>: the workloads and all',
               lines[6])
        expect(lines[7] == 'fast', 'ray --mode f<TAB>: fast', lines[7])
        expect(lines[8].split() == ['openmp,' + s for s in specs if s.startswith('ope')],
               '--backends openmp,ope<TAB>: the list\'s last item', lines[8])
    if len(lines) >= 16:
        expect(lines[9] == 'rle', 'life --format r<TAB>: rle', lines[9])
        # The rule names of the man page, as the parser matches them.
        page_names = re.findall(r'([A-Za-z0-9 &]+?) (B\d*/S\d*)[,.]',
                                sh_section(page, '"LIFE RULES"').split('The names:')[-1])
        keys = [re.sub(r'[ _-]', '', n.strip().lower()).replace('&', 'and') for n, _ in page_names]
        expect(lines[10].split() == keys and 'highlife' in keys, 'life --rule <TAB>: every rule name',
               '%s != %s' % (lines[10], keys))
        # Case names, their spaces escaped as the shell needs them.
        listed = subprocess.run([ls, 'conformance', '--list'], capture_output=True, text=True).stdout.splitlines()

        def escaped(prefix):
            return [subprocess.run(['bash', '-c', 'printf %q "$1"', 'bash', c], capture_output=True,
                                   text=True).stdout for c in listed if c.startswith(prefix)]
        for line, prefix in ((lines[11], 'graveler 1 t'), (lines[12], 'life 2D 3'), (lines[13], 'ray 1x')):
            want = escaped(prefix)
            expect(want and re.split(r'(?<!\\) ', line) == want,
                   'conformance --case %s<TAB>: the case names, escaped' % prefix, '%r != %r' % (line, want))
        want = [w.split(':', 1)[1] for w in escaped('exact float: no')]
        expect(want and re.split(r'(?<!\\) ', lines[14]) == want,
               'conformance --case exact float: no<TAB>: what follows the colon, escaped',
               '%r != %r' % (lines[14], want))
        expect(lines[15].split() == ['openmp,' + s for s in specs if s.startswith('ope')],
               '--backend openmp,ope<TAB>: the list\'s last item', lines[15])
    else:
        expect(False, 'the completion answered every line', r.stdout + r.stderr)
finish()
