#!/usr/bin/env python3
"""Exact synthesis of circuits of 3-input gates with arbitrary truth tables (LOP3)
via SAT (CaDiCaL 1.9.5 through python-sat).

Encoding (standard, Kojevnikov/Knuth style):
  * nodes 0..n-1 are primary inputs, node n+i is gate i (topological order);
  * gate i picks an input triple a<b<c among its allowed nodes (triple vars, exactly one),
    position vars sel[i][p][x] are tied to the triple vars;
  * per row r: value vars for each gate and for its three (selected) inputs, and the
    8-bit truth table tt[i][q] links them (q = 4*in0 + 2*in1 + in2, in0 = lowest node);
  * outputs: out[j][g][pol] picks the gate (and, if allowed, the polarity) of output j;
    rows whose target is None are don't-cares.
Symmetry breaking (all sound):
  * every gate is used (feeds a later gate or is an output);
  * tt[i][0] = 0 unless gate i is an output with fixed polarity (complement a gate and
    absorb the inversion in the truth tables of its consumers);
  * adjacent gates of the same block where the later one does not read the earlier one
    are ordered lexicographically by their input triple.
"""
import itertools, sys, time, json
from pysat.solvers import Solver


def synth(n, rows, m, k, allowed=None, block=None, free_pol=False, solver='cadical195',
          verbose=True, free=None, must=None, time_limit=None):
    """rows: list of (input_bits tuple of length n, targets list of length m, None = DC).
    allowed[i]: node indices gate i may read (default: all earlier nodes).
    block[i]: block id for symmetry breaking (default all 0).
    Returns list of gates [(a,b,c,tt)] and outputs [(node,pol)] or None if UNSAT."""
    N = n + k
    if allowed is None:
        allowed = [list(range(n + i)) for i in range(k)]
    if block is None:
        block = [0] * k
    cnt = [0]

    def nv():
        cnt[0] += 1
        return cnt[0]
    cls = []
    R = len(rows)
    # triple vars
    trip = []
    for i in range(k):
        d = {}
        for T in itertools.combinations(sorted(allowed[i]), 3):
            d[T] = nv()
        if not d:
            return None
        trip.append(d)
    sel = [[{} for p in range(3)] for i in range(k)]
    for i in range(k):
        for p in range(3):
            xs = sorted(set(T[p] for T in trip[i]))
            for x in xs:
                sel[i][p][x] = nv()
        # exactly one triple
        lits = list(trip[i].values())
        cls.append(lits)
        for a, b in itertools.combinations(lits, 2):
            cls.append([-a, -b])
        for T, v in trip[i].items():
            for p in range(3):
                cls.append([-v, sel[i][p][T[p]]])
        for p in range(3):
            for x, sv in sel[i][p].items():
                cls.append([-sv] + [v for T, v in trip[i].items() if T[p] == x])
    tt = [[nv() for q in range(8)] for i in range(k)]
    val = [[nv() for r in range(R)] for i in range(k)]
    inp = [[[nv() for p in range(3)] for r in range(R)] for i in range(k)]

    # free inputs: free[x] = function row_index -> key; value is a SAT variable per key
    fvar = {}
    if free:
        for x, keyf in free.items():
            for r in range(R):
                kk = (x, keyf(r))
                if kk not in fvar:
                    fvar[kk] = nv()

    def nodeval(x, r):
        # returns ('c', bit) or ('v', var)
        if free and x in free:
            return ('v', fvar[(x, free[x](r))])
        if x < n:
            return ('c', rows[r][0][x])
        return ('v', val[x - n][r])
    for i in range(k):
        for r in range(R):
            for p in range(3):
                w = inp[i][r][p]
                for x, sv in sel[i][p].items():
                    t, v = nodeval(x, r)
                    if t == 'c':
                        cls.append([-sv, w if v else -w])
                    else:
                        cls.append([-sv, -w, v])
                        cls.append([-sv, w, -v])
            for q in range(8):
                bits = [(q >> 2) & 1, (q >> 1) & 1, q & 1]
                cond = [(-inp[i][r][p] if bits[p] else inp[i][r][p]) for p in range(3)]
                cls.append(cond + [-val[i][r], tt[i][q]])
                cls.append(cond + [val[i][r], -tt[i][q]])
    # outputs
    pols = [0, 1] if free_pol else [0]
    out = [{} for j in range(m)]
    for j in range(m):
        for g in range(k):
            for pol in pols:
                out[j][(g, pol)] = nv()
        lits = list(out[j].values())
        cls.append(lits)
        for a, b in itertools.combinations(lits, 2):
            cls.append([-a, -b])
        for (g, pol), ov in out[j].items():
            for r in range(R):
                t = rows[r][1][j]
                if t is None:
                    continue
                want = t ^ pol
                cls.append([-ov, val[g][r] if want else -val[g][r]])
    # fixed topology: gate i must read each gate node in must[i]
    if must:
        for i in range(k):
            for g in must[i]:
                cls.append([sel[i][p][g] for p in range(3) if g in sel[i][p]])
    # symmetry: every gate used
    for i in range(k):
        lits = [out[j][(i, pol)] for j in range(m) for pol in pols]
        for i2 in range(i + 1, k):
            for p in range(3):
                if n + i in sel[i2][p]:
                    lits.append(sel[i2][p][n + i])
        cls.append(lits)
    # symmetry: normalisation tt[i][0] = 0
    for i in range(k):
        if free_pol:
            cls.append([-tt[i][0]])
        else:
            cls.append([-tt[i][0]] + [out[j][(i, 0)] for j in range(m)])
    # symmetry: lexicographic order of adjacent independent gates of the same block
    for i in range(k - 1):
        if block[i] != block[i + 1]:
            continue
        uses = [v for T, v in trip[i + 1].items() if n + i in T]
        for T1, v1 in trip[i].items():
            for T2, v2 in trip[i + 1].items():
                if n + i in T2:
                    continue
                if T2 < T1:
                    cls.append([-v1, -v2])
    t0 = time.time()
    with Solver(name=solver, bootstrap_with=cls) as s:
        if verbose:
            print(f'  k={k}: {cnt[0]} vars, {len(cls)} clauses', flush=True)
        res = s.solve()
        dt = time.time() - t0
        if not res:
            return None, dt
        model = set(x for x in s.get_model() if x > 0)
    gates = []
    for i in range(k):
        T = [T for T, v in trip[i].items() if v in model][0]
        tab = sum((1 << q) for q in range(8) if tt[i][q] in model)
        gates.append((T, tab))
    outs = [[gp for gp, v in out[j].items() if v in model][0] for j in range(m)]
    if free:
        fv = {kk: int(v in model) for kk, v in fvar.items()}
        return (gates, outs, fv), dt
    return (gates, outs), dt


def evaluate(n, gates, outs, x):
    """x: tuple of n input bits. gate truth table bit q = 4*v(a)+2*v(b)+v(c)."""
    v = list(x)
    for (a, b, c), tab in gates:
        q = 4 * v[a] + 2 * v[b] + v[c]
        v.append((tab >> q) & 1)
    return [v[n + g] ^ pol for g, pol in outs]


def verify(n, rows, sol):
    gates, outs = sol
    for x, tg in rows:
        y = evaluate(n, gates, outs, x)
        for j, t in enumerate(tg):
            if t is not None and y[j] != t:
                return False
    return True


def show(names, sol):
    gates, outs = sol
    nm = list(names)
    lines = []
    for i, ((a, b, c), tab) in enumerate(gates):
        g = f'g{i}'
        lines.append(f'{g} = LOP3({nm[a]}, {nm[b]}, {nm[c]}; tt=0x{tab:02x})')
        nm.append(g)
    for j, (g, pol) in enumerate(outs):
        lines.append(f'out{j} = {"~" if pol else ""}g{g}')
    return '\n'.join(lines)
