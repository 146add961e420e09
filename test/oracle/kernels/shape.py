# Shape ops (issue 13) against Triton 3.6: trans, .T, permute, reshape,
# ravel, join, split, broadcast_to, broadcast, expand_dims.
import triton
import triton.language as tl


@triton.jit
def trans_tile_kernel(x_ptr, y_ptr, M, N, B: tl.constexpr):
    # y (N x M) = x (M x N) transposed, one (B, B) tile per program
    rm = tl.program_id(0) * B + tl.arange(0, B)[:, None]
    rn = tl.program_id(1) * B + tl.arange(0, B)[None, :]
    x = tl.load(x_ptr + rm * N + rn, mask=(rm < M) & (rn < N), other=0.0)
    cn = tl.program_id(1) * B + tl.arange(0, B)[:, None]
    cm = tl.program_id(0) * B + tl.arange(0, B)[None, :]
    tl.store(y_ptr + cn * M + cm, tl.trans(x), mask=(cn < N) & (cm < M))


@triton.jit
def trans_expr_kernel(x_ptr, y_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    x = tl.load(x_ptr + r[:, None] * B + r[None, :])
    y = x.T * 2.0 + x - tl.permute(x, (1, 0)) * 0.5
    tl.store(y_ptr + r[:, None] * B + r[None, :], y)


@triton.jit
def reshape_rows_kernel(x_ptr, y_ptr, z_ptr, R: tl.constexpr, C: tl.constexpr):
    # a flat block of R*C elements per program as (R, C) rows, and back
    base = tl.program_id(0) * R * C
    x = tl.load(x_ptr + base + tl.arange(0, R * C))
    m = tl.reshape(x, (R, C)) + tl.arange(0, R)[:, None] * 1000.0
    tl.store(y_ptr + base + tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :], m)
    tl.store(z_ptr + base + tl.arange(0, R * C), tl.ravel(m) - x)


@triton.jit
def join_kernel(re_ptr, im_ptr, z_ptr, n, BLOCK: tl.constexpr):
    # interleave complex numbers as (re, im) pairs
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    re = tl.load(re_ptr + o, mask=o < n, other=0.0)
    im = tl.load(im_ptr + o, mask=o < n, other=0.0)
    z = tl.join(re, im)
    tl.store(z_ptr + (o * 2)[:, None] + tl.arange(0, 2)[None, :], z, mask=(o < n)[:, None])


@triton.jit
def split_kernel(z_ptr, re_ptr, im_ptr, mix_ptr, n, BLOCK: tl.constexpr):
    # deinterleave (re, im) pairs
    o = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    z = tl.load(z_ptr + (o * 2)[:, None] + tl.arange(0, 2)[None, :], mask=(o < n)[:, None], other=0.0)
    re, im = tl.split(z)
    tl.store(re_ptr + o, re, mask=o < n)
    tl.store(im_ptr + o, im, mask=o < n)
    tl.store(mix_ptr + o, re * 2.0 - im, mask=o < n)


@triton.jit
def broadcast_kernel(x_ptr, y_ptr, R: tl.constexpr, C: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, C))
    rows = tl.broadcast_to(x[None, :], (R, C))
    col = tl.expand_dims(tl.arange(0, R), -1).to(tl.float32) * 100.0
    a, b = tl.broadcast(rows, col)
    i = tl.expand_dims(tl.arange(0, R), axis=1)
    j = tl.expand_dims(tl.arange(0, C), (0,))
    tl.store(y_ptr + i * C + j, a + b)
