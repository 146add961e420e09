import triton
import triton.language as tl


@triton.jit
def transpose_kernel(x, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    tile = tl.load(x + rows[:, None] * N + cols[None, :], mask=mask, other=0.0)
    tl.store(out + cols[None, :] * M + rows[:, None], tile, mask=mask)


@triton.jit
def bias_relu_kernel(x, bias, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    b = tl.load(bias + cols, mask=cols < N, other=0.0)
    offsets = rows[:, None] * N + cols[None, :]
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    v = tl.load(x + offsets, mask=mask, other=0.0) + b[None, :]
    tl.store(out + offsets, tl.maximum(v, 0.0), mask=mask)


@triton.jit
def row_scale_kernel(x, scale, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # a rank-1 value (not an arange) used as the rows of the tile
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    s = tl.load(scale + rows, mask=rows < M, other=1.0) * 2.0
    cols = tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    offsets = rows[:, None] * N + cols[None, :]
    tl.store(out + offsets, tl.load(x + offsets, mask=mask, other=0.0) * s[:, None], mask=mask)


@triton.jit
def long_row_sum_kernel(x, out, n_cols, BLOCK: tl.constexpr, NBLOCKS: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    for b in tl.static_range(NBLOCKS):
        c = b * BLOCK + cols
        acc += tl.load(x + row * n_cols + c, mask=c < n_cols, other=0.0)
    tl.store(out + row, tl.sum(acc), mask=cols < 1)


@triton.jit
def static_k_matmul_kernel(a, b, c, M, N, BM: tl.constexpr, BN: tl.constexpr, K: tl.constexpr):
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for k in tl.static_range(0, K):
        acc += tl.load(a + offs_m * K + k, mask=offs_m < M, other=0.0) * tl.load(b + k * N + offs_n, mask=offs_n < N, other=0.0)
    tl.store(c + offs_m * N + offs_n, acc, mask=(offs_m < M) & (offs_n < N))


@triton.jit
def int_reduce_kernel(x, out, n, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    v = tl.load(x + i, mask=i < n, other=0)
    tl.store(out, tl.sum(v))
    tl.store(out + 1, tl.max(tl.where(i < n, v, -2147483647)))
    tl.store(out + 2, tl.min(tl.where(i < n, v, 2147483647)))


@triton.jit
def carried_vector_kernel(x, out, n, BLOCK: tl.constexpr):
    # a block and a scalar carried together, rank-1 loop body with a reduction
    lanes = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    total = 0.0
    for i in range(n):
        v = tl.load(x + i * BLOCK + lanes)
        acc = tl.maximum(acc, v)
        total += tl.sum(v)
    tl.store(out + lanes, acc + total)


@triton.jit
def col_sum_kernel(x, out, M, N, BN: tl.constexpr):
    # a runtime loop over the rows accumulating BN columns
    cols = tl.program_id(0) * BN + tl.arange(0, BN)
    mask = cols < N
    acc = tl.zeros((BN,), tl.float32)
    for m in range(0, M):
        acc += tl.load(x + m * N + cols, mask=mask, other=0.0)
    tl.store(out + cols, acc, mask=mask)
