#!/usr/bin/env python3
"""Part 3 relaxation: f-block of CF gates reading r0, r1, self and M 'free words',
each word an ARBITRARY function of (s0,s1,t0,t1) (chosen by the solver).
UNSAT => no shared encoding of any cost allows an f-block of CF gates.
Usage: python3 relax.py DC CF M      DC in {none, s}"""
import sys, time, json
from synth import synth
from problems import J_rows
dc, cf, M = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
J = J_rows(dc)
rows = []
for (s0, s1, t0, t1, r0, r1, sf), tg in J:
    rows.append(((r0, r1, sf) + (0,) * M, tg, s0 + 2 * s1 + 4 * t0 + 8 * t1))
keys = [r[2] for r in rows]
free = {3 + j: (lambda r: keys[r]) for j in range(M)}
sol, dt = synth(3 + M, [(a, b) for a, b, _ in rows], 1, cf, free=free)
if sol is None:
    print(f'RESULT relax dc={dc} cf={cf} M={M}: UNSAT {dt:.1f}s')
else:
    gates, outs, fv = sol
    print(f'RESULT relax dc={dc} cf={cf} M={M}: SAT {dt:.1f}s')
    print(gates, outs)
    for j in range(M):
        tt = sum(fv[(3 + j, key)] << key for key in range(16))
        print(f'W{j}: tt over key=s0+2s1+4t0+8t1: 0x{tt:04x}')
