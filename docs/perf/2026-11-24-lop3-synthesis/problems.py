#!/usr/bin/env python3
"""Problem definitions.  Usage:
  python3 problems.py f   DC K [pol]   DC in {none, e7, e7s}   (part 1)
  python3 problems.py E   K [pol]                             (part 2)
  python3 problems.py J   DC CG CF                            (part 3) DC in {none, s}
Prints SAT/UNSAT, time, and the verified circuit as JSON + text."""
import sys, json, itertools, time
from synth import synth, verify, show


def life(total, self_):
    return int(total == 3 or (total == 4 and self_ == 1))


def f_rows(dc):
    rows = []
    for x in range(64):
        e0, e1, e2, r0, r1, s = [(x >> i) & 1 for i in range(6)]
        E = e0 + 2 * e1 + 4 * e2
        R = r0 + 2 * r1
        t = life(E + R, s)
        if dc in ('e7', 'e7s') and E == 7:
            t = None
        if dc == 'e7s' and E == 0 and s == 1:
            t = None
        rows.append(((e0, e1, e2, r0, r1, s), [t]))
    return rows


F_NAMES = ['e0', 'e1', 'e2', 'r0', 'r1', 'self']


def E_rows():
    rows = []
    for x in range(16):
        s0, s1, t0, t1 = [(x >> i) & 1 for i in range(4)]
        E = s0 + 2 * s1 + t0 + 2 * t1
        rows.append(((s0, s1, t0, t1), [E & 1, (E >> 1) & 1, (E >> 2) & 1]))
    return rows


E_NAMES = ['s0', 's1', 't0', 't1']


def J_rows(dc):
    # inputs s0,s1 (row y sum), t0,t1 (row y+1 sum), r0,r1 (other row), self
    rows = []
    for x in range(128):
        s0, s1, t0, t1, r0, r1, sf = [(x >> i) & 1 for i in range(7)]
        S = s0 + 2 * s1
        T = t0 + 2 * t1
        R = r0 + 2 * r1
        t = life(S + T + R, sf)
        # sound for both outputs when one f is shared: self=1 implies S+T >= 1
        if dc == 's' and S == 0 and T == 0 and sf == 1:
            t = None
        # stronger, valid only for the output whose own row is s (self is one of s's cells);
        # used to rule out using two different f-blocks for the two output rows
        if dc == 'sm' and S == 0 and sf == 1:
            t = None
        rows.append(((s0, s1, t0, t1, r0, r1, sf), [t]))
    return rows


J_NAMES = ['s0', 's1', 't0', 't1', 'r0', 'r1', 'self']


def run(name, n, rows, m, k, names, **kw):
    t0 = time.time()
    sol, dt = synth(n, rows, m, k, **kw)
    if sol is None:
        print(f'RESULT {name} k={k}: UNSAT  solve {dt:.1f}s  total {time.time()-t0:.1f}s', flush=True)
        return None
    ok = verify(n, rows, sol)
    print(f'RESULT {name} k={k}: SAT  solve {dt:.1f}s  verified={ok}', flush=True)
    print(show(names, sol))
    print('JSON', json.dumps({'name': name, 'k': k, 'gates': sol[0], 'outs': sol[1]}))
    return sol


if __name__ == '__main__':
    a = sys.argv[1:]
    if a[0] == 'f':
        dc, k = a[1], int(a[2])
        pol = len(a) > 3 and a[3] == 'pol'
        run(f'f[dc={dc},freepol={pol}]', 6, f_rows(dc), 1, k, F_NAMES, free_pol=pol)
    elif a[0] == 'E':
        k = int(a[1])
        pol = len(a) > 2 and a[2] == 'pol'
        run(f'E[freepol={pol}]', 4, E_rows(), 3, k, E_NAMES, free_pol=pol)
    elif a[0] == 'J':
        dc, cg, cf = a[1], int(a[2]), int(a[3])
        k = cg + cf
        allowed = [list(range(4)) + [7 + j for j in range(i)] for i in range(cg)]
        allowed += [list(range(7 + i)) for i in range(cg, k)]
        block = [0] * cg + [1] * cf
        run(f'J[dc={dc},cg={cg},cf={cf}]', 7, J_rows(dc), 1, k, J_NAMES,
            allowed=allowed, block=block)
