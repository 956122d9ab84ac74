#!/usr/bin/env python3
"""Prints nvcc -gencode flags for the CUDA targets.

usage: cuda_arch.py NVCC SPEC

SPEC 'auto': machine code (SASS) for every architecture from Turing (sm_75)
on that this nvcc supports, plus PTX for the newest so that future GPUs can
compile it at load time. SPEC '90' or '80,90': exactly those, PTX for the
last one.
"""
import re
import subprocess
import sys


def supported(nvcc):
    out = subprocess.run([nvcc, '--list-gpu-arch'], capture_output=True, text=True, check=True).stdout
    archs = sorted({int(m) for m in re.findall(r'compute_(\d+)', out)})
    return [a for a in archs if a >= 75]


def main():
    nvcc, spec = sys.argv[1], sys.argv[2]
    if spec == 'auto':
        archs = supported(nvcc)
        # family- and arch-specific variants (e.g. 100a) need no separate entry
    else:
        try:
            archs = [int(a) for a in spec.replace(' ', '').split(',') if a]
        except ValueError:
            sys.exit('cuda_arch: expected auto or a list like 80,90; got %r' % spec)
        if not archs:
            sys.exit('cuda_arch: empty architecture list')
    flags = ['-gencode=arch=compute_%d,code=sm_%d' % (a, a) for a in archs]
    flags.append('-gencode=arch=compute_%d,code=compute_%d' % (archs[-1], archs[-1]))
    print(' '.join(flags))


if __name__ == '__main__':
    main()
