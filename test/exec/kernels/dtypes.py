# Kernels of every dtype for the execution tests (dtypes_test.cpp), written
# as Triton users write them: one source compiled for several signatures.
import triton
import triton.language as tl


@triton.jit
def arith_kernel(x_ptr, y_ptr, out_ptr, s, n, BLOCK: tl.constexpr):
    # out holds 9 planes of n elements of x's dtype.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=1)
    y = tl.load(y_ptr + offs, mask=mask, other=2)
    tl.store(out_ptr + offs, x + y, mask=mask)
    tl.store(out_ptr + n + offs, x - y, mask=mask)
    tl.store(out_ptr + 2 * n + offs, x * y, mask=mask)
    tl.store(out_ptr + 3 * n + offs, -x, mask=mask)
    tl.store(out_ptr + 4 * n + offs, tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL), mask=mask)
    tl.store(out_ptr + 5 * n + offs, tl.minimum(x, y, propagate_nan=tl.PropagateNan.ALL), mask=mask)
    tl.store(out_ptr + 6 * n + offs, tl.where(x < y, x, y + s), mask=mask)
    tl.store(out_ptr + 7 * n + offs, x + 3, mask=mask)
    # masked-off elements take `other`: the plane holds x where offs is even
    z = tl.load(x_ptr + offs, mask=mask & (offs % 2 == 0), other=5)
    tl.store(out_ptr + 8 * n + offs, z, mask=mask)


@triton.jit
def compare_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # out (int8) holds 6 planes: < <= > >= == !=.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, (x < y).to(tl.int8), mask=mask)
    tl.store(out_ptr + n + offs, (x <= y).to(tl.int8), mask=mask)
    tl.store(out_ptr + 2 * n + offs, (x > y).to(tl.int8), mask=mask)
    tl.store(out_ptr + 3 * n + offs, (x >= y).to(tl.int8), mask=mask)
    tl.store(out_ptr + 4 * n + offs, (x == y).to(tl.int8), mask=mask)
    tl.store(out_ptr + 5 * n + offs, (x != y).to(tl.int8), mask=mask)


