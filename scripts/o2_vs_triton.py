"""On the GPU machine: mytriton's CUDA backend against Triton, op by op, on
the same kernel source. For each op a small kernel (written to a temporary
.py) is compiled by mytritonc (-O2 by default), built by nvcc into one
shared library with the runtime's sources, launched through its generated
launcher (ctypes, torch tensors), run by Triton, and the outputs compared
element by element: the largest difference in units in the last place (ulp)
of the output dtype, how many elements differ, NaN mismatches, and the worst
input. Triton's numerics at -O2 should give 0 ulp for every op whose PTX we
reproduce (exp, exp2, sqrt, rsqrt, '/', fdiv, div_rn, sqrt_rn, fma, floor,
ceil, casts); log, log2, sin, cos and erf come from libdevice on both sides
(Triton's with subnormals flushed), so they may differ on subnormals.

Usage (from the repository root, after building mytritonc, e.g. with
`cmake --preset h200 && cmake --build --preset h200 --target mytritonc`):
    python3 scripts/o2_vs_triton.py [--mytritonc build-h200/bin/mytritonc]
        [--opt 2] [--ops exp,div,...] [--n 1048576] [--arch sm_90]
Exit status: 0 when every op is within its tolerance (--strict: 0 ulp).
"""
import argparse
import concurrent.futures
import ctypes
import glob
import importlib.util
import math
import os
import subprocess
import sys
import tempfile

import torch
import triton
import triton.language as tl  # noqa: F401 (used by the generated module)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name, input dtype, output dtype, expression over x and y, input domain,
# ulp tolerance (what Triton's own PTX allows us to differ by: 0 where we emit
# the same instructions)
OPS = [
    ("exp", "fp32", "fp32", "tl.exp(x)", "exp", 0),
    ("exp2", "fp32", "fp32", "tl.exp2(x)", "exp", 0),
    ("log", "fp32", "fp32", "tl.log(x)", "pos", 1),
    ("log2", "fp32", "fp32", "tl.log2(x)", "pos", 1),
    ("sqrt", "fp32", "fp32", "tl.sqrt(x)", "pos", 0),
    ("sqrt_rn", "fp32", "fp32", "tl.sqrt_rn(x)", "pos", 0),
    ("rsqrt", "fp32", "fp32", "tl.rsqrt(x)", "pos", 0),
    ("sin", "fp32", "fp32", "tl.sin(x)", "trig", 1),
    ("cos", "fp32", "fp32", "tl.cos(x)", "trig", 1),
    ("erf", "fp32", "fp32", "tl.erf(x)", "wide", 1),
    ("floor", "fp32", "fp32", "tl.floor(x)", "wide", 0),
    ("ceil", "fp32", "fp32", "tl.ceil(x)", "wide", 0),
    ("abs", "fp32", "fp32", "tl.abs(x)", "wide", 0),
    ("div", "fp32", "fp32", "x / y", "wide", 0),
    ("fdiv", "fp32", "fp32", "tl.fdiv(x, y)", "wide", 0),
    ("div_rn", "fp32", "fp32", "tl.div_rn(x, y)", "wide", 0),
    ("mod", "fp32", "fp32", "x % y", "wide", 0),
    ("fma", "fp32", "fp32", "tl.fma(x, y, x)", "wide", 0),
    ("mul_add", "fp32", "fp32", "x * y + x", "wide", 0),
    ("sigmoid", "fp32", "fp32", "tl.sigmoid(x)", "exp", 0),
    ("maximum", "fp32", "fp32", "tl.maximum(x, y)", "wide", 0),
    ("minimum_nan", "fp32", "fp32", "tl.minimum(x, y, propagate_nan=tl.PropagateNan.ALL)", "wide", 0),
    ("softplus", "fp32", "fp32", "tl.log(1.0 + tl.exp(x))", "exp", 1),
    ("exp_f64", "fp64", "fp64", "tl.exp(x)", "exp", 0),
    ("log_f64", "fp64", "fp64", "tl.log(x)", "pos", 0),
    ("sqrt_f64", "fp64", "fp64", "tl.sqrt(x)", "pos", 0),
    ("rsqrt_f64", "fp64", "fp64", "tl.rsqrt(x)", "pos", 0),
    ("div_f64", "fp64", "fp64", "x / y", "wide", 0),
    ("mod_f64", "fp64", "fp64", "x % y", "wide", 0),
    ("add_f16", "fp16", "fp16", "x + y", "half", 0),
    ("mul_add_f16", "fp16", "fp16", "x * y + x", "half", 0),
    ("div_f16", "fp16", "fp16", "x / y", "half", 0),
    ("mul_add_bf16", "bf16", "bf16", "x * y + x", "half", 0),
    ("div_bf16", "bf16", "bf16", "x / y", "half", 0),
    ("to_f16", "fp32", "fp16", "x.to(tl.float16)", "cast", 0),
    ("to_bf16", "fp32", "bf16", "x.to(tl.bfloat16)", "cast", 0),
    ("to_f16_rtz", "fp32", "fp16", 'tl.cast(x, tl.float16, fp_downcast_rounding="rtz")', "cast", 0),
    ("to_fp8e4nv", "fp32", "fp8e4nv", "x.to(tl.float8e4nv)", "cast", 0),
    ("to_fp8e5", "fp32", "fp8e5", "x.to(tl.float8e5)", "cast", 0),
    ("to_i8", "fp32", "i8", "x.to(tl.int8)", "cast", 0),
    ("to_u8", "fp32", "u8", "x.to(tl.uint8)", "cast", 0),
    ("to_i16", "fp32", "i16", "x.to(tl.int16)", "cast", 0),
    ("to_i32", "fp32", "i32", "x.to(tl.int32)", "cast", 0),
    ("to_u32", "fp32", "u32", "x.to(tl.uint32)", "cast", 0),
    ("to_i64", "fp32", "i64", "x.to(tl.int64)", "cast", 0),
    ("floordiv_i32", "i32", "i32", "x // y", "int", 0),
    ("mod_i32", "i32", "i32", "x % y", "int", 0),
    ("shr_i32", "i32", "i32", "x >> (y & 31)", "int", 0),
    ("i32_div", "i32", "fp32", "x / y", "int", 0),
    ("umulhi_u32", "u32", "u32", "tl.umulhi(x, y)", "int", 0),
    # a reduction's order differs from Triton's tree: informational
    ("sum_f16", "fp16", "fp16", "REDUCE", "half", 1 << 12),
]

