import triton
import triton.language as tl


@triton.jit
def activation_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, ACTIVATION: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    if ACTIVATION == "leaky_relu":
        x = tl.where(x >= 0, x, 0.01 * x)
    elif ACTIVATION == "relu":
        x = tl.maximum(x, 0.0)
    tl.store(out_ptr + offs, x, mask=mask)


@triton.jit
def where_clamp_kernel(x_ptr, y_ptr, sign_ptr, clamp_ptr, maxnan_ptr, min_ptr, n, lo, hi, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
    tl.store(sign_ptr + offs, tl.where(x > 0, 1.0, -1.0), mask=mask)
    tl.store(clamp_ptr + offs, tl.clamp(x, lo, hi), mask=mask)
    tl.store(maxnan_ptr + offs, tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL), mask=mask)
    tl.store(min_ptr + offs, tl.minimum(x, y), mask=mask)


@triton.jit
def where_int_kernel(a_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # Scalar arms with an int8 block: the weak Python ints take its type.
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0)
    r = tl.where(a < 0, -1, a) + tl.where(a > 100, 5, 0)
    tl.store(out_ptr + offs, r, mask=mask)
