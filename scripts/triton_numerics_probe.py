"""On the GPU machine: which PTX Triton 3.6 emits for each elementwise op and
cast, and what some edge conversions give (saturation, NaN, rounding), so the
-O2 CUDA backend and the host backend can match it. Prints a report.
Usage: python3 scripts/triton_numerics_probe.py"""
import re
import torch
import triton
import triton.language as tl


@triton.jit
def unary_f32(x_ptr, y_ptr, OP: tl.constexpr):
    i = tl.arange(0, 128)
    x = tl.load(x_ptr + i)
    if OP == "exp":
        y = tl.exp(x)
    elif OP == "exp2":
        y = tl.exp2(x)
    elif OP == "log":
        y = tl.log(x)
    elif OP == "log2":
        y = tl.log2(x)
    elif OP == "sqrt":
        y = tl.sqrt(x)
    elif OP == "sqrt_rn":
        y = tl.sqrt_rn(x)
    elif OP == "rsqrt":
        y = tl.rsqrt(x)
    elif OP == "sin":
        y = tl.sin(x)
    elif OP == "cos":
        y = tl.cos(x)
    elif OP == "erf":
        y = tl.erf(x)
    elif OP == "floor":
        y = tl.floor(x)
    elif OP == "div":
        y = x / (x + 3.0)
    elif OP == "div_rn":
        y = tl.div_rn(x, x + 3.0)
    elif OP == "fdiv":
        y = tl.fdiv(x, x + 3.0)
    elif OP == "mod":
        y = x % (x + 3.0)
    elif OP == "sigmoid":
        y = tl.sigmoid(x)
    elif OP == "abs":
        y = tl.abs(x)
    elif OP == "fma":
        y = tl.fma(x, x, x)
    else:
        y = x
    tl.store(y_ptr + i, y)


@triton.jit
def unary_f16(x_ptr, y_ptr, OP: tl.constexpr):
    i = tl.arange(0, 128)
    x = tl.load(x_ptr + i)
    if OP == "exp":
        y = tl.exp(x)
    elif OP == "sqrt":
        y = tl.sqrt(x)
    elif OP == "add":
        y = x + x * x
    else:
        y = x
    tl.store(y_ptr + i, y)


@triton.jit
def cast_k(x_ptr, y_ptr, DT: tl.constexpr):
    i = tl.arange(0, 128)
    x = tl.load(x_ptr + i)
    tl.store(y_ptr + i, x.to(DT))


def ptx_of(kernel, args, **kw):
    k = kernel[(1,)](*args, **kw)
    ptx = k.asm["ptx"]
    body = ptx[ptx.index("{"):]
    ins = sorted(set(re.findall(r"^\s+([a-z][a-z0-9_.]+)", body, re.M)))
    keep = [s for s in ins if not s.startswith(("ld.", "st.", "mov.", "setp.", "@", "ret", "bra", "add.s", "mad.lo", "shl.",
                                                "cvt.u64", "cvt.s64", "and.", "or.", "shr.", "mul.wide", "add.s64", "selp"))]
    return keep


def main():
    x = torch.linspace(-4, 4, 128, device="cuda", dtype=torch.float32)
    y = torch.empty_like(x)
    for op in ["exp", "exp2", "log", "log2", "sqrt", "sqrt_rn", "rsqrt", "sin", "cos", "erf", "floor", "div", "div_rn",
               "fdiv", "mod", "sigmoid", "abs", "fma"]:
        print(f"f32 {op:8s}", " ".join(ptx_of(unary_f32, (x.abs() + 0.5, y), OP=op)))
    # which dtypes each op accepts
    for op in ["exp", "exp2", "log", "log2", "sqrt", "sqrt_rn", "rsqrt", "sin", "cos", "erf", "floor", "div", "div_rn",
               "fdiv", "mod", "sigmoid", "abs", "fma"]:
        ok = []
        for tdt in [torch.float16, torch.bfloat16, torch.float64, torch.int32]:
            xi = (x.abs() + 0.5).to(tdt)
            try:
                ptx_of(unary_f32, (xi, torch.empty(128, device="cuda", dtype=torch.float64)), OP=op)
                ok.append(str(tdt).replace("torch.", ""))
            except Exception as e:
                pass
        print(f"accepts {op:8s}", ok)
    # edge conversions
    vals = torch.tensor([float("nan"), float("inf"), -float("inf"), 1e10, -1e10, 300.5, -300.5, 127.9, -128.9, 65519.0,
                         65520.0, 1e6, 500.0, 57344.0, 61440.0, 3.0e-5, -0.0] + [0.0] * 111, device="cuda")
    for name, dt, tdt in [("i8", tl.int8, torch.int8), ("i16", tl.int16, torch.int16), ("i32", tl.int32, torch.int32),
                          ("u8", tl.uint8, torch.uint8), ("u32", tl.uint32, torch.uint32), ("i64", tl.int64, torch.int64),
                          ("f16", tl.float16, torch.float16), ("bf16", tl.bfloat16, torch.bfloat16),
                          ("fp8e4nv", tl.float8e4nv, torch.float8_e4m3fn), ("fp8e5", tl.float8e5, torch.float8_e5m2)]:
        out = torch.empty(128, device="cuda", dtype=tdt)
        ins = ptx_of(cast_k, (vals, out), DT=dt)
        got = out[:17].view(torch.uint8 if out.element_size() == 1 else out.dtype)
        print(f"cast f32->{name:8s}", " ".join(i for i in ins if i.startswith("cvt")), "|", got.tolist())


main()
