#!/usr/bin/env python3
"""Reads `lockstep devices --json` on stdin and prints the spec of the first
OpenCL device on NVIDIA's platform (e.g. opencl:1), or nothing."""
import json
import sys

d = json.load(sys.stdin)
for b in d['backends']:
    if b['backend'] == 'opencl':
        for x in b['devices']:
            if 'NVIDIA' in x['platform']:
                print('opencl:%d' % x['index'])
                sys.exit(0)
