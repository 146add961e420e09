#!/usr/bin/env python3
"""On the GPU machine (Triton 3.6): asks Triton, for every case of the
promotion table, the result dtype of an operator (or the class of the error it
raises), and for integer // and % on negative operands the values; writes
test/oracle/promotion_table.txt, which the CI test test/oracle/promotion_test.cpp
compares with mytriton's types and diagnostics.

    python3 scripts/gen_promotion_table.py [--out FILE] [--jobs N]

Cases: every pair of dtypes (bool i8 i16 i32 i64 u8 u16 u32 u64 f16 bf16 f32
f64) x operators (+ - * / // % & | ^ << >> < ==, tl.where, tl.maximum), tensor
with tensor, and tensor with a Python int / float / bool scalar (negative and
out-of-range ones included) in both orders.

How: a kernel with constexpr parameters builds the operands (a tensor is
tl.full((4,), 1, DTYPE), a scalar a Python number), applies the operator, and
stops the compilation right after the frontend with tl.static_print of the
result's dtype and a failing tl.static_assert, so each case costs only
Triton's frontend. Value cases run a kernel on one-element tensors.

Table format (one case a line; '#' starts a comment):
    OP LHS RHS RESULT
OP: add sub mul truediv floordiv mod and or xor lshift rshift lt eq where
maximum (where: tl.where(cond, LHS, RHS) with a block condition). LHS, RHS: a
tensor's dtype as Triton prints it (int1 int8 .. uint64 fp16 bf16 fp32 fp64),
or a Python scalar int(V), float(V), bool(V). RESULT: the result's dtype, or
error:CLASS (the Python exception class Triton raised). Value cases give
operands and result as DTYPE=VALUE (a scalar operand as int(V))."""
import argparse
import contextlib
import io
import multiprocessing
import os
import sys

import triton
import triton.language as tl

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

DTYPES = ["int1", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "fp16", "bf16", "fp32",
          "fp64"]
OPS = ["add", "sub", "mul", "truediv", "floordiv", "mod", "and", "or", "xor", "lshift", "rshift", "lt", "eq", "where",
       "maximum"]
SCALARS = ["int(3)", "int(-3)", "int(200)", "int(-129)", "int(70000)", "int(2147483648)", "int(-2147483649)",
           "int(9223372036854775808)", "float(1.5)", "float(-0.5)", "float(1e+300)", "bool(True)"]
# integer // and % on negative operands: (dtype, a, b) with tensor/tensor,
# tensor/scalar and scalar/tensor forms
VALUE_INT = [(-7, 2), (7, -2), (-7, -2), (-8, 3), (-1, 5), (0, -3), (-6, 3)]
VALUE_DTYPES = ["int8", "int16", "int32", "int64"]
VALUE_FLOAT = [(-7.5, 2.0), (7.5, -2.0), (-7.5, -2.0), (-0.5, 3.0)]


def cases():
    out = []
    for op in OPS:
        for a in DTYPES:
            for b in DTYPES:
                out.append((op, a, b))
        for t in DTYPES:
            for s in SCALARS:
                out.append((op, t, s))
                out.append((op, s, t))
    return out


def value_cases():
    out = []
    for op in ("floordiv", "mod"):
        for dt in VALUE_DTYPES:
            for a, b in VALUE_INT:
                out.append((op, "%s=%d" % (dt, a), "%s=%d" % (dt, b)))
                out.append((op, "%s=%d" % (dt, a), "int(%d)" % b))
                out.append((op, "int(%d)" % a, "%s=%d" % (dt, b)))
    for dt in ("fp32", "fp64"):
        for a, b in VALUE_FLOAT:
            out.append(("mod", "%s=%r" % (dt, a), "%s=%r" % (dt, b)))
            out.append(("mod", "%s=%r" % (dt, a), "float(%r)" % b))
    return out


def scalar_value(tok):
    kind, v = tok[:-1].split("(", 1)
    return {"int": int, "float": float, "bool": lambda s: s == "True"}[kind](v)


@triton.jit
def type_probe(OP: tl.constexpr, A_DT: tl.constexpr, B_DT: tl.constexpr, A_VAL: tl.constexpr,
               B_VAL: tl.constexpr, A_TENSOR: tl.constexpr, B_TENSOR: tl.constexpr):
    if A_TENSOR:
        a = tl.full((4, ), 1, A_DT)
    else:
        a = A_VAL
    if B_TENSOR:
        b = tl.full((4, ), 1, B_DT)
    else:
        b = B_VAL
    if OP == "add":
        r = a + b
    elif OP == "sub":
        r = a - b
    elif OP == "mul":
        r = a * b
    elif OP == "truediv":
        r = a / b
    elif OP == "floordiv":
        r = a // b
    elif OP == "mod":
        r = a % b
    elif OP == "and":
        r = a & b
    elif OP == "or":
        r = a | b
    elif OP == "xor":
        r = a ^ b
    elif OP == "lshift":
        r = a << b
    elif OP == "rshift":
        r = a >> b
    elif OP == "lt":
        r = a < b
    elif OP == "eq":
        r = a == b
    elif OP == "where":
        r = tl.where(tl.arange(0, 4) < 2, a, b)
    else:
        r = tl.maximum(a, b)
    tl.static_print("MYTRITON-RESULT", r.dtype)
    tl.static_assert(False, "MYTRITON-PROBE-DONE")

