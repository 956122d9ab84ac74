#!/usr/bin/env python3
"""End-to-end check: run Conway's Life on random toroidal grids with the reported
LOP3 circuits (bit-sliced, one Python int per row) and compare with a naive reference.
Also re-checks every circuit exhaustively over its truth table."""
import random, itertools

def lop3(a, b, c, tt, M):
    r = 0
    for q in range(8):
        if (tt >> q) & 1:
            r |= (a if q & 4 else ~a & M) & (b if q & 2 else ~b & M) & (c if q & 1 else ~c & M)
    return r

def run_circ(gates, xs, M):
    v = list(xs)
    for (a, b, c), tt in gates:
        v.append(lop3(v[a], v[b], v[c], tt, M))
    return v

# circuits: gates as ((a,b,c), tt); nodes 0..n-1 are inputs, gate i is node n+i; tt bit q=4a+2b+c
E_CIRC = dict(inputs=['s0','s1','t0','t1'],
              gates=[((0,2,3),0x6a),((0,1,4),0x66),((0,2,3),0x3c),((1,3,4),0xe4)],
              outs=[6,5,7])                     # e0,e1,e2 = g2,g1,g3
F4 = dict(inputs=['e0','e1','e2','r0','r1','self'],      # needs DC E=7 and (E=0,self=1)
          gates=[((0,3,5),0xbc),((1,2,4),0xda),((2,5,6),0x4e),((6,7,8),0x82)], out=9)
F5 = dict(inputs=['e0','e1','e2','r0','r1','self'],      # no don't-cares at all
          gates=[((0,3,5),0xbc),((2,5,6),0x4a),((4,5,6),0x4a),((4,7,8),0xc6),((1,8,9),0x42)], out=10)
J34 = dict(inputs=['s0','s1','t0','t1','r0','r1','self'], cg=3,  # needs DC (S=T=0,self=1)
           gates=[((1,2,3),0xb2),((0,2,7),0x42),((1,3,7),0xd4),((0,2,4),0x96),
                  ((7,8,10),0xb8),((5,9,11),0x16),((6,10,12),0xa8)], out=13)
# today's rule stage with the don't-care (3x3 sum == 0 and self == 1): 3 LOP3
RULE3 = dict(inputs=['p0','k1','q1','q2','self'],
             gates=[((0,3,4),0xca),((1,2,3),0xbc),((0,5,6),0x24)], out=7)

def life(tot, s): return int(tot == 3 or (tot == 4 and s == 1))

def exhaustive():
    # E
    for s0, s1, t0, t1 in itertools.product((0, 1), repeat=4):
        v = run_circ(E_CIRC['gates'], [s0, s1, t0, t1], 1)
        E = s0 + 2*s1 + t0 + 2*t1
        assert [v[o] for o in E_CIRC['outs']] == [E & 1, E >> 1 & 1, E >> 2 & 1]
    # f on all reachable inputs
    for F in (F4, F5):
        for E in range(7):
            for R in range(4):
                for sf in (0, 1):
                    if sf and E == 0 and F is F4: continue
                    v = run_circ(F['gates'], [E & 1, E >> 1 & 1, E >> 2 & 1, R & 1, R >> 1, sf], 1)
                    assert v[F['out']] == life(E + R, sf)
    # J
    for S, T, R, sf in itertools.product(range(4), range(4), range(4), (0, 1)):
        if sf and S == 0 and T == 0: continue
        v = run_circ(J34['gates'], [S & 1, S >> 1, T & 1, T >> 1, R & 1, R >> 1, sf], 1)
        assert v[J34['out']] == life(S + T + R, sf)
    # structure: shared gates of J read only s,t and shared gates
    for i in range(J34['cg']):
        assert all(x < 4 or 7 <= x < 7 + i for x in J34['gates'][i][0])
    for p0, k1, q1, q2, sf in itertools.product((0, 1), repeat=5):
        tot = p0 + 2*(k1 + q1) + 4*q2
        if sf and tot == 0: continue
        assert run_circ(RULE3['gates'], [p0, k1, q1, q2, sf], 1)[RULE3['out']] == life(tot, sf)
    print('exhaustive checks OK')

def ref_step(g, H, W):
    return [[life(sum(g[(y+dy) % H][(x+dx) % W] for dy in (-1,0,1) for dx in (-1,0,1)), g[y][x])
             for x in range(W)] for y in range(H)]

def to_words(g, W): return [sum(b << x for x, b in enumerate(row)) for row in g]
def from_words(w, W): return [[(r >> x) & 1 for x in range(W)] for r in w]

def sliced_step(rows, H, W, scheme):
    M = (1 << W) - 1
    rot = lambda r, k: ((r << k) | (r >> (W - k))) & M
    # row sums: 2 LOP3 per row (xor3 = 0x96, maj = 0xe8)
    S = []
    for r in rows:
        w, e = rot(r, 1), rot(r, W - 1)
        S.append((lop3(w, r, e, 0x96, M), lop3(w, r, e, 0xe8, M)))
    out = [0] * H
    for y in range(0, H, 2):           # output rows y, y+1 share rows y, y+1
        s, t = S[y], S[(y+1) % H]
        up, dn = S[(y-1) % H], S[(y+2) % H]
        if scheme == 'TODAY9':
            for yy, a, c in ((y, up, t), ((y+1) % H, s, dn)):
                b = S[yy]
                p0, k1 = lop3(a[0], b[0], c[0], 0x96, M), lop3(a[0], b[0], c[0], 0xe8, M)
                q1, q2 = lop3(a[1], b[1], c[1], 0x96, M), lop3(a[1], b[1], c[1], 0xe8, M)
                out[yy] = run_circ(RULE3['gates'], [p0, k1, q1, q2, rows[yy]], M)[RULE3['out']]
        elif scheme in ('F4', 'F5'):
            F = F4 if scheme == 'F4' else F5
            v = run_circ(E_CIRC['gates'], [s[0], s[1], t[0], t[1]], M)
            e = [v[o] for o in E_CIRC['outs']]
            out[y] = run_circ(F['gates'], e + [up[0], up[1], rows[y]], M)[F['out']]
            out[(y+1) % H] = run_circ(F['gates'], e + [dn[0], dn[1], rows[(y+1) % H]], M)[F['out']]
        else:
            cg = J34['cg']
            shared = run_circ(J34['gates'][:cg], [s[0], s[1], t[0], t[1], 0, 0, 0], M)[7:]
            def fblock(r, me):
                v = [s[0], s[1], t[0], t[1], r[0], r[1], me] + shared
                for (a, b, c), tt in J34['gates'][cg:]:
                    v.append(lop3(v[a], v[b], v[c], tt, M))
                return v[J34['out']]
            out[y] = fblock(up, rows[y])
            out[(y+1) % H] = fblock(dn, rows[(y+1) % H])
    return out

if __name__ == '__main__':
    exhaustive()
    random.seed(1)
    H, W = 32, 32
    for scheme in ('TODAY9', 'F4', 'F5', 'J34'):
        for trial in range(20):
            dens = random.choice([0.1, 0.3, 0.5, 0.7])
            g = [[int(random.random() < dens) for _ in range(W)] for _ in range(H)]
            w = to_words(g, W)
            for gen in range(10):
                g = ref_step(g, H, W)
                w = sliced_step(w, H, W, scheme)
                assert from_words(w, W) == g, (scheme, trial, gen)
        print(f'{scheme}: 20 random 32x32 tori x 10 generations match the reference')
