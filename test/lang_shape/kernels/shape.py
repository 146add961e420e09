# Shape ops (issue 13): kernels of test/lang_shape (host, CUDA -O1/-O2).
import triton
import triton.language as tl


@triton.jit
def trans_tile_kernel(X, Y, B: tl.constexpr):
    # load a (B, B) tile, store its transpose through tl.trans
    r = tl.arange(0, B)
    x = tl.load(X + r[:, None] * B + r[None, :])
    tl.store(Y + r[:, None] * B + r[None, :], tl.trans(x))


@triton.jit
def trans_expr_kernel(X, Y, B: tl.constexpr):
    # .T and x.trans() inside an expression, and tl.permute
    r = tl.arange(0, B)
    x = tl.load(X + r[:, None] * B + r[None, :])
    y = x.T * 2.0 + x - tl.permute(x, (1, 0)) + tl.permute(x, 1, 0) * 0.5 - x.trans(1, 0)
    tl.store(Y + r[:, None] * B + r[None, :], y)


@triton.jit
def reshape_kernel(Y, R: tl.constexpr, C: tl.constexpr):
    # an arange reshaped to (R, C) and back (row-major)
    a = tl.arange(0, R * C)
    m = tl.reshape(a, (R, C))
    i = tl.arange(0, R)[:, None]
    j = tl.arange(0, C)[None, :]
    tl.store(Y + i * C + j, m * 10 + i)
    back = m.reshape(R * C) + tl.ravel(m * 0) + tl.view(m, R * C) * 0
    tl.store(Y + R * C + a, back + 1)


@triton.jit
def join_kernel(RE, IM, Z, N: tl.constexpr):
    # interleave: complex numbers stored as (re, im) pairs
    o = tl.arange(0, N)
    z = tl.join(tl.load(RE + o), tl.load(IM + o))
    tl.store(Z + o[:, None] * 2 + tl.arange(0, 2)[None, :], z)


@triton.jit
def split_kernel(Z, RE, IM, N: tl.constexpr):
    # deinterleave (re, im) pairs; the magnitude squared in RE + N
    o = tl.arange(0, N)
    z = tl.load(Z + o[:, None] * 2 + tl.arange(0, 2)[None, :])
    re, im = tl.split(z)
    tl.store(RE + o, re)
    tl.store(IM + o, im)
    tl.store(RE + N + o, re * re + im * im)


@triton.jit
def interleave_kernel(A, B, Z, W, N: tl.constexpr):
    # tl.interleave, then its inverse: a reshape to (N, 2) and tl.split
    o = tl.arange(0, N)
    z = tl.interleave(tl.load(A + o), tl.load(B + o) * 2.0)
    tl.store(Z + tl.arange(0, 2 * N), z)
    lo, hi = tl.split(tl.reshape(z, (N, 2)))
    tl.store(W + o, hi - lo)


@triton.jit
def cat_kernel(X, Y, Z, S, N: tl.constexpr):
    # tl.cat of two (N,) blocks (Triton leaves the order open: stored, and
    # its maximum and sum of squares)
    o = tl.arange(0, N)
    c = tl.cat(tl.load(X + o), tl.load(Y + o), can_reorder=True)
    tl.store(Z + tl.arange(0, 2 * N), c)
    tl.store(S, tl.max(c, 0))
    tl.store(S + 1, tl.sum(c * c, 0))


