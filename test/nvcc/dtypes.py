"""Kernels over every dtype and the ops of issue 12, compiled at -O2 and by
nvcc (test/nvcc/CMakeLists.txt): warning-free CUDA, Triton's instructions."""
import triton
import triton.language as tl


@triton.jit
def affine_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # any dtype: loads, stores, constants converted to it
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1)
    tl.store(y_ptr + offs, x * 3 + 1, mask=m)


@triton.jit
def convert_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # storage-only dtypes (fp8): through f32
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0).to(tl.float32)
    tl.store(y_ptr + offs, (x * 0.5).to(y_ptr.dtype.element_ty), mask=m)


@triton.jit
def float_math_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1.0)
    y = tl.load(y_ptr + offs, mask=m, other=1.0)
    a = tl.exp(x) + tl.exp2(y) + tl.log(tl.abs(x) + 1.0) + tl.log2(tl.abs(y) + 1.0)
    b = tl.sqrt(tl.abs(x)) + tl.rsqrt(tl.abs(y) + 1.0) + tl.sin(x) * tl.cos(y) + tl.erf(x)
    c = tl.floor(x) - tl.ceil(y) + tl.fma(x, y, a) + x / (y + 3.0) + x % (y + 3.0)
    d = tl.maximum(x, y) + tl.minimum(x, y, propagate_nan=tl.PropagateNan.ALL) + tl.sigmoid(x)
    e = tl.where(x > y, x, 0.0) + tl.clamp(x, -1.0, 1.0) + tl.fdiv(x, y + 3.0)
    tl.store(out_ptr + offs, a + b + c + d + e, mask=m)


@triton.jit
def f32_exact_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1.0)
    y = tl.load(y_ptr + offs, mask=m, other=1.0)
    tl.store(out_ptr + offs, tl.div_rn(x, y + 3.0) + tl.sqrt_rn(tl.abs(x)), mask=m)


@triton.jit
def int_ops_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1)
    y = tl.load(y_ptr + offs, mask=m, other=1)
    y = tl.where(y == 0, 1, y)
    a = x // y + x % y + (x << 2) + (x >> 1) + (x ^ y) + (x & y) + (x | y) + ~x
    b = tl.maximum(x, y) - tl.minimum(x, y) + tl.abs(x) + -x
    tl.store(out_ptr + offs, a + b, mask=m)


@triton.jit
def umulhi_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1)
    y = tl.load(y_ptr + offs, mask=m, other=1)
    tl.store(out_ptr + offs, tl.umulhi(x, y), mask=m)


@triton.jit
def cast_kernel(x_ptr, i8_ptr, u8_ptr, i64_ptr, h_ptr, bf_ptr, bits_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.store(i8_ptr + offs, x.to(tl.int8), mask=m)
    tl.store(u8_ptr + offs, x.to(tl.uint8), mask=m)
    tl.store(i64_ptr + offs, x.to(tl.int64), mask=m)
    tl.store(h_ptr + offs, x.to(tl.float16), mask=m)
    tl.store(bf_ptr + offs, tl.cast(x, tl.bfloat16, fp_downcast_rounding="rtz"), mask=m)
    tl.store(bits_ptr + offs, x.to(tl.int32, bitcast=True), mask=m)


@triton.jit
def reduce_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.store(out_ptr, tl.sum(x, axis=0))
    tl.store(out_ptr + 1, tl.max(x, axis=0))
    tl.store(out_ptr + 2, tl.min(x, axis=0))


@triton.jit
def tile_kernel(x_ptr, y_ptr, M, N, stride, BM: tl.constexpr, BN: tl.constexpr):
    # a rank-2 tile, 16-byte groups along columns, Triton's hints
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    cols = tl.max_contiguous(tl.multiple_of(cols, BN), BN)
    m = (rows[:, None] < M) & (cols[None, :] < N)
    p = rows[:, None] * stride + cols[None, :]
    x = tl.load(x_ptr + p, mask=m, other=0.0)
    tl.store(y_ptr + p, x + x, mask=m)


@triton.jit
def wide_index_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # 64-bit offsets (pid.to(tl.int64)) and num_programs
    pid = tl.program_id(0).to(tl.int64)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.store(y_ptr + offs, x + tl.num_programs(0), mask=m)


@triton.jit
def carried_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # values of the pointee's dtype carried through a runtime loop
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=x_ptr.dtype.element_ty)
    for start in range(0, n, BLOCK):
        x = tl.load(x_ptr + start + offs, mask=start + offs < n, other=0)
        acc = acc + x
    tl.store(out_ptr + offs, acc)


@triton.jit
def pointer_walk_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # a carried pointer advanced by 64-bit offsets
    offs = tl.arange(0, BLOCK).to(tl.int64)
    p = x_ptr + offs
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in range(0, n):
        acc += tl.load(p).to(tl.float32)
        p += BLOCK
    tl.store(out_ptr + offs, acc)
