# GELU with the tanh approximation, as Triton kernels write it with
# libdevice (triton.language.extra.libdevice), in bf16 / fp16 storage with
# f32 math, and a fused bias + GELU over a 2-D block with log1p / expm1 /
# atan / tan from the CUDA spelling tl.extra.cuda.libdevice.
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def gelu_tanh_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    y = 0.5 * x * (1.0 + libdevice.tanh(inner))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def bias_math_kernel(x_ptr, b_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=mask, other=0.0)
    x = x + tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]
    y = (tl.extra.cuda.libdevice.log1p(tl.abs(x)) + tl.extra.cuda.libdevice.expm1(x * 0.5)
         + tl.extra.cuda.libdevice.atan(x) + tl.extra.cuda.libdevice.tan(x * 0.25))
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], y, mask=mask)


@triton.jit
def more_math_kernel(x_ptr, y_ptr, r_ptr, n, BLOCK: tl.constexpr):
    # libdevice's inverse trigonometric, hyperbolic, cube root and base-10
    # logarithm functions, and its four roundings of the same values
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    x = tl.load(x_ptr + o, mask=m, other=0.0)
    s = x * 0.015625
    y = (libdevice.asin(s) + libdevice.acos(s) * 0.5 + libdevice.sinh(x * 0.5) + libdevice.cosh(x * 0.25)
         + libdevice.asinh(x) + libdevice.acosh(tl.abs(x) + 1.0) + libdevice.atanh(s)
         + libdevice.cbrt(x) + libdevice.log10(tl.abs(x) + 0.5))
    tl.store(y_ptr + o, y, mask=m)
    r = (libdevice.rint(x) + libdevice.round(x) * 128.0 + libdevice.trunc(x) * 16384.0
         + libdevice.nearbyint(x) * 0.25)
    tl.store(r_ptr + o, r, mask=m)


@triton.jit
def libdevice_spelled_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # libdevice's own rsqrt, exp, exp2, sqrt, sin, erf, floor and ceil (tl.math
    # has these too, approximate or flushing subnormals on the GPU)
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    x = tl.load(x_ptr + o, mask=m, other=0.0)
    s = x * 0.125
    y = (libdevice.rsqrt(tl.abs(x) + 1.0) + libdevice.exp(s) + libdevice.exp2(s) * 0.5
         + libdevice.sqrt(tl.abs(x)) + libdevice.sin(x) + libdevice.erf(s)
         + libdevice.floor(x) * 0.25 + libdevice.ceil(x) * 0.125)
    tl.store(y_ptr + o, y, mask=m)


@triton.jit
def libdevice_binary_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # libdevice's functions of two operands; pow with an integer exponent
    # (FlagGems' norms: pow(x, 3))
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = o < n
    x = tl.load(x_ptr + o, mask=m, other=1.0)
    y = tl.load(y_ptr + o, mask=m, other=1.0)
    r = libdevice.pow(x, 3) + libdevice.pow(tl.abs(x) + 0.5, y) + libdevice.atan2(x, y)
    r += libdevice.hypot(x, y) + libdevice.fmod(x, y) + libdevice.copysign(x, y)
    tl.store(out_ptr + o, r, mask=m)


@triton.jit
def std_softmax_kernel(x_ptr, y_ptr, z_ptr, R: tl.constexpr, C: tl.constexpr):
    # triton.language's softmax: along the rows of an (R, C) block (dim=1,
    # keep_dims=True) and of a vector (the default dim, division rounded)
    rows = tl.arange(0, R)[:, None]
    cols = tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + rows * C + cols)
    tl.store(y_ptr + rows * C + cols, tl.softmax(x, dim=1, keep_dims=True))
    v = tl.load(x_ptr + tl.arange(0, C))
    tl.store(z_ptr + tl.arange(0, C), v.softmax(ieee_rounding=True))