TORCH = {
    "fp16": torch.float16, "bf16": torch.bfloat16, "fp32": torch.float32, "fp64": torch.float64,
    "fp8e4nv": torch.float8_e4m3fn, "fp8e5": torch.float8_e5m2, "i8": torch.int8, "u8": torch.uint8,
    "i16": torch.int16, "i32": torch.int32, "u32": torch.uint32, "i64": torch.int64,
}

BLOCK = 1024


def kernel_source(name, expr):
    if expr == "REDUCE":
        return f"""
@triton.jit
def k_{name}(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * BLOCK + offs)
    tl.store(out_ptr + row * BLOCK, tl.sum(x, axis=0))
"""
    return f"""
@triton.jit
def k_{name}(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1)
    y = tl.load(y_ptr + offs, mask=m, other=1)
    tl.store(out_ptr + offs, {expr}, mask=m)
"""


def specials(dt):
    f = torch.finfo(torch.float32)
    return torch.tensor([0.0, -0.0, float("inf"), -float("inf"), float("nan"), f.tiny, f.tiny / 8, -f.tiny / 3, 1.0,
                         -1.0, 0.5, 300.5, -300.5, 40000.0, -40000.0, 65520.0, 1e10, -1e10, 127.9, -128.9, 2.0**24 + 1,
                         448.0, 464.0, 57344.0, 61440.0, 3.0e-5], dtype=torch.float64)