@triton.jit
def swizzle_kernel(OUT, M, N, G: tl.constexpr):
    # tl.swizzle2d of each program's (row, column) of an M x N grid; a
    # compile-time one in the high digits
    pid = tl.program_id(0)
    i, j = tl.swizzle2d(pid // N, pid % N, M, N, G)
    a, b = tl.swizzle2d(5, 3, 7, 4, 3)
    tl.store(OUT + pid * 2, i + a * 1000)
    tl.store(OUT + pid * 2 + 1, j + b * 1000)


@triton.jit
def broadcast_kernel(X, Y, R: tl.constexpr, C: tl.constexpr):
    # broadcast_to, broadcast and expand_dims with negative axes
    x = tl.load(X + tl.arange(0, C))
    rows = tl.broadcast_to(x[None, :], (R, C))
    col = tl.expand_dims(tl.arange(0, R), -1) * 100
    a, b = tl.broadcast(rows, col)
    i = tl.expand_dims(tl.arange(0, R), axis=1)
    j = tl.expand_dims(tl.arange(0, C), (0,))
    tl.store(Y + i * C + j, a + b + tl.broadcast_to(3, R, C))



@triton.jit
def broadcast_ptr_kernel(X, Y, R: tl.constexpr, C: tl.constexpr):
    # blocks of pointers broadcast: a (R, 1) block and a scalar pointer by
    # tl.broadcast_to, two blocks by tl.broadcast
    i = tl.arange(0, R)[:, None]
    j = tl.arange(0, C)[None, :]
    rows = tl.broadcast_to(X + i, (R, C))
    cols, starts = tl.broadcast(X + R + j, Y + i * C)
    first = tl.broadcast_to(X, (R, C))
    tl.store(starts + j, tl.load(rows) * 2 + tl.load(cols) - tl.load(first) * 0.5)


@triton.jit
def loop_kernel(X, Y, n, B: tl.constexpr):
    # shape ops in a runtime loop (the exchange buffers are reused): the
    # sum over k of (k + 1) * X_k transposed, and of X_k raveled
    r = tl.arange(0, B)
    acc = tl.zeros((B, B), dtype=tl.float32)
    flat = tl.zeros((B * B,), dtype=tl.float32)
    for k in range(0, n):
        x = tl.load(X + k * B * B + r[:, None] * B + r[None, :])
        acc += tl.trans(x) * (k + 1)
        flat += tl.ravel(x) * (k + 1)
    tl.store(Y + r[:, None] * B + r[None, :], acc)
    tl.store(Y + B * B + tl.arange(0, B * B), flat)


@triton.jit
def loop_pairs_kernel(Z, Y, n, N: tl.constexpr):
    # split and join in a runtime loop: the pairs of every Z_k swapped, summed
    o = tl.arange(0, N)
    acc = tl.zeros((N, 2), dtype=tl.float32)
    for k in range(0, n):
        z = tl.load(Z + k * 2 * N + o[:, None] * 2 + tl.arange(0, 2)[None, :])
        re, im = tl.split(z)
        acc += tl.join(im, re)
    tl.store(Y + o[:, None] * 2 + tl.arange(0, 2)[None, :], acc)


@triton.jit
def trans_rect_kernel(X, Y, Z, R, M: tl.constexpr, N: tl.constexpr):
    # a (M, N) tile with M != N: its transpose (N, M) in an expression and a
    # row reduction of it, and a reshape to (N, M) (the blocks' shapes do not
    # broadcast: the CUDA tile is their bounding box)
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    x = tl.load(X + rm[:, None] * N + rn[None, :])
    y = tl.trans(x) * 2.0 + 1.0
    tl.store(Y + rn[:, None] * M + rm[None, :], y)
    tl.store(Z + rn, tl.sum(y, axis=1))
    r = tl.reshape(x, (N, M))
    tl.store(R + rn[:, None] * M + rm[None, :], r)


@triton.jit
def both_ways_kernel(X, Y, N: tl.constexpr):
    # one index block used as the rows and as the columns of the tile (the
    # compiler copies its computation per orientation): a transposed copy
    idx = tl.program_id(0) * N + tl.arange(0, N) + 1
    x = tl.load(X + (idx[:, None] - 1) * N + (idx[None, :] - 1))
    tl.store(Y + (idx[None, :] - 1) * N + (idx[:, None] - 1), x * 2.0 + idx[None, :])


@triton.jit
def shared_index_kernel(X, Y, N: tl.constexpr):
    # two index blocks, one used as the rows and one as the columns, that
    # share a subexpression (an arange cast to int64, as a library's i64
    # program id makes it): a transposed copy plus the column index
    idx = tl.arange(0, N).to(tl.int64)
    rm = tl.program_id(0).to(tl.int64) * N + idx
    rn = idx % N
    x = tl.load(X + rm[:, None] * N + rn[None, :])
    tl.store(Y + rn[None, :] * N + rm[:, None], x * 2.0 + rn[None, :])


@triton.jit
def sort_kernel(X, A, D, F, G, R: tl.constexpr, C: tl.constexpr):
    # tl.sort along the rows of an (R, C) tile, ascending and descending
    # (Triton's bitonic network: NaN and -0.0 as Triton), and tl.flip
    # along each axis
    rr = tl.arange(0, R)
    rc = tl.arange(0, C)
    offs = rr[:, None] * C + rc[None, :]
    x = tl.load(X + offs)
    tl.store(A + offs, tl.sort(x))
    tl.store(D + offs, tl.sort(x, descending=True))
    tl.store(F + offs, tl.flip(x, 1))
    tl.store(G + offs, x.flip(0))


@triton.jit
def sort_vec_kernel(X, A, I, J, K, N: tl.constexpr):
    # rank 1: a descending sort of floats, an ascending sort of integers
    # read back flipped (dim=None: the last), and a flip of the sort
    o = tl.arange(0, N)
    tl.store(A + o, tl.sort(tl.load(X + o), dim=0, descending=True))
    i = tl.load(I + o)
    s = tl.sort(i)
    tl.store(J + o, s)
    tl.store(K + o, tl.flip(s, 0) + 1)


@triton.jit
def gather_kernel(X, I, J, K, OUT_ROWS, OUT_COLS, OUT_ONE, OUT_VEC,
                  R: tl.constexpr, C: tl.constexpr, R2: tl.constexpr, C2: tl.constexpr):
    # tl.gather along both axes of an (R, C) block and of a vector: the
    # result has the index's shape, (R2, C) along axis 0 and (R, C2) along
    # axis 1, an index of the form flash-linear-attention writes ((1, C)
    # full of one row), and a rank-1 gather of i16 indexes
    rows = tl.arange(0, R)[:, None]
    cols = tl.arange(0, C)[None, :]
    x = tl.load(X + rows * C + cols)
    r2 = tl.arange(0, R2)[:, None]
    i = tl.load(I + r2 * C + cols)
    tl.store(OUT_ROWS + r2 * C + cols, tl.gather(x, i, axis=0))
    c2 = tl.arange(0, C2)[None, :]
    j = tl.load(J + rows * C2 + c2)
    tl.store(OUT_COLS + rows * C2 + c2, x.gather(j, 1))
    one = tl.gather(x, tl.full([1, C], R // 2 - 1, dtype=tl.int16), axis=0)
    tl.store(OUT_ONE + cols, one * 2.0)
    v = tl.load(X + tl.arange(0, C))
    k = tl.load(K + tl.arange(0, R2))
    tl.store(OUT_VEC + tl.arange(0, R2), tl.gather(v, k, 0) + 1.0)


@triton.jit
def ptr_shape_kernel(X, Y, R: tl.constexpr, C: tl.constexpr):
    # blocks of pointers through the shape ops (issue 51): a rank-1 block
    # of row starts indexed [:, None] (flash-attention's `ptrs[:, None]`),
    # tl.expand_dims of column pointers with a hint on the way,
    # tl.broadcast_to, a transpose and back, tl.reshape and tl.view of a
    # flat block, and tl.permute; each reads X[i * C + j] into slice k of Y
    r = tl.arange(0, R)
    c = tl.arange(0, C)
    out = Y + r[:, None] * C + c[None, :]
    rows = X + r * C
    tl.store(out, tl.load(rows[:, None] + c[None, :]))
    cols = tl.max_contiguous(tl.multiple_of(X + c, C), C)
    tl.store(out + R * C, tl.load(tl.expand_dims(cols, 0) + (r * C)[:, None]))
    wide = tl.broadcast_to(rows[:, None], (R, C)) + c[None, :]
    tl.store(out + 2 * R * C, tl.load(wide))
    t = tl.trans(X + r[:, None] * C + c[None, :])
    tl.store(out + 3 * R * C, tl.load(tl.trans(t)))
    flat = X + tl.arange(0, R * C)
    tl.store(out + 4 * R * C, tl.load(tl.reshape(flat, (R, C))))
    tl.store(out + 5 * R * C, tl.load(flat.view(R, C)) + 1.0)
    p = tl.permute(X + c[:, None] + r[None, :] * C, (1, 0))
    tl.store(out + 6 * R * C, tl.load(p) * 2.0)


@triton.jit
def ptr_where_kernel(X, Y, Z, W, flag, N: tl.constexpr):
    # tl.where between pointers (issue 51): a scalar condition between two
    # parameters then offset, a block condition over one base, a scalar
    # condition between two offset blocks of different bases, a choice
    # indexed [:, None] and a store through a chosen pointer
    o = tl.arange(0, N)
    p = tl.where(flag > 0, X, Y)
    a = tl.load(p + o)
    tl.store(Z + o, a)
    q = tl.where(o < N // 2, X + o, X + (N - 1 - o))
    tl.store(Z + N + o, tl.load(q))
    s = tl.where(flag > 0, X + o, Y + 2 * o)
    tl.store(Z + 2 * N + o, tl.load(s))
    w = tl.where(o < N // 4, X + o, X + 2 * o)
    two = tl.arange(0, 2)
    tl.store(Z + 3 * N + o[:, None] * 2 + two[None, :], tl.load(w[:, None] + two[None, :]))
    tl.store(tl.where(flag > 0, Z + 5 * N, W) + o, a + 1.0)


@triton.jit
def ptr_trans_kernel(X, Y, M: tl.constexpr, N: tl.constexpr):
    # a rectangular transpose of a block of pointers (issue 51): Y (N, M)
    # is X (M, N) transposed, read through the transposed pointers
    r = tl.arange(0, M)
    c = tl.arange(0, N)
    t = tl.trans(X + r[:, None] * N + c[None, :])
    tl.store(Y + c[:, None] * M + r[None, :], tl.load(t))
