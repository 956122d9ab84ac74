#!/usr/bin/env python3
"""life_rules.py LOCKSTEP BACKEND... - Life's rules built into the GPU
kernels (issue 16): for a rule other than the default one of its
dimension, and on bounded planes, the GPU backends build the life program
with the rule defined (gpu.h's kernel_with: OpenCL -D options, CUDA
NVRTC), and `lockstep check life` on every backend listed must give the
CPU's digest:

- 2D: B36/S23, B2/S (Seeds: no survival at all), B0 rules with and
  without S8, on tori whose rows end on a word boundary and not, with a
  step count that reaches the kernels of LIFE_2D_GENS, two and one
  generation a launch; bounded planes with Seeds and with B3/S23 (the plane
  kernels take any rule, so it is built in there too);
- 3D: rules other than B6/S567, a B0 one among them, rows of whole words
  and not, a bounded plane;
- again with LOCKSTEP_DEBUG_LIFE_RULE_ARGS=1: the kernels that take the
  rule as arguments, which the CUDA backend runs without NVRTC.

A kernel that ignored the rule built into it would disagree with the CPU.
Exit 77 when fewer than two of the backends can run here."""
import os
import subprocess
import sys

from harness import expect, finish

LOCKSTEP = os.path.abspath(sys.argv[1])
BACKENDS = ",".join(sys.argv[2:] or ["openmp"])

CASES = [
    ["--dims", "2", "--size", "301x203", "--steps", "37", "--rule", "B2/S"],
    ["--dims", "2", "--size", "1024x61", "--steps", "35", "--rule", "B0123478/S34678"],
    ["--dims", "2", "--size", "97x45", "--steps", "19", "--rule", "B03/S23"],
    ["--dims", "2", "--size", "64x64", "--steps", "21", "--rule", "B36/S23"],
    ["--rule", "B2/S:P67,45", "--steps", "19"],
    ["--rule", "B3/S23:P64,40", "--steps", "18", "--density", "0.4"],
    ["--dims", "3", "--size", "64x12x11", "--steps", "7", "--rule", "B5/S45"],
    ["--dims", "3", "--size", "45x13x11", "--steps", "6", "--rule", "B4/S5-7"],
    ["--dims", "3", "--size", "40x9x8", "--steps", "5", "--rule", "B0,5/S4-6"],
    ["--rule", "B5/S45:P40,9,8", "--steps", "5"],
]
# The kernels that take the rule as arguments: a 2D torus (each of its
# kernels), a 3D torus, a plane.
RULE_ARGS = [CASES[0], CASES[6], CASES[4]]


def check(args, env=None):
    """`lockstep check life ARGS` on BACKENDS: (exit code, stdout, stderr)."""
    r = subprocess.run([LOCKSTEP, "check", "life", "--backends", BACKENDS, "--quiet", *args], capture_output=True,
                       text=True, timeout=600, env=dict(os.environ, **(env or {})))
    return r.returncode, r.stdout, r.stderr


def agrees(rc, out, err):
    return rc == 0 and "devices agree" in out


rc, out, err = check(CASES[0])
if rc == 77:
    print("skipped: fewer than two of %s run here: %s" % (BACKENDS, err.strip()))
    sys.exit(77)
expect(agrees(rc, out, err), "check life %s: the rule built in agrees with the CPU" % " ".join(CASES[0]),
       "exit %d\n%s%s" % (rc, out, err))
for args in CASES[1:]:
    rc, out, err = check(args)
    expect(agrees(rc, out, err), "check life %s: the rule built in agrees with the CPU" % " ".join(args),
           "exit %d\n%s%s" % (rc, out, err))
for args in RULE_ARGS:
    rc, out, err = check(args, {"LOCKSTEP_DEBUG_LIFE_RULE_ARGS": "1"})
    expect(agrees(rc, out, err), "check life %s: the rule as kernel arguments agrees with the CPU" % " ".join(args),
           "exit %d\n%s%s" % (rc, out, err))
finish()
