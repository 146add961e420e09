# Reductions for the execution tests: tl.sum / tl.max / tl.min of f32 and
# i32 rows (masked, padded with the identity), a long row summed over
# several blocks with tl.static_range, and reductions inside a loop.
import triton
import triton.language as tl


@triton.jit
def reduce_f32_kernel(x, out, n_rows, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    base = x + row * n_cols
    total = tl.sum(tl.load(base + cols, mask=mask, other=0.0))
    biggest = tl.max(tl.load(base + cols, mask=mask, other=float("-inf")))
    smallest = tl.min(tl.load(base + cols, mask=mask, other=float("inf")))
    tl.store(out + row * 3, total)
    tl.store(out + row * 3 + 1, biggest)
    tl.store(out + row * 3 + 2, smallest)


@triton.jit
def reduce_i32_kernel(x, out, n_rows, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v_sum = tl.load(x + row * n_cols + cols, mask=mask, other=0)
    v_max = tl.load(x + row * n_cols + cols, mask=mask, other=-2147483648)
    v_min = tl.load(x + row * n_cols + cols, mask=mask, other=2147483647)
    tl.store(out + row * 3 + 0, tl.sum(v_sum))
    tl.store(out + row * 3 + 1, tl.max(v_max))
    tl.store(out + row * 3 + 2, tl.min(v_min))


@triton.jit
def long_row_sum_kernel(x, out, n_rows, n_cols, BLOCK: tl.constexpr, NBLOCKS: tl.constexpr):
    # One program per row of up to BLOCK * NBLOCKS columns: a block-wide
    # accumulator over the unrolled blocks, then one tl.sum; and the sum of
    # the per-block sums.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    partial = 0.0
    for b in tl.static_range(NBLOCKS):
        offs = b * BLOCK + cols
        v = tl.load(x + row * n_cols + offs, mask=offs < n_cols, other=0.0)
        acc += v
        partial += tl.sum(v)
    tl.store(out + row * 2, tl.sum(acc))
    tl.store(out + row * 2 + 1, partial)


@triton.jit
def loop_reduce_kernel(x, out, n_rows, BLOCK: tl.constexpr):
    # Reductions inside a runtime loop, carried as scalars.
    cols = tl.arange(0, BLOCK)
    total = 0.0
    biggest = float("-inf")
    count = 0
    for r in range(n_rows):
        v = tl.load(x + r * BLOCK + cols)
        total += tl.sum(v)
        biggest = tl.maximum(biggest, tl.max(v))
        count += tl.sum(tl.where(v > 0.0, 1, 0))
    tl.store(out, total)
    tl.store(out + 1, biggest)
    tl.store(out + 2, count)