@triton.jit
def value_probe(a_ptr, b_ptr, out_ptr, OP: tl.constexpr, A_VAL: tl.constexpr, B_VAL: tl.constexpr,
                A_TENSOR: tl.constexpr, B_TENSOR: tl.constexpr):
    if A_TENSOR:
        a = tl.load(a_ptr)
    else:
        a = A_VAL
    if B_TENSOR:
        b = tl.load(b_ptr)
    else:
        b = B_VAL
    if OP == "add":
        r = a + b
    elif OP == "sub":
        r = a - b
    elif OP == "mul":
        r = a * b
    elif OP == "truediv":
        r = a / b
    elif OP == "floordiv":
        r = a // b
    elif OP == "mod":
        r = a % b
    elif OP == "and":
        r = a & b
    elif OP == "or":
        r = a | b
    elif OP == "xor":
        r = a ^ b
    elif OP == "lshift":
        r = a << b
    elif OP == "rshift":
        r = a >> b
    elif OP == "lt":
        r = a < b
    elif OP == "eq":
        r = a == b
    elif OP == "where":
        r = tl.where(tl.arange(0, 4) < 2, a, b)
    else:
        r = tl.maximum(a, b)
    tl.store(out_ptr, r)


def _tl_dtype(name):
    return {"int1": tl.int1, "int8": tl.int8, "int16": tl.int16, "int32": tl.int32, "int64": tl.int64,
            "uint8": tl.uint8, "uint16": tl.uint16, "uint32": tl.uint32, "uint64": tl.uint64, "fp16": tl.float16,
            "bf16": tl.bfloat16, "fp32": tl.float32, "fp64": tl.float64}[name]


def _dtype_name(text):
    """Triton's short name (fp16) of a printed dtype: fp16, constexpr[fp16],
    triton.language.float16."""
    text = text.strip()
    if text.startswith("constexpr[") and text.endswith("]"):
        text = text[len("constexpr["):-1]
    text = text.rsplit(".", 1)[-1]
    long_names = {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32", "float64": "fp64"}
    name = long_names.get(text, text)
    if name not in DTYPES:
        raise RuntimeError("unexpected dtype text %r from tl.static_print" % text)
    return name


def _error_class(e):
    seen = e
    while seen.__cause__ is not None or seen.__context__ is not None:
        seen = seen.__cause__ or seen.__context__
    return type(seen).__name__


def probe_type(case):
    op, a, b = case
    kw = {"OP": op}
    for side, tok in (("A", a), ("B", b)):
        tensor = "(" not in tok
        kw[side + "_TENSOR"] = tensor
        kw[side + "_DT"] = _tl_dtype(tok) if tensor else None
        kw[side + "_VAL"] = None if tensor else scalar_value(tok)
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            type_probe[(1, )](**kw)
    except Exception as e:  # noqa: BLE001 (every failure is a table entry)
        for line in buf.getvalue().splitlines():
            if line.startswith("MYTRITON-RESULT"):
                return "%s %s %s %s" % (op, a, b, _dtype_name(line.split(None, 1)[1]))
        return "%s %s %s error:%s" % (op, a, b, _error_class(e))
    raise RuntimeError("the probe of %r compiled: tl.static_assert(False) did not stop it" % (case, ))


def probe_value(case):
    import torch
    op, a, b = case
    kw = {"OP": op}
    ptrs = []
    dts = []
    for side, tok in (("A", a), ("B", b)):
        tensor = "=" in tok
        kw[side + "_TENSOR"] = tensor
        if tensor:
            dt, v = tok.split("=")
            dts.append(dt)
            tdt = {"fp32": torch.float32, "fp64": torch.float64}.get(dt) or getattr(torch, dt)
            ptrs.append(torch.tensor([float(v) if dt.startswith("fp") else int(v)], dtype=tdt, device="cuda"))
            kw[side + "_VAL"] = None
        else:
            ptrs.append(torch.zeros(1, dtype=torch.int32, device="cuda"))
            kw[side + "_VAL"] = scalar_value(tok)
    res = probe_type((op, *(t.split("=")[0] if "=" in t else t for t in (a, b))))
    rdt = res.split()[-1]
    if rdt.startswith("error:"):
        return "%s %s %s %s" % (op, a, b, rdt)
    out_dt = torch.float64 if rdt.startswith("fp") or rdt == "bf16" else torch.int64
    out = torch.zeros(1, dtype=out_dt, device="cuda")
    try:
        value_probe[(1, )](ptrs[0], ptrs[1], out, **kw)
        torch.cuda.synchronize()
    except Exception as e:  # noqa: BLE001
        return "%s %s %s error:%s" % (op, a, b, _error_class(e))
    v = out.item()
    return "%s %s %s %s=%s" % (op, a, b, rdt, repr(v) if isinstance(v, float) else v)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "test", "oracle", "promotion_table.txt"))
    ap.add_argument("--jobs", type=int, default=min(16, os.cpu_count() or 4))
    opts = ap.parse_args()
    import torch
    gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no GPU"
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(opts.jobs) as pool:
        rows = pool.map(probe_type, cases(), chunksize=32)
    values = [probe_value(c) for c in value_cases()]
    with open(opts.out, "w") as f:
        f.write("# Triton's promotion table: written by scripts/gen_promotion_table.py with Triton %s on %s.\n"
                % (triton.__version__, gpu))
        f.write("# Checked against mytriton by test/oracle/promotion_test.cpp. Format: see the script's docstring.\n")
        f.write("# OP LHS RHS RESULT\n")
        for r in rows:
            f.write(r + "\n")
        f.write("# integer // and % (and float %) on negative operands: OP LHS=V RHS=V DTYPE=VALUE\n")
        for r in values:
            f.write(r + "\n")
    errors = sum(1 for r in rows if "error:" in r)
    print("%d type cases (%d errors), %d value cases written to %s" % (len(rows), errors, len(values), opts.out))


if __name__ == "__main__":
    sys.exit(main())
