# Kernels in FlagGems' forms (our own code): a helper taking a dtype
# constexpr and unwrapping it with `.value` (tl.constexpr's attribute),
# reading `int_bitwidth` and computing `2 ** (width - 1) - 1` at compile
# time; `x.type.element_ty`, `tl.zeros_like` and Python's `math.pi`.
import math

import triton
import triton.language as tl


@triton.jit
def dtype_max(dtype: tl.constexpr):
    dt = dtype.value
    if dt.is_floating():
        value: tl.constexpr = float("inf")
        return value
    width: tl.constexpr = dt.int_bitwidth
    value: tl.constexpr = 2 ** (width - 1) - 1
    return value


@triton.jit
def saturate_kernel(x_ptr, y_ptr, z_ptr, n, BLOCK: tl.constexpr):
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    x = tl.load(x_ptr + o, mask=m, other=0)
    hi = dtype_max(x.type.element_ty)
    lo = tl.zeros_like(x) - hi
    y = tl.minimum(tl.maximum(x.to(tl.int64) * 3, lo.to(tl.int64)), hi).to(x.dtype)
    tl.store(y_ptr + o, y, mask=m)
    tl.store(z_ptr + o, x.to(tl.float32) * math.pi, mask=m)


@tl.constexpr
def accum_type(dtype: tl.dtype) -> tl.dtype:
    # Python run at compile time (FlagGems' cumsum picks its accumulator so)
    if dtype.is_fp16() or dtype.is_bf16():
        return tl.float32
    return dtype


@triton.jit
def weighted_sum_kernel(x_ptr, w_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # `if w_ptr:` tests the address at run time (a null weight: no weights)
    acc_t: tl.constexpr = accum_type(x_ptr.dtype.element_ty)
    o = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + o, mask=o < n, other=0).to(acc_t)
    if w_ptr:
        x = x * tl.load(w_ptr + o, mask=o < n, other=0).to(acc_t)
    tl.store(y_ptr, tl.sum(x, axis=0))


@triton.jit
def cat3_kernel(out_ptr, a_ptr, b_ptr, c_ptr, na, nb, nc, BLOCK: tl.constexpr):
    # FlagGems' cat: the second grid axis picks the input, a pointer chosen
    # by a runtime if / elif / else, with its length and where it goes
    pid = tl.program_id(0)
    which = tl.program_id(1)
    if which == 0:
        src = a_ptr
        n = na
        start = 0
    elif which == 1:
        src = b_ptr
        n = nb
        start = na
    else:
        src = c_ptr
        n = nc
        start = na + nb
    o = pid * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(out_ptr + start + o, tl.load(src + o, mask=m, other=0), mask=m)


@triton.jit
def split2_kernel(x_ptr, lo_ptr, hi_ptr, n, h, BLOCK: tl.constexpr):
    # the destination chosen by a conditional expression: the program's
    # block goes to lo (below h) or hi, doubled (h is a multiple of BLOCK)
    pid = tl.program_id(0)
    upper = pid * BLOCK >= h
    dst = hi_ptr if upper else lo_ptr
    start = h if upper else 0
    o = pid * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    tl.store(dst + (o - start), tl.load(x_ptr + o, mask=m, other=0) * 2, mask=m)
