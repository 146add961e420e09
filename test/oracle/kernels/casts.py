import triton
import triton.language as tl


@triton.jit
def cast_to_kernel(x_ptr, h_ptr, b_ptr, i8_ptr, u8_ptr, i32_ptr, i64_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(h_ptr + offs, x.to(tl.float16), mask=mask)
    tl.store(b_ptr + offs, x.to(tl.bfloat16), mask=mask)
    tl.store(i8_ptr + offs, x.to(tl.int8), mask=mask)
    tl.store(u8_ptr + offs, x.to(tl.uint8), mask=mask)
    tl.store(i32_ptr + offs, x.to(tl.int32), mask=mask)
    tl.store(i64_ptr + offs, x.to(tl.int64), mask=mask)


@triton.jit
def fp8_store_kernel(x_ptr, e4_ptr, e5_ptr, back_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    e4 = x.to(tl.float8e4nv)
    tl.store(e4_ptr + offs, e4, mask=mask)
    tl.store(e5_ptr + offs, x.to(e5_ptr.dtype.element_ty), mask=mask)
    tl.store(back_ptr + offs, e4.to(tl.float32), mask=mask)


@triton.jit
def bitcast_kernel(x_ptr, bits_ptr, neg_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    bits = x.to(tl.int32, bitcast=True)
    tl.store(bits_ptr + offs, bits, mask=mask)
    flipped = bits ^ (-2147483647 - 1)
    tl.store(neg_ptr + offs, flipped.to(tl.float32, bitcast=True), mask=mask)


@triton.jit
def same_dtype_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # x.dtype as a compile-time value: cast y to x's type before adding.
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    y = tl.load(y_ptr + offs, mask=mask, other=0)
    z = x + y.to(x.dtype)
    tl.store(out_ptr + offs, z, mask=mask)


@triton.jit
def round_toward_zero_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, tl.cast(x, tl.float16, fp_downcast_rounding="rtz"), mask=mask)
