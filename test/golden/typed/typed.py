# Typed kernels whose -O1 SSA is checked byte for byte (typed_golden_test):
# Triton's promotion, casts and the new operators as the frontend lowers them.
import triton
import triton.language as tl


@triton.jit
def half_scale_kernel(x_ptr, y_ptr, n, scale, BLOCK: tl.constexpr):
    # fp16 data, fp32 math through explicit casts, a Python float (weak) scalar
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = x * 0.5 + scale
    z = tl.exp(y.to(tl.float32)) / (1.0 + x)
    tl.store(y_ptr + offs, z, mask=mask)


@triton.jit
def int_ops_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # 64-bit offsets, narrow integers, // % << >> ^ ~, mixed widths, min() on blocks
    pid = tl.program_id(0).to(tl.int64)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    a = (x << 2) ^ ~(x >> 1)
    b = a // 7 + a % -5
    c = min(b.to(tl.int32), n) + tl.cdiv(n, 4) * tl.num_programs(0)
    tl.store(y_ptr + offs, c, mask=mask)


@triton.jit
def mixed_kernel(a_ptr, b_ptr, out_ptr, n, ACT: tl.constexpr, BLOCK: tl.constexpr):
    # bf16 with f16 promotes to f32; u8 with a Python int; a string constexpr
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + offs, mask=mask, other=0)
    s = a + b.to(tl.float16)
    if ACT == "relu":
        s = tl.maximum(s, 0.0, propagate_nan=tl.PropagateNan.NONE)
    elif ACT == "sigmoid":
        s = tl.sigmoid(s.to(tl.float32)).to(tl.float16)
    t = tl.where(b > 3, s, -1.0)
    tl.store(out_ptr + offs, t.to(out_ptr.dtype.element_ty, fp_downcast_rounding="rtz"), mask=mask)
