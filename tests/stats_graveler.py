#!/usr/bin/env python3
"""Statistical tests of Graveler's output against the exact distribution.

1. Goodness of fit: the histogram of 1e8 battles (231 turns) against
   Binomial(231, 1/4) by Pearson's chi-square, bins with expected count
   below 5 pooled into the tails. The test fails when the p-value is below
   1e-4 (a correct generator fails this about once in 10,000 seeds).
2. The maximum over 1e9 battles against the exact distribution of the
   maximum of N independent binomials, P(max <= m) = F(m)^N: the observed
   maximum must lie inside the central 1 - 1e-6 of that distribution.

usage: stats_graveler.py LOCKSTEP BACKEND
"""
import json
import math
import subprocess
import sys

LS, BACKEND = sys.argv[1], sys.argv[2]
TURNS, P = 231, 0.25


def graveler(battles, seed):
    out = subprocess.run([LS, 'graveler', '--battles', str(battles), '--seed', str(seed), '--backend', BACKEND,
                          '--json', '--quiet'], capture_output=True, text=True, check=True, timeout=1200).stdout
    return json.loads(out)


def binom_pmf(n, p):
    return [math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)]


def chi2_sf(x, dof):
    """Upper tail of the chi-square distribution: Q(dof/2, x/2), by the
    series for the lower regularized gamma function."""
    a, z = dof / 2.0, x / 2.0
    if z <= 0:
        return 1.0
    term = total = 1.0 / a
    k = 1
    while term > total * 1e-16 and k < 100000:
        term *= z / (a + k)
        total += term
        k += 1
    lower = total * math.exp(-z + a * math.log(z) - math.lgamma(a))
    return max(0.0, 1.0 - lower)


failures = checks = 0


def expect(ok, what):
    global failures, checks
    checks += 1
    print('%s %s' % ('ok  ' if ok else 'FAIL', what))
    failures += not ok


pmf = binom_pmf(TURNS, P)

# 1. chi-square on 1e8 battles
N = 100_000_000
d = graveler(N, 20261121)
hist = d['histogram']
expect(sum(hist) == N and len(hist) == TURNS + 1, 'histogram of %d battles has %d bins summing to N' % (N, TURNS + 1))
exp = [N * q for q in pmf]
lo = next(k for k in range(TURNS + 1) if exp[k] >= 5)
hi = max(k for k in range(TURNS + 1) if exp[k] >= 5)
obs_b = [sum(hist[:lo + 1])] + hist[lo + 1:hi] + [sum(hist[hi:])]
exp_b = [sum(exp[:lo + 1])] + exp[lo + 1:hi] + [sum(exp[hi:])]
chi2 = sum((o - e) ** 2 / e for o, e in zip(obs_b, exp_b))
dof = len(obs_b) - 1
pval = chi2_sf(chi2, dof)
expect(pval > 1e-4, 'chi-square %.1f on %d degrees of freedom, p = %.3g > 1e-4' % (chi2, dof, pval))
mean = sum(k * c for k, c in enumerate(hist)) / N
expect(abs(mean - TURNS * P) < 6 * math.sqrt(TURNS * P * (1 - P) / N),
       'mean successes %.5f within 6 standard errors of %.2f' % (mean, TURNS * P))

# 2. the maximum over 1e9 battles
N = 1_000_000_000
cdf, acc = [], 0.0
for q in pmf:
    acc += q
    cdf.append(min(acc, 1.0))


def p_max_le(m):
    # F(m)^N computed in log space: N * log1p(-(1 - F(m)))
    tail = sum(pmf[m + 1:])
    return math.exp(N * math.log1p(-tail)) if tail < 1 else 0.0


lo_m = next(m for m in range(TURNS + 1) if p_max_le(m) > 0.5e-6)
hi_m = next(m for m in range(TURNS + 1) if p_max_le(m) >= 1 - 0.5e-6)
d = graveler(N, 1)
expect(sum(d['histogram']) == N, 'the 1e9-battle histogram sums to 1e9')
expect(lo_m <= d['max'] <= hi_m,
       'max over 1e9 battles = %d, inside [%d, %d] (central 1 - 1e-6 of the exact law)' % (d['max'], lo_m, hi_m))
print('%d passed, %d failed' % (checks - failures, failures))
sys.exit(1 if failures else 0)
