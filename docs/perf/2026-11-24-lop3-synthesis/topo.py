#!/usr/bin/env python3
"""Per-output-row circuit WITHOUT any sharing between output rows:
inputs a0,a1 (row y-1 sum), b0,b1 (row y sum, contains self), c0,c1 (row y+1 sum), self;
don't-care b == 0 and self == 1 (sound: self is one of the 3 cells summed in b).
K gates; the search is split by topology (which gates feed which gate), each part a
separate SAT call, to prove UNSAT where the monolithic instance is too slow.
Usage: python3 topo.py K [mono]"""
import sys, itertools, time
from synth import synth, verify, show
from problems import life

def rows():
    R = []
    for x in range(128):
        a0, a1, b0, b1, c0, c1, sf = [(x >> i) & 1 for i in range(7)]
        A, B, C = a0 + 2*a1, b0 + 2*b1, c0 + 2*c1
        t = life(A + B + C, sf)
        if B == 0 and sf == 1:
            t = None
        R.append(((a0, a1, b0, b1, c0, c1, sf), [t]))
    return R

NAMES = ['a0', 'a1', 'b0', 'b1', 'c0', 'c1', 'self']
n = 7
K = int(sys.argv[1])
rs = rows()
if len(sys.argv) > 2 and sys.argv[2] == 'mono':
    t0 = time.time()
    sol, dt = synth(n, rs, 1, K)
    print('RESULT mono K=%d: %s %.1fs' % (K, 'UNSAT' if sol is None else 'SAT', dt))
    if sol: print(show(NAMES, sol), verify(n, rs, sol))
    sys.exit()

def topologies(K):
    choices = []
    for i in range(K):
        ch = [s for r in range(0, min(3, i) + 1) for s in itertools.combinations(range(i), r)]
        choices.append(ch)
    for P in itertools.product(*choices):
        used = set(g for p in P for g in p)
        if all(g in used for g in range(K - 1)):
            yield P

tops = list(topologies(K))
print(f'{len(tops)} topologies', flush=True)
t0 = time.time(); worst = 0
for idx, P in enumerate(tops):
    allowed = [list(range(n)) + [n + g for g in P[i]] for i in range(K)]
    must = [[n + g for g in P[i]] for i in range(K)]
    sol, dt = synth(n, rs, 1, K, allowed=allowed, must=must, verbose=False)
    worst = max(worst, dt)
    if sol is not None:
        print(f'SAT topology {P} after {time.time()-t0:.1f}s'); print(show(NAMES, sol), verify(n, rs, sol))
        sys.exit()
    if idx % 50 == 0:
        print(f'  {idx}/{len(tops)} done, {time.time()-t0:.1f}s, slowest {worst:.1f}s', flush=True)
print(f'RESULT topo K={K}: UNSAT over all {len(tops)} topologies, total {time.time()-t0:.1f}s, slowest {worst:.1f}s')
