#!/usr/bin/env python3
"""Compile every @triton.jit kernel of real Triton code with mytritonc.

A coverage probe of the language, not a test: for each function decorated
with @triton.jit in the given files (helpers that return a value are
skipped: they are not kernels), the signature is guessed from the code:
a parameter is a pointer when it reaches the first argument of a tl.load /
tl.store / atomic / make_block_ptr call through + and - (or its name says
ptr); a pointer is an i32 pointer when its loads feed offsets (an index
table: idx = tl.load(p + i); tl.load(x + idx * stride)) or its name says it
holds indexes (ids, idx, offsets, counts, ...), else fp32; a scalar is an
i32 when it feeds an address (an offset, a stride or size multiplied in,
through assignments), else a float when its name says so (eps, scale, ...),
else an i32. A constexpr without a default compared with a string gets that
string (ACTIVATION == "gelu"), one compared with a dtype or used as one
(x.to(DTYPE), dtype=DTYPE) a dtype, one compared equal with an integer
(MODE == 0, not a block size) that integer, else False when its name is a flag
(HAS_, IS_, USE_, ...), else 64. Some failures are still the guess's, not
the compiler's: read the messages (--names-only: the guess from names
alone, as before the uses were read).

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


def names_in(e, out):
    """Every name an expression reads."""
    for n in ast.walk(e):
        if isinstance(n, ast.Name):
            out.add(n.id)


def assignments(fn):
    """[(target names, value)] of the function's plain and augmented assignments."""
    out = []
    for n in ast.walk(fn):
        if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and n.value is not None:
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            names = set()
            for t in targets:
                names_in(t, names)
            out.append((names, n.value))
    return out


def address_args(fn):
    """The address operands of the loads, stores, atomics and block pointers."""
    out = []
    for n in ast.walk(fn):
        if isinstance(n, ast.Call) and POINTER_USES.search(ast.unparse(n.func)):
            a = n.args[0] if n.args else next(
                (k.value for k in n.keywords if k.arg in ("pointer", "ptr", "base")), None)
            if a is not None:
                out.append((n, a))
    return out


def offset_names(fn, ptrs):
    """Names that feed addresses other than as the pointer itself: the offsets
    (indexes, strides, sizes multiplied in), through assignments. They are
    integers whatever their names say."""
    offs = set()
    for _, a in address_args(fn):
        names_in(a, offs)
    offs -= ptrs
    asg = assignments(fn)
    for _ in range(6):
        n0 = len(offs)
        for names, value in asg:
            if names & offs:
                got = set()
                names_in(value, got)
                offs |= got - ptrs
        if len(offs) == n0:
            break
    return offs


def loaded_from(fn, ptrs):
    """name -> the pointers whose tl.load gives its value (v = tl.load(p + i), directly)."""
    out = {}
    for names, value in assignments(fn):
        for n in ast.walk(value):
            if isinstance(n, ast.Call) and ast.unparse(n.func).endswith("load") and n.args:
                src = set()
                leaves(n.args[0], src)
                for t in names:
                    out.setdefault(t, set()).update(src & ptrs)
    return out


def integer_pointers(fn, ptrs, offs):
    """Pointers whose loads feed offsets (indexes, lengths): integer pointers.
    A load inside an address counts as well."""
    ints = set()
    for name, srcs in loaded_from(fn, ptrs).items():
        if name in offs:
            ints |= srcs
    for call, a in address_args(fn):
        for n in ast.walk(a):
            if n is not a and isinstance(n, ast.Call) and ast.unparse(n.func).endswith("load") and n.args:
                leaves(n.args[0], ints)
    return ints & ptrs


DTYPES = ("float16", "bfloat16", "float32", "float64", "float8e4nv", "float8e5", "int8", "int16", "int32",
          "int64", "uint8", "uint32", "int1")


def constexpr_values(fn, names):
    """A constexpr's value read from its uses: a string it is compared with
    (ACTIVATION == "gelu"), a dtype it is compared with or used as
    (DTYPE == tl.float16, x.to(DTYPE), dtype=DTYPE), an integer it is
    compared equal with (MODE == 0; not block sizes)."""
    out = {}

    def dtype_text(e):
        t = ast.unparse(e)
        last = t.split(".")[-1]
        return ("tl." + last) if last in DTYPES and t.startswith(("tl.", "triton.language.")) else None

    for n in ast.walk(fn):
        if isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], (ast.Eq, ast.NotEq, ast.In)):
            sides = [n.left, n.comparators[0]]
            for a, b in (sides, sides[::-1]):
                if not (isinstance(a, ast.Name) and a.id in names) or a.id in out:
                    continue
                if isinstance(b, ast.Constant) and isinstance(b.value, str):
                    out[a.id] = repr(b.value)
                elif isinstance(b, (ast.Tuple, ast.List)) and b.elts and isinstance(b.elts[0], ast.Constant) \
                        and isinstance(b.elts[0].value, str):
                    out[a.id] = repr(b.elts[0].value)
                elif dtype_text(b):
                    out[a.id] = dtype_text(b)
                elif isinstance(b, ast.Constant) and type(b.value) is int and isinstance(n.ops[0], ast.Eq) \
                        and not re.search(r"BLOCK|SIZE", a.id, re.I):
                    out[a.id] = str(b.value)  # a mode chosen by number (p_loss == 0): its first
        elif isinstance(n, ast.Call):
            f = ast.unparse(n.func)
            cands = [k.value for k in n.keywords if k.arg == "dtype"]
            if f.endswith(".to") and n.args:
                cands.append(n.args[0])
            for c in cands:
                if isinstance(c, ast.Name) and c.id in names and c.id not in out:
                    out[c.id] = "tl.float32"
    return out


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


def command(compiler, path, fn, module_values=(), uses=True):
    sig, defs = [], []
    args = fn.args.args
    ptrs = pointer_names(fn)
    ptrs |= {a.arg for a in args if "ptr" in a.arg.lower() and "stride" not in a.arg.lower()}
    if uses:
        offs = offset_names(fn, ptrs)
        int_ptrs = integer_pointers(fn, ptrs, offs)
        values = constexpr_values(fn, {a.arg for a in args})
    else:
        offs, int_ptrs, values = set(), set(), {}
    first_default = len(args) - len(fn.args.defaults)
    for i, a in enumerate(args):
        ann = ast.unparse(a.annotation) if a.annotation else ""
        if "constexpr" in ann:
            if i < first_default:
                defs += ["-D", f"{a.arg}={values.get(a.arg) or guess_constexpr(a.arg)}"]
        elif a.arg in ptrs:
            sig.append("*i32" if a.arg in int_ptrs or INDEXES.search(a.arg) else "*fp32")
        else:
            sig.append("fp32" if FLOATS.search(a.arg) and a.arg not in offs else "i32")
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
    ap.add_argument("--names-only", action="store_true",
                    help="the guess from names alone (no typing from uses), for comparison")
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
            cmd = command(o.compiler, path, fn, o.module_value, not o.names_only)
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
