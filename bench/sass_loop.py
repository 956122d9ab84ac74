#!/usr/bin/env python3
"""sass_loop.py CUBIN KERNEL [KERNEL...] - the SASS of a kernel's hot loop,
counted by opcode: the largest region between an address and a branch
back to it, with the logic-pipe share (LOP3, SHF, IADD3, LEA, SEL, ISETP,
PRMT and the like: the integer ALU on sm_90) and every instruction
issued. No GPU needed: `nvcc -cubin -arch=sm_90 ... kernels_cu/life.cu`,
then this; NVDISASM names the disassembler (default: nvdisasm on PATH).
Registers and spills: nvcc's -Xptxas -v. Used for docs/perf (the 3D
tile walk's counts)."""
import os
import re
import subprocess
import sys
from collections import Counter

LOGIC = ("LOP3", "SHF", "IADD3", "LEA", "SEL", "ISETP", "PRMT", "IABS", "IMNMX", "VIADD", "FLO", "POPC", "PLOP3")


def functions(cubin):
    out = subprocess.run([os.environ.get("NVDISASM", "nvdisasm"), cubin], capture_output=True, text=True,
                         check=True).stdout
    funs, cur, labels = {}, None, {}
    for line in out.splitlines():
        m = re.match(r"\.text\.(\S+):", line)
        if m:
            cur = funs.setdefault(m.group(1), [])
            continue
        m = re.match(r"(\.L\w+):", line)
        if m and cur is not None:
            labels[m.group(1)] = len(cur)
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
        if m and cur is not None:
            ins = m.group(2).strip()
            t = re.search(r"`\((\.L\w+)\)", ins)
            cur.append((len(cur), ins, t.group(1) if t else None))
    for body in funs.values():
        body[:] = [(i, ins, labels.get(t) if t else None) for i, ins, t in body]
    return funs


def opcode(ins):
    ins = re.sub(r"^@!?U?P\w+\s+", "", ins)
    return ins.split()[0] if ins else ""


def main():
    funs = functions(sys.argv[1])
    for kernel in sys.argv[2:]:
        body = funs.get(kernel, [])
        best = None
        for i, ins, j in body:
            if opcode(ins) == "BRA" and j is not None and j <= i and (best is None or i - j > best[1] - best[0]):
                best = (j, i)
        print(f"== {kernel}: {len(body)} instructions in all")
        if best is None:
            print("   no loop found")
            continue
        loop = Counter(opcode(ins) for _, ins, _ in body[best[0]:best[1] + 1])
        logic = sum(c for op, c in loop.items() if op.split(".")[0] in LOGIC)
        print(f"   loop: {best[1] - best[0] + 1} instructions, logic pipe {logic}, LOP3 "
              f"{sum(c for op, c in loop.items() if op.startswith('LOP3'))}")
        print("   " + ", ".join(f"{op} {c}" for op, c in loop.most_common()))


main()