@triton.jit
def int_ops_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # out holds 10 planes: // % << >> & | ^ ~ abs, and (x // y) * y + x % y.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask, other=1)
    tl.store(out_ptr + offs, x // y, mask=mask)
    tl.store(out_ptr + n + offs, x % y, mask=mask)
    tl.store(out_ptr + 2 * n + offs, x << (y & 7), mask=mask)
    tl.store(out_ptr + 3 * n + offs, x >> (y & 7), mask=mask)
    tl.store(out_ptr + 4 * n + offs, x & y, mask=mask)
    tl.store(out_ptr + 5 * n + offs, x | y, mask=mask)
    tl.store(out_ptr + 6 * n + offs, x ^ y, mask=mask)
    tl.store(out_ptr + 7 * n + offs, ~x, mask=mask)
    tl.store(out_ptr + 8 * n + offs, tl.abs(x), mask=mask)
    tl.store(out_ptr + 9 * n + offs, (x // y) * y + x % y, mask=mask)


@triton.jit
def _to(x, dt: tl.constexpr):
    # Triton has no cast between integers and fp8: those go through float32,
    # which holds every fp8 value, and every integer an fp8 type does not
    # saturate, exactly (float64 would turn a NaN into the smallest integer:
    # the GPU's cvt.rzi of an f64 NaN).
    if (x.dtype.is_int() and dt.is_fp8()) or (x.dtype.is_fp8() and dt.is_int()):
        return x.to(tl.float32).to(dt)
    return x.to(dt)


@triton.jit
def cast_kernel(x_ptr, b_ptr, i8_ptr, i16_ptr, i32_ptr, i64_ptr, u8_ptr, u16_ptr, u32_ptr, u64_ptr,
                f16_ptr, bf16_ptr, f32_ptr, f64_ptr, f8e4_ptr, f8e5_ptr, n, BLOCK: tl.constexpr):
    # x converted to every dtype.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(b_ptr + offs, _to(x, tl.int1), mask=mask)
    tl.store(i8_ptr + offs, _to(x, tl.int8), mask=mask)
    tl.store(i16_ptr + offs, _to(x, tl.int16), mask=mask)
    tl.store(i32_ptr + offs, _to(x, tl.int32), mask=mask)
    tl.store(i64_ptr + offs, _to(x, tl.int64), mask=mask)
    tl.store(u8_ptr + offs, _to(x, tl.uint8), mask=mask)
    tl.store(u16_ptr + offs, _to(x, tl.uint16), mask=mask)
    tl.store(u32_ptr + offs, _to(x, tl.uint32), mask=mask)
    tl.store(u64_ptr + offs, _to(x, tl.uint64), mask=mask)
    tl.store(f16_ptr + offs, _to(x, tl.float16), mask=mask)
    tl.store(bf16_ptr + offs, _to(x, tl.bfloat16), mask=mask)
    tl.store(f32_ptr + offs, _to(x, tl.float32), mask=mask)
    tl.store(f64_ptr + offs, _to(x, tl.float64), mask=mask)
    tl.store(f8e4_ptr + offs, _to(x, tl.float8e4nv), mask=mask)
    tl.store(f8e5_ptr + offs, _to(x, tl.float8e5), mask=mask)


@triton.jit
def math_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # out holds 16 planes of float math.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.exp(x), mask=mask)
    tl.store(out_ptr + n + offs, tl.exp2(x), mask=mask)
    tl.store(out_ptr + 2 * n + offs, tl.log(x), mask=mask)
    tl.store(out_ptr + 3 * n + offs, tl.log2(x), mask=mask)
    tl.store(out_ptr + 4 * n + offs, tl.sqrt(x), mask=mask)
    tl.store(out_ptr + 5 * n + offs, tl.rsqrt(x), mask=mask)
    tl.store(out_ptr + 6 * n + offs, tl.sin(x), mask=mask)
    tl.store(out_ptr + 7 * n + offs, tl.cos(x), mask=mask)
    tl.store(out_ptr + 8 * n + offs, tl.erf(x), mask=mask)
    tl.store(out_ptr + 9 * n + offs, tl.floor(x), mask=mask)
    tl.store(out_ptr + 10 * n + offs, tl.ceil(x), mask=mask)
    tl.store(out_ptr + 11 * n + offs, tl.abs(x), mask=mask)
    tl.store(out_ptr + 12 * n + offs, tl.fma(x, y, x), mask=mask)
    tl.store(out_ptr + 13 * n + offs, x / y, mask=mask)
    tl.store(out_ptr + 14 * n + offs, x % y, mask=mask)
    tl.store(out_ptr + 15 * n + offs, tl.sigmoid(x), mask=mask)


@triton.jit
def nan_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # maximum / minimum with NaN propagated and ignored; sqrt_rn and div_rn
    # (f32 only). out holds 6 planes.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL), mask=mask)
    tl.store(out_ptr + n + offs, tl.minimum(x, y, propagate_nan=tl.PropagateNan.ALL), mask=mask)
    tl.store(out_ptr + 2 * n + offs, tl.maximum(x, y, propagate_nan=tl.PropagateNan.NONE), mask=mask)
    tl.store(out_ptr + 3 * n + offs, tl.minimum(x, y, propagate_nan=tl.PropagateNan.NONE), mask=mask)
    tl.store(out_ptr + 4 * n + offs, tl.sqrt_rn(x), mask=mask)
    tl.store(out_ptr + 5 * n + offs, tl.div_rn(x, y), mask=mask)


@triton.jit
def reduce_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # One row of BLOCK per program: its sum, max and min (masked-off
    # elements are 0 for the sum, x's first element for max and min).
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + row * n + offs, mask=mask, other=0)
    first = tl.load(x_ptr + row * n)
    xm = tl.where(mask, x, first)
    tl.store(out_ptr + row * 3, tl.sum(x, axis=0))
    tl.store(out_ptr + row * 3 + 1, tl.max(xm, axis=0))
    tl.store(out_ptr + row * 3 + 2, tl.min(xm, axis=0))


@triton.jit
def misc_kernel(x_ptr, out_ptr, bits_ptr, n, BLOCK: tl.constexpr):
    # tl.cdiv, tl.num_programs, bitcasts, umulhi and 64-bit offsets.
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    u = x.to(tl.uint32, bitcast=True)
    tl.store(bits_ptr + offs, u, mask=mask)
    tl.store(bits_ptr + n + offs, (u ^ 0x80000000).to(tl.float32, bitcast=True).to(tl.uint32, bitcast=True), mask=mask)
    tl.store(bits_ptr + 2 * n + offs, tl.umulhi(u, u + 12345), mask=mask)
    tl.store(out_ptr + pid * 2, tl.num_programs(0))
    tl.store(out_ptr + pid * 2 + 1, tl.cdiv(n, BLOCK) + tl.cdiv(n - pid, 7))
