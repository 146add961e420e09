#!/usr/bin/env python3
"""Compile every @triton.jit kernel of real Triton code with mytritonc.

A coverage probe of the language, not a test: for each function decorated
with @triton.jit in the given files (helpers that return a value are
skipped: they are not kernels), the signature is guessed from the code:
a parameter is a pointer when it reaches the first argument of a tl.load /
tl.store / atomic / make_block_ptr call through + and - (or its name says
ptr), an i32 pointer when its name says it holds indexes (ids, idx,
offsets, counts, ...), a float when its name says so (eps, scale, ...),
an i32 otherwise; a constexpr without a default gets False when its name
is a flag (HAS_, IS_, USE_, ...), else 64. So some failures are the
guess's, not the compiler's: read the messages.

  python3 scripts/corpus_compile.py --compiler build/bin/mytritonc \\
      $(grep -l triton.jit -r path/to/package/ops)

prints "compiled K of N kernels" and the messages of the others, grouped
(numbers masked); --json FILE writes every result. Run it from the
package root, so that absolute imports (`from pkg.utils import f`) resolve.
"""
import argparse
import ast
import collections
import json
import re
import signal
import subprocess
import sys

FLOATS = re.compile(r"eps|scale|alpha|beta|smooth|softcap|temperature|lse_square|weight_decay|"
                    r"\blr\b|coef|factor|theta|epsilon|momentum|delta|tau|lam", re.I)
INDEXES = re.compile(r"idx|ids|indic|offsets|target|label|^Y_ptr$|^Y$|lock|count|expert|token|"
                     r"sum_ptr|sorted|cu_seq|seqlen|position", re.I)
FLAGS = ("HAS_", "IS_", "USE_", "RETURN_", "ENABLE_", "COMPUTE_", "CAUSAL", "EVEN")
POINTER_USES = re.compile(r"\b(load|store|atomic_\w+|make_block_ptr|make_tensor_descriptor|prefetch)$")


def is_jit(dec):
    s = ast.unparse(dec)
    return s.startswith("triton.jit") or s == "jit" or s.startswith("jit(")


def returns_value(fn):
    return any(isinstance(n, ast.Return) and n.value is not None for n in ast.walk(fn))


def leaves(e, out):
    """Names reached through + and - (and .to(), subscripts, hints)."""
    if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Sub)):
        leaves(e.left, out)
        leaves(e.right, out)
    elif isinstance(e, ast.Name):
        out.add(e.id)
    elif isinstance(e, ast.Subscript):
        leaves(e.value, out)
    elif isinstance(e, ast.Call) and ast.unparse(e.func).endswith(("to", "multiple_of", "max_contiguous")):
        if isinstance(e.func, ast.Attribute):
            leaves(e.func.value, out)
        if e.args:
            leaves(e.args[0], out)
    elif isinstance(e, ast.IfExp):
        leaves(e.body, out)
        leaves(e.orelse, out)


def pointer_names(fn):
    ptrs = set()
    for n in ast.walk(fn):
        if isinstance(n, ast.Call) and POINTER_USES.search(ast.unparse(n.func)):
            a = n.args[0] if n.args else next(
                (k.value for k in n.keywords if k.arg in ("pointer", "ptr", "base")), None)
            if a is not None:
                leaves(a, ptrs)
    for _ in range(4):  # through assignments: p = x_ptr + offs
        for n in ast.walk(fn):
            if (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
                    and n.targets[0].id in ptrs):
                leaves(n.value, ptrs)
    return ptrs


def guess_constexpr(name):
    n = name.upper()
    if n.startswith(FLAGS):
        return "False"
    if "WARPS" in n:
        return "4"
    if "STAGES" in n:
        return "2"
    if "GROUP" in n:
        return "8"
    return "64"


def command(compiler, path, fn, module_values=()):
    sig, defs = [], []
    ptrs = pointer_names(fn)
    args = fn.args.args
    first_default = len(args) - len(fn.args.defaults)
    for i, a in enumerate(args):
        ann = ast.unparse(a.annotation) if a.annotation else ""
        if "constexpr" in ann:
            if i < first_default:
                defs += ["-D", f"{a.arg}={guess_constexpr(a.arg)}"]
        elif a.arg in ptrs or ("ptr" in a.arg.lower() and "stride" not in a.arg.lower()):
            sig.append("*i32" if INDEXES.search(a.arg) else "*fp32")
        else:
            sig.append("fp32" if FLOATS.search(a.arg) else "i32")
    mv = [f"--module-value={v}" for v in module_values]
    return [compiler, path, "--kernel", fn.name, "--signature", ", ".join(sig)] + defs + mv + ["--emit=ssa", "-O2"]


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # | head
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--compiler", default="build/bin/mytritonc")
    ap.add_argument("--json", help="write every result here")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--module-value", action="append", default=[], metavar="NAME=VALUE",
                    help="passed to mytritonc (module-level names Python computes: IS_NVIDIA_BLACKWELL=False)")
    o = ap.parse_args()
    results = []
    for path in o.files:
        try:
            tree = ast.parse(open(path).read())
        except (SyntaxError, UnicodeDecodeError):
            continue
        for fn in tree.body:
            if not isinstance(fn, ast.FunctionDef) or not any(is_jit(d) for d in fn.decorator_list):
                continue
            if returns_value(fn):
                continue
            cmd = command(o.compiler, path, fn, o.module_value)
            try:
                r = subprocess.run(cmd, capture_output=True, text=True, timeout=o.timeout)
                status, err = r.returncode, r.stderr
            except subprocess.TimeoutExpired:
                status, err = -1, "timeout"
            first = next((l for l in err.splitlines() if "error" in l), err.strip()[:200])
            results.append({"file": path, "kernel": fn.name, "status": status, "error": first,
                            "command": cmd})
    ok = sum(1 for r in results if r["status"] == 0)
    print(f"compiled {ok} of {len(results)} kernels")
    groups = collections.Counter(re.sub(r"\d+", "N", r["error"].split("error: ")[-1])
                                 for r in results if r["status"] != 0)
    for msg, n in groups.most_common():
        print(f"{n:5d}  {msg}")
    if o.json:
        json.dump(results, open(o.json, "w"), indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
