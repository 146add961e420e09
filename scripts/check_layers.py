#!/usr/bin/env python3
"""The compiler's folders and what each may include (compiler/src/README.md).

    check_layers.py [SRC]             # SRC: compiler/src (the default)
    check_layers.py --objects DIR     # the same over calls: DIR holds the
                                      # library's objects (.../src/<folder>/x.c.o)

Reads every #include "folder/file" of compiler/src, prints the graph of
folders (an edge A -> B: files of A include headers of B, with the count),
and fails when an edge is not one the layering allows or when a header
named by an include is not where it says. Folders are layers: each may
include its own headers and those of the layers below it that LAYERS
lists; the backends are siblings and never include one another.
"""
import os
import re
import sys

# Each folder and the folders below it that it may include.
LAYERS = {
    "base": [],
    "ir": ["base"],
    "frontend": ["base", "ir"],
    "passes": ["base", "ir"],
    "layout": ["base", "ir", "passes"],
    "cgen": ["base", "ir", "layout"],
    "launch": ["base", "ir", "frontend", "layout", "cgen"],
    "backends/cuda": ["base", "ir", "passes", "layout", "cgen", "launch"],
    "backends/host": ["base", "ir", "passes", "layout", "cgen", "launch"],
    "backends/mlir": ["base", "ir", "passes", "layout", "cgen", "launch"],
    "driver": ["base", "ir", "frontend", "passes", "layout", "cgen", "launch",
               "backends/cuda", "backends/host", "backends/mlir"],
}

def object_edges(objdir):
    """(folder, folder) -> the symbols the first's objects take from the second's."""
    import subprocess
    defs, uses = {}, {}
    for root, _, files in os.walk(objdir):
        for fn in files:
            if not fn.endswith(".o"):
                continue
            rel = os.path.relpath(os.path.join(root, fn), objdir)
            here = folder_of(rel)
            if here is None:
                continue  # an object of an older tree
            out = subprocess.run(["nm", os.path.join(root, fn)], capture_output=True,
                                 text=True, check=True).stdout
            for line in out.splitlines():
                p = line.split()
                if len(p) == 3 and p[1] in "TDBR":
                    defs[p[2]] = here
                elif len(p) == 2 and p[0] == "U":
                    uses.setdefault(here, set()).add(p[1])
    edges = {}
    for here, syms in uses.items():
        for s in syms:
            there = defs.get(s)
            if there and there != here:
                edges.setdefault((here, there), set()).add(s)
    return edges


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def folder_of(rel):
    d = os.path.dirname(rel)
    return d if d in LAYERS else None


def main_objects(objdir):
    edges = object_edges(objdir)
    bad = ["%s calls %s: %s" % (h, t, " ".join(sorted(v)))
           for (h, t), v in sorted(edges.items()) if t not in LAYERS.get(h, [])]
    for here in LAYERS:
        outs = ["%s (%d)" % (t, len(v)) for (h, t), v in sorted(edges.items()) if h == here]
        print("%-14s -> %s" % (here, ", ".join(outs) if outs else "(nothing)"))
    for b in bad:
        print("error: " + b, file=sys.stderr)
    print("%d folder edges over calls, %d not allowed" % (len(edges), len(bad)))
    return 1 if bad else 0


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--objects":
        return main_objects(sys.argv[2])
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "compiler", "src")
    edges, bad = {}, []
    for root, _, files in os.walk(src):
        for fn in sorted(files):
            path = os.path.join(root, fn)
            rel = os.path.relpath(path, src)
            if not fn.endswith((".c", ".h", ".def")):
                continue
            here = folder_of(rel)
            if here is None:
                bad.append("%s: not in a folder of the layering" % rel)
                continue
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for inc in INCLUDE.findall(text):
                if inc.startswith("mytriton/"):
                    continue  # the public header (compiler/include)
                there = folder_of(inc)
                if there is None or not os.path.isfile(os.path.join(src, inc)):
                    bad.append('%s: #include "%s" names no header of a folder' % (rel, inc))
                    continue
                if there == here:
                    continue
                edges[(here, there)] = edges.get((here, there), 0) + 1
                if there not in LAYERS[here]:
                    bad.append('%s: #include "%s": %s may not include %s' % (rel, inc, here, there))
    for here in LAYERS:
        outs = ["%s (%d)" % (t, n) for (h, t), n in sorted(edges.items()) if h == here]
        print("%-14s -> %s" % (here, ", ".join(outs) if outs else "(nothing)"))
    for b in bad:
        print("error: " + b, file=sys.stderr)
    print("%d folder edges, %d not allowed" % (len(edges), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
