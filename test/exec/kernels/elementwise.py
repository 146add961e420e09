# Rank-1 elementwise kernels for the execution tests: every arithmetic op
# on f32 and on i32 (wrapping), comparisons, masks, conversions and the
# block factories.
import triton
import triton.language as tl


@triton.jit
def f32_ops_kernel(x, y, out, n, s, BLOCK: tl.constexpr):
    # out holds 10 planes of n elements.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(x + offs, mask=mask, other=1.0)
    b = tl.load(y + offs, mask=mask, other=2.0)
    tl.store(out + offs, a + b, mask=mask)
    tl.store(out + n + offs, a - b, mask=mask)
    tl.store(out + 2 * n + offs, a * b, mask=mask)
    tl.store(out + 3 * n + offs, a / b, mask=mask)
    tl.store(out + 4 * n + offs, -a, mask=mask)
    tl.store(out + 5 * n + offs, tl.maximum(a, b), mask=mask)
    tl.store(out + 6 * n + offs, tl.minimum(a, b), mask=mask)
    tl.store(out + 7 * n + offs, tl.exp(a), mask=mask)
    tl.store(out + 8 * n + offs, tl.where(a < b, a - s, b + s), mask=mask)
    tl.store(out + 9 * n + offs, +a - s / 4.0, mask=mask)


@triton.jit
def compare_kernel(x, y, out, n, BLOCK: tl.constexpr):
    # out (i32) holds 8 planes: <, <=, >, >=, ==, !=, & and | of comparisons.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(x + offs, mask=mask, other=0.0)
    b = tl.load(y + offs, mask=mask, other=0.0)
    tl.store(out + offs, tl.where(a < b, 1, 0), mask=mask)
    tl.store(out + n + offs, tl.where(a <= b, 1, 0), mask=mask)
    tl.store(out + 2 * n + offs, tl.where(a > b, 1, 0), mask=mask)
    tl.store(out + 3 * n + offs, tl.where(a >= b, 1, 0), mask=mask)
    tl.store(out + 4 * n + offs, tl.where(a == b, 1, 0), mask=mask)
    tl.store(out + 5 * n + offs, tl.where(a != b, 1, 0), mask=mask)
    tl.store(out + 6 * n + offs, tl.where((a < b) & (b < 0.5), 1, 0), mask=mask)
    tl.store(out + 7 * n + offs, tl.where((a < -1.0) | (a == b), 1, 0), mask=mask)


@triton.jit
def i32_ops_kernel(x, y, out, fout, n, k, BLOCK: tl.constexpr):
    # out (i32): 8 planes; fout (f32): 4 planes. i32 arithmetic wraps.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(x + offs, mask=mask, other=0)
    b = tl.load(y + offs, mask=mask, other=1)
    tl.store(out + offs, a + b, mask=mask)
    tl.store(out + n + offs, a - b, mask=mask)
    tl.store(out + 2 * n + offs, a * b, mask=mask)
    tl.store(out + 3 * n + offs, -a, mask=mask)
    tl.store(out + 4 * n + offs, tl.maximum(a, b), mask=mask)
    tl.store(out + 5 * n + offs, tl.minimum(a, b), mask=mask)
    tl.store(out + 6 * n + offs, tl.where(a < b, a, b * k), mask=mask)
    tl.store(out + 7 * n + offs, a * k + 7, mask=mask)
    tl.store(fout + offs, a / b, mask=mask)
    tl.store(fout + n + offs, a + 0.5, mask=mask)
    tl.store(fout + 2 * n + offs, tl.maximum(a, 0.5) + tl.minimum(b * 1.0, -0.25), mask=mask)
    tl.store(fout + 3 * n + offs, -(a / k), mask=mask)


@triton.jit
def convert_kernel(x, ix, out_i, out_f, n, v, BLOCK: tl.constexpr):
    # f32 stored through an i32 pointer truncates; i32 through f32 converts;
    # tl.full of a runtime f32 into i32; tl.full / tl.zeros of constants.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(x + offs, mask=mask, other=0.0)
    i = tl.load(ix + offs, mask=mask, other=0)
    tl.store(out_i + offs, a, mask=mask)
    tl.store(out_f + offs, i, mask=mask)
    tl.store(out_i + n + offs, tl.full((BLOCK,), v, tl.int32) + i, mask=mask)
    tl.store(out_f + n + offs, tl.full((BLOCK,), 3, tl.float32) + tl.zeros((BLOCK,), tl.float32) * a, mask=mask)
    tl.store(out_i + 2 * n + offs, tl.zeros((BLOCK,), tl.int32) - offs, mask=mask)


@triton.jit
def masked_copy_kernel(x, keep, out, n, lo, hi, BLOCK: tl.constexpr):
    # Loads only inside [lo, hi) (elsewhere -1.0); stores only where keep
    # is non-zero: the other elements of out keep their contents.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = (offs >= lo) & (offs < hi) & (offs < n)
    v = tl.load(x + offs, mask=inside, other=-1.0)
    k = tl.load(keep + offs, mask=offs < n, other=0)
    tl.store(out + offs, v, mask=(offs < n) & (k != 0))


@triton.jit
def load_other_kernel(ix, out, n, lim, fo, BLOCK: tl.constexpr):
    # A runtime f32 `other` on an i32 load: converted to i32 (truncated)
    # where the mask is off; loaded i32 values stay exact (|x| > 2^24).
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(ix + offs, mask=offs < lim, other=fo)
    tl.store(out + offs, v, mask=offs < n)
