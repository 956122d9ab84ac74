#!/usr/bin/env python3
"""Aside: today's rule stage over (p0,k1,q1,q2,self), sum = p0 + 2(k1+q1) + 4 q2 (incl. self),
with and without the sound don't-care 'sum == 0 and self == 1'. Usage: python3 aside.py K"""
import sys
from problems import run, life
for dc in (False, True):
    rows = []
    for x in range(32):
        p0, k1, q1, q2, sf = [(x >> i) & 1 for i in range(5)]
        S = p0 + 2 * (k1 + q1) + 4 * q2
        t = life(S, sf)
        if dc and S == 0 and sf == 1:
            t = None
        rows.append(((p0, k1, q1, q2, sf), [t]))
    run(f'rule5[dc={dc}]', 5, rows, 1, int(sys.argv[1]), ['p0', 'k1', 'q1', 'q2', 'self'])
