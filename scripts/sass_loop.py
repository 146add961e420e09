#!/usr/bin/env python3
"""Opcode counts of the K loop of each SASS listing (cuobjdump -sass or
Triton's asm["sass"]): the loops are the ranges [target, branch] of backward
branches; the one reported per kernel is the largest that holds an HGMMA
(else an HMMA, else the largest). Prints per file the loop's instruction
count and its opcodes, most frequent first, so two compilers' loops can be
compared opcode by opcode (the dotprof step of scripts/gpu.sh).
    python3 scripts/sass_loop.py a.sass b.sass"""
import collections
import re
import sys

INSN = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")  # cuobjdump: /*addr*/ insn ;
TINSN = re.compile(r"^[-0-9a-fA-FY:]+\t(.*?)\s*;")  # Triton's asm["sass"]: control codes, tab, insn ;
LABEL = re.compile(r"^\s*(\.L_x_\d+|LBB\w+):")


def parse(text):
    insns, labels = [], {}
    for line in text.splitlines():
        m = LABEL.match(line)
        if m:
            labels[m.group(1)] = len(insns)
            continue
        m = INSN.search(line)
        if m:
            insns.append((int(m.group(1), 16), m.group(2)))
            continue
        m = TINSN.match(line)
        if m:
            insns.append((-1 - len(insns), m.group(1)))
    return insns, labels


def opcode(text):
    toks = text.split()
    while toks and toks[0].startswith("@"):
        toks = toks[1:]
    return toks[0] if toks else "?"


def loops(insns, labels):
    addr = {a: i for i, (a, _) in enumerate(insns)}
    out = []
    for i, (_, t) in enumerate(insns):
        op = opcode(t)
        if not op.startswith("BRA"):
            continue
        m = re.search(r"\.L_x_\d+|LBB\w+", t)
        j = labels.get(m.group(0)) if m else None
        if j is None:
            m = re.search(r"0x([0-9a-f]+)", t)
            j = addr.get(int(m.group(1), 16)) if m else None
        if j is not None and j <= i:
            out.append((j, i))
    return out


def steady_path(insns, labels, j, i):
    """The loop's instructions outside the basic blocks that load or store
    element by element (LDG, STS: the copies' masked fallback), as indices:
    roughly what an iteration with every copy group whole executes."""
    addr = {a: n for n, (a, _) in enumerate(insns)}
    lead = {j, i + 1} | {n for n in labels.values() if j <= n <= i}
    for n in range(j, i + 1):
        t = insns[n][1]
        if opcode(t).startswith(("BRA", "BSYNC", "EXIT", "RET")):
            lead.add(n + 1)
            m = re.search(r"0x([0-9a-f]+)", t)
            if m and int(m.group(1), 16) in addr:
                lead.add(addr[int(m.group(1), 16)])
    cuts = sorted(x for x in lead if j <= x <= i + 1)
    out = []
    for a, b in zip(cuts, cuts[1:]):
        ops = [opcode(insns[n][1]).split(".")[0] for n in range(a, b)]
        if not any(o in ("LDG", "STS") for o in ops):
            out += range(a, b)
    return out


def main():
    for path in sys.argv[1:]:
        insns, labels = parse(open(path, errors="replace").read())
        cands = loops(insns, labels)
        if not cands:
            print("%s: no loop (%d instructions)" % (path, len(insns)))
            continue
        def has(r, op):
            return any(opcode(insns[k][1]).startswith(op) for k in range(r[0], r[1] + 1))
        pick = ([r for r in cands if has(r, "HGMMA")] or [r for r in cands if has(r, "HMMA")] or cands)
        j, i = max(pick, key=lambda r: r[1] - r[0])
        ops = collections.Counter(opcode(insns[k][1]).split(".")[0] for k in range(j, i + 1))
        steady = steady_path(insns, labels, j, i)
        print("%s: loop of %d instructions, %d outside its element-wise copies (%d in the kernel)" % (
            path.rsplit("/", 1)[-1], i - j + 1, len(steady), len(insns)))
        print("   all: " + " ".join("%s %d" % kv for kv in ops.most_common()))
        sops = collections.Counter(opcode(insns[k][1]).split(".")[0] for k in steady)
        print("   outside: " + " ".join("%s %d" % kv for kv in sops.most_common()))


if __name__ == "__main__":
    main()