def inputs(domain, dt, n, gen):
    def u(lo, hi):
        return torch.rand(n, generator=gen, dtype=torch.float64) * (hi - lo) + lo

    if domain == "int":
        info = torch.iinfo(TORCH[dt])
        lo, hi = max(info.min, -2**31), min(info.max, 2**31 - 1)
        x = torch.randint(lo, hi, (n,), generator=gen, dtype=torch.int64)
        y = torch.randint(lo, hi, (n,), generator=gen, dtype=torch.int64)
        y[: n // 2] = torch.randint(-50, 50, (n // 2,), generator=gen)
        y[y == 0] = 7
        x[:4] = torch.tensor([info.min, info.max, -7, 7]) if info.min < 0 else torch.tensor([0, info.max, 7, 8])
        return x.to(TORCH[dt]), y.to(TORCH[dt])
    if domain == "exp":
        x, y = u(-90, 90), u(-140, 140)
    elif domain == "pos":
        x = torch.exp(u(-100, 88))
        y = x.clone()
    elif domain == "trig":
        x, y = u(-200, 200), u(-200, 200)
    elif domain == "half":
        x, y = u(-60, 60), u(-60, 60)
    elif domain == "cast":
        x = torch.sinh(u(-25, 25))
        y = x.clone()
    else:
        x = torch.sinh(u(-30, 30))
        y = torch.sinh(u(-30, 30))
    s = specials(dt)
    x[: len(s)] = s
    y[len(s): 2 * len(s)] = s
    y[: len(s)] = torch.flip(s, [0])
    return x.to(TORCH[dt]), y.to(TORCH[dt])


def ordered(t):
    """Floats as integers ordered like the floats (ulp distance = difference)."""
    bits = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()]
    i = t.view(bits).to(torch.int64)
    sign = 1 << (8 * t.element_size() - 1)
    mag = i & (sign - 1)
    return torch.where(i < 0, -mag, mag)


def compare(ours, ref):
    if ours.dtype.is_floating_point:
        a, b = ours.to(torch.float64), ref.to(torch.float64)
        nan_a, nan_b = torch.isnan(a), torch.isnan(b)
        nan_mismatch = int((nan_a != nan_b).sum())
        both = ~(nan_a | nan_b)
        ulp = (ordered(ours) - ordered(ref)).abs()
        ulp = torch.where(both, ulp, torch.zeros_like(ulp))
        ulp = torch.where(nan_a != nan_b, torch.full_like(ulp, 1 << 62), ulp)
    else:
        ulp = (ours.to(torch.int64) - ref.to(torch.int64)).abs()
        nan_mismatch = 0
    return ulp, nan_mismatch


