# Kernels of every dtype and of Triton's elementwise ops, as Triton users
# write them, for the MLIR backend's emission tests (mlir_emit_test.cpp).
import triton
import triton.language as tl


@triton.jit
def half_ops_kernel(x_ptr, y_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.load(y_ptr + offs, mask=mask, other=1.0)
    z = x * y + scale
    z = tl.maximum(z, x, propagate_nan=tl.PropagateNan.NONE)
    z = tl.minimum(z, y, propagate_nan=tl.PropagateNan.ALL)
    w = tl.fma(x, y, z)
    tl.store(out_ptr + offs, w, mask=mask)


@triton.jit
def cast_kernel(x_ptr, i8_ptr, u8_ptr, i64_ptr, f16_ptr, bf16_ptr, f64_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(i8_ptr + offs, x.to(tl.int8), mask=mask)
    tl.store(u8_ptr + offs, x.to(tl.uint8), mask=mask)
    tl.store(i64_ptr + offs, x.to(tl.int64), mask=mask)
    tl.store(f16_ptr + offs, x.to(tl.float16), mask=mask)
    tl.store(bf16_ptr + offs, tl.cast(x, tl.bfloat16, fp_downcast_rounding="rtz"), mask=mask)
    tl.store(f64_ptr + offs, x.to(tl.float64) * 2.5, mask=mask)


@triton.jit
def int_ops_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=1)
    b = tl.load(b_ptr + offs, mask=mask, other=1)
    r = (a << 3) ^ (b >> 1)
    r = r + a // b + a % b
    r = r + tl.umulhi(a, b) + tl.abs(a) - tl.num_programs(0)
    r = tl.where(r > 0, r, -r)
    r = tl.multiple_of(r, 1)
    tl.store(out_ptr + offs, r, mask=mask)


@triton.jit
def unsigned_ops_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=1)
    b = tl.load(b_ptr + offs, mask=mask, other=1)
    r = (a >> b) + a // b + a % b
    r = tl.where(a < r, tl.maximum(a, r), tl.minimum(a, r))
    tl.store(out_ptr + offs, r.to(tl.uint64), mask=mask)


@triton.jit
def math_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    y = tl.exp2(x) + tl.log(x) + tl.log2(x) + tl.sqrt(x) + tl.math.sqrt_rn(x) + tl.rsqrt(x)
    y = y + tl.sin(x) + tl.cos(x) + tl.erf(x) + tl.floor(x) + tl.ceil(x) + tl.abs(x)
    y = y + tl.math.div_rn(x, 3.0) + x % 2.0 + tl.sigmoid(x)
    tl.store(out_ptr + offs, y, mask=mask)


@triton.jit
def math64_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    y = tl.exp2(x) + tl.log(x) + tl.sqrt(x) * tl.erf(x) + tl.floor(x) / 3.0 + x % 2.0
    tl.store(out_ptr + offs, y.to(tl.float32, fp_downcast_rounding="rtz"), mask=mask)


@triton.jit
def fp8_kernel(x_ptr, e4_ptr, e5_ptr, back_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    a = x.to(tl.float8e4nv)
    b = x.to(tl.float8e5)
    tl.store(e4_ptr + offs, a, mask=mask)
    tl.store(e5_ptr + offs, b, mask=mask)
    tl.store(back_ptr + offs, a.to(tl.float32) + b.to(tl.float32), mask=mask)


@triton.jit
def bitcast_kernel(x_ptr, bits_ptr, h_ptr, hb_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(bits_ptr + offs, x.to(tl.uint32, bitcast=True), mask=mask)
    h = tl.load(h_ptr + offs, mask=mask)
    tl.store(hb_ptr + offs, h.to(tl.int16, bitcast=True), mask=mask)


@triton.jit
def reduce_kernel(x_ptr, h_ptr, u_ptr, out_ptr, hout_ptr, uout_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr, tl.sum(tl.load(x_ptr + offs)))
    h = tl.load(h_ptr + offs)
    tl.store(hout_ptr, tl.sum(h))
    tl.store(hout_ptr + 1, tl.max(h))
    u = tl.load(u_ptr + offs)
    tl.store(uout_ptr, tl.max(u))
    tl.store(uout_ptr + 1, tl.min(u))
    tl.store(uout_ptr + 2, tl.sum(u))


@triton.jit
def scalar_params_kernel(out_ptr, flag_ptr, h, b, l, u, d, c, e4, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = offs.to(tl.float32) * h + b + l + u + d
    v = tl.where(c, v, -v) + e4
    tl.store(out_ptr + offs, v)
    tl.store(flag_ptr + offs, v > 0.0)
