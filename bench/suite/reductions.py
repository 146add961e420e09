# Reductions of the benchmark suite: row reductions (one program per row,
# a rank-1 block over the columns) and column reductions (one program per
# BLOCK_N columns, a runtime loop over the rows accumulating a rank-1 block),
# and a long row reduced in BLOCK_SIZE chunks by a runtime loop.
import triton
import triton.language as tl


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, n_cols, stride_xm, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + row * stride_xm + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
    tl.store(out_ptr + row, tl.sum(x, axis=0))


@triton.jit
def row_max_kernel(x_ptr, out_ptr, n_cols, stride_xm, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + row * stride_xm + cols, mask=cols < n_cols, other=float("-inf"))
    tl.store(out_ptr + row, tl.max(x, axis=0))


@triton.jit
def row_l2norm_kernel(x_ptr, out_ptr, n_cols, stride_xm, BLOCK_SIZE: tl.constexpr):
    # out[row] = sqrt(sum(x[row, :]^2)), in fp32 from a 16-bit input.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + row * stride_xm + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
    tl.store(out_ptr + row, tl.sqrt(tl.sum(x * x, axis=0)))


@triton.jit
def col_sum_kernel(x_ptr, out_ptr, M, N, stride_xm, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < N
    acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for m in range(0, M):
        acc += tl.load(x_ptr + m * stride_xm + cols, mask=mask, other=0.0)
    tl.store(out_ptr + cols, acc, mask=mask)


@triton.jit
def col_max_kernel(x_ptr, out_ptr, M, N, stride_xm, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < N
    acc = tl.full((BLOCK_N,), float("-inf"), dtype=tl.float32)
    for m in range(0, M):
        x = tl.load(x_ptr + m * stride_xm + cols, mask=mask, other=float("-inf")).to(tl.float32)
        acc = tl.maximum(acc, x)
    tl.store(out_ptr + cols, acc.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def long_row_sum_kernel(x_ptr, out_ptr, n_cols, stride_xm, BLOCK_SIZE: tl.constexpr):
    # One program per row of any length: a runtime loop over BLOCK_SIZE chunks.
    row = tl.program_id(0)
    x_ptr += row * stride_xm
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        acc += tl.load(x_ptr + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))
