# Kernels whose blocks' rank-2 shapes do not broadcast together, with a
# bounding box of more than 1024 elements: -O2 spreads the box over the
# threads (emit_cuda_blocked.c), each value in the part its own shape covers.
import triton
import triton.language as tl


@triton.jit
def trans_box_kernel(X, Y, S, P, m, n, M: tl.constexpr, N: tl.constexpr):
    # a ragged (m, n) corner of an (M, N) tile, transposed (N, M); the row
    # sums of the transpose and its cumulative sum down the columns
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(X + rm[:, None] * N + rn[None, :], mask=(rm[:, None] < m) & (rn[None, :] < n),
                other=-1.0)
    y = tl.trans(x)
    ty = (rn[:, None] < n) & (rm[None, :] < m)
    tl.store(Y + rn[:, None] * M + rm[None, :], y, mask=ty)
    tl.store(S + rn, tl.sum(y, axis=1), mask=rn < n)
    tl.store(P + rn[:, None] * M + rm[None, :], tl.cumsum(y, axis=0), mask=ty)


@triton.jit
def reshape_box_kernel(X, Y, R: tl.constexpr, C: tl.constexpr, R2: tl.constexpr,
                       C2: tl.constexpr):
    # (R, C) reshaped to (R2, C2), in an expression of its own shape
    rr = tl.arange(0, R)
    rc = tl.arange(0, C)
    x = tl.load(X + rr[:, None] * C + rc[None, :])
    r2 = tl.arange(0, R2)
    c2 = tl.arange(0, C2)
    y = tl.reshape(x, (R2, C2)) * 2.0 + c2[None, :] - r2[:, None]
    tl.store(Y + r2[:, None] * C2 + c2[None, :], y)


@triton.jit
def join_split_box_kernel(Z, W, T, U, n, N: tl.constexpr):
    # (N, 2) pairs split and joined back swapped (a ragged n of them), next
    # to a (2, 4) block transposed: the box is (N, 4)
    o = tl.arange(0, N)
    t2 = tl.arange(0, 2)
    z = tl.load(Z + o[:, None] * 2 + t2[None, :], mask=o[:, None] < n, other=0.0)
    re, im = tl.split(z)
    w = tl.join(im * 2.0, re + 1.0)
    tl.store(W + o[:, None] * 2 + t2[None, :], w, mask=o[:, None] < n)
    t4 = tl.arange(0, 4)
    t = tl.load(T + t2[:, None] * 4 + t4[None, :])
    tl.store(U + t4[:, None] * 2 + t2[None, :], tl.trans(t))


@triton.jit
def row_pairs_box_kernel(X, Y, B: tl.constexpr):
    # one row of B: reshaped to (1, B // 2, 2) and split, and joined with
    # its triple and reshaped to (1, 2 B): the box is (B, 2 B), its rows'
    # index a block of one element (held by every thread)
    i = tl.arange(0, 1)[:, None]
    j = tl.arange(0, B)[None, :]
    x = tl.load(X + i * B + j)
    p, q = tl.split(tl.reshape(x, (1, B // 2, 2)))
    tl.store(Y + i * (B // 2) + tl.arange(0, B // 2)[None, :], p * 2.0 + q)
    w = tl.reshape(tl.join(x, x * 3.0), (1, 2 * B))
    tl.store(Y + B // 2 + i * (2 * B) + tl.arange(0, 2 * B)[None, :], w)
