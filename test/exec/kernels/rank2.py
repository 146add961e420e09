# Rank-2 tiles for the execution tests: expand_dims and broadcasting (also
# of a rank-1 block against a tile), masks combined with &, a transpose,
# bias + relu, a 3-D grid, and the block factories on tiles.
import triton
import triton.language as tl


@triton.jit
def outer_kernel(a, b, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # out holds 2 planes of M x N.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    av = tl.load(a + rm, mask=rm < M, other=0.0)
    bv = tl.load(b + rn, mask=rn < N, other=0.0)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    offsets = rm[:, None] * N + rn[None, :]
    prod = av[:, None] * bv[None, :] + rm[:, None] - rn[None, :] * 0.5
    tl.store(out + offsets, prod, mask=mask)
    tl.store(out + M * N + offsets, av[:, None] + bv, mask=mask)


@triton.jit
def transpose_kernel(x, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    rn = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    mask = (rm < M) & (rn < N)
    v = tl.load(x + rm * N + rn, mask=mask, other=0.0)
    tl.store(out + rn * M + rm, v, mask=mask)


@triton.jit
def bias_relu_kernel(x, bias, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    rn = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    mask = (rm < M) & (rn < N)
    v = tl.load(x + rm * N + rn, mask=mask, other=0.0)
    bv = tl.load(bias + rn, mask=rn < N, other=0.0)
    tl.store(out + rm * N + rn, tl.maximum(v + bv, 0.0), mask=mask)


@triton.jit
def batched_affine_kernel(x, out, B, M, N, alpha, BM: tl.constexpr, BN: tl.constexpr):
    # A 3-D grid: axis 2 is the batch.
    batch = tl.program_id(2)
    rm = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    rn = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    mask = (rm < M) & (rn < N)
    offsets = batch * M * N + rm * N + rn
    v = tl.load(x + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, v * alpha + batch, mask=mask)


@triton.jit
def tile_factories_kernel(out, iout, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # tl.full / tl.zeros / tl.where on tiles; i32 tiles.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    rn = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    mask = (rm < M) & (rn < N)
    ones = tl.full((BM, BN), 1.5, tl.float32)
    zeros = tl.zeros((BM, BN), tl.int32)
    diag = tl.where(rm == rn, ones, -ones)
    tl.store(out + rm * N + rn, diag, mask=mask)
    tl.store(iout + rm * N + rn, zeros + rm * 1000 + rn, mask=mask)