def build(args, tmp, module_path, ops):
    """mytritonc and nvcc for every op; one shared library."""
    def one(op):
        name, dti, dto = op[0], op[1], op[2]
        sig = f"*{dti}, *{dti}, *{dto}, i32"
        grid = "n" if op[3] == "REDUCE" else "cdiv(n, BLOCK)"
        subprocess.run([args.mytritonc, module_path, "--kernel", f"k_{name}", "--signature", sig, "-D", f"BLOCK={BLOCK}",
                        "--grid", grid, f"-O{args.opt}", "--name", f"mt_{name}", "-o", tmp], check=True)
        obj = os.path.join(tmp, f"mt_{name}.o")
        subprocess.run(["nvcc", f"-arch={args.arch}", "-c", "-Xcompiler", "-fPIC", "-I", os.path.join(ROOT, "runtime/include"),
                        "-I", tmp, os.path.join(tmp, f"mt_{name}.cu"), "-o", obj], check=True)
        return obj

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 4) as ex:
        objs = list(ex.map(one, ops))
    for c in glob.glob(os.path.join(ROOT, "runtime/src/*.c")):
        o = os.path.join(tmp, "rt_" + os.path.basename(c) + ".o")
        subprocess.run(["cc", "-std=c11", "-O2", "-fPIC", "-D_GNU_SOURCE", "-c", "-I", os.path.join(ROOT, "runtime/include"),
                        c, "-o", o], check=True)
        objs.append(o)
    lib = os.path.join(tmp, "libmt_ops.so")
    subprocess.run(["nvcc", f"-arch={args.arch}", "-shared", "-o", lib] + objs + ["-lpthread", "-ldl"], check=True)
    return ctypes.CDLL(lib)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mytritonc", default=os.path.join(ROOT, "build-h200/bin/mytritonc"))
    ap.add_argument("--opt", default="2")
    ap.add_argument("--ops", default="")
    ap.add_argument("--n", type=int, default=1 << 20)
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--strict", action="store_true", help="every op must match bit for bit")
    args = ap.parse_args()
    ops = [o for o in OPS if not args.ops or o[0] in args.ops.split(",")]
    tmp = tempfile.mkdtemp(prefix="mt_o2_vs_triton_")
    module_path = os.path.join(tmp, "o2ops.py")
    with open(module_path, "w") as fh:
        fh.write("import triton\nimport triton.language as tl\n")
        for o in ops:
            fh.write(kernel_source(o[0], o[3]))
    spec = importlib.util.spec_from_file_location("o2ops", module_path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    lib = build(args, tmp, module_path, ops)
    gen = torch.Generator().manual_seed(12)
    n = args.n
    failed = 0
    print(f"{'op':14s} {'in':>7s} {'out':>7s} {'max ulp':>10s} {'differ':>9s} {'nan!=':>6s}  worst (x, y: ours / triton)")
    for op in ops:
        try:
            failed += run_op(args, lib, mod, gen, n, *op)
        except Exception as e:  # one op's failure (a torch dtype, a launch) does not hide the others
            print(f"{op[0]:14s} error: {e}")
            failed += 1
    print(f"{len(ops) - failed}/{len(ops)} ops within tolerance (-O{args.opt}); sources in {tmp}")
    return 1 if failed else 0


def run_op(args, lib, mod, gen, n, name, dti, dto, expr, domain, tol):
    x, y = inputs(domain, dti, n, gen)
    x, y = x.cuda(), y.cuda()
    ours = torch.empty(n, dtype=TORCH[dto], device="cuda")
    ref = torch.empty_like(ours)
    ours.fill_(0)
    ref.fill_(0)
    kern = getattr(mod, f"k_{name}")
    grid = (n // BLOCK,) if expr == "REDUCE" else (triton.cdiv(n, BLOCK),)
    kern[grid](x, y, ref, n, BLOCK=BLOCK)
    torch.cuda.synchronize()
    launch = getattr(lib, f"launch_mt_{name}")
    launch.restype = ctypes.c_int
    arg_n = n // BLOCK if expr == "REDUCE" else n
    err = launch(ctypes.c_void_p(0), ctypes.c_void_p(x.data_ptr()), ctypes.c_void_p(y.data_ptr()),
                 ctypes.c_void_p(ours.data_ptr()), ctypes.c_int32(arg_n))
    torch.cuda.synchronize()
    if err != 0:
        print(f"{name:14s} launch error {err}")
        return 1
    if expr == "REDUCE":
        ours, ref = ours[::BLOCK], ref[::BLOCK]
    ulp, nanm = compare(ours, ref)
    worst = int(torch.argmax(ulp))
    mx = int(ulp[worst])
    differ = int((ulp != 0).sum())
    bad = mx > (0 if args.strict else tol) or nanm > 0
    wx = x[worst * (BLOCK if expr == "REDUCE" else 1)].item()
    wy = y[worst * (BLOCK if expr == "REDUCE" else 1)].item()
    shown = "inf(NaN)" if mx >= 1 << 62 else str(mx)
    print(f"{name:14s} {dti:>7s} {dto:>7s} {shown:>10s} {differ:9d} {nanm:6d}  "
          f"({wx:.9g}, {wy:.9g}: {ours[worst].item()!r} / {ref[worst].item()!r}){'  <-- over ' + str(tol) if bad else ''}")
    return int(bad)


if __name__ == "__main__":
    sys.exit(main())
