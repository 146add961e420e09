# Blocks of rank 3 and 4 (issue 13): kernels of test/lang_rank (host, CUDA
# -O1/-O2, MLIR) and of the Triton oracle (test/oracle/manifest.d/rank.json).
# Inputs are small integers (as floats where the kernel computes in floats),
# so every sum is exact in any order.
import triton
import triton.language as tl


@triton.jit
def offsets3(A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    # row-major offsets of an (A, B, C) block
    a = tl.arange(0, A)[:, None, None]
    b = tl.arange(0, B)[None, :, None]
    c = tl.arange(0, C)[None, None, :]
    return a * (B * C) + b * C + c


@triton.jit
def offsets2(R: tl.constexpr, C: tl.constexpr):
    return tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]


@triton.jit
def copy3_kernel(X, Y, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    # elementwise on a rank-3 block: offsets recomputed at the fold, no exchange
    o = offsets3(A, B, C)
    x = tl.load(X + o)
    tl.store(Y + o, x * 2.0 + 1.0)


@triton.jit
def masked3_kernel(X, Y, na, nb, nc, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    # ragged masks over each axis with runtime bounds; X and Y are (na, nb, nc)
    a = tl.arange(0, A)[:, None, None]
    b = tl.arange(0, B)[None, :, None]
    c = tl.arange(0, C)[None, None, :]
    m = (a < na) & (b < nb) & (c < nc)
    o = a * (nb * nc) + b * nc + c
    x = tl.load(X + o, mask=m, other=-1.0)
    tl.store(Y + o, x + a + 10 * b + 100 * c, mask=m)


@triton.jit
def reduce3_kernel(X, S0, S1, S2, M1, I0, SA, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    # sums along each axis, max with keep_dims, argmax, the sum of all
    x = tl.load(X + offsets3(A, B, C))
    tl.store(S0 + offsets2(B, C), tl.sum(x, axis=0))
    tl.store(S1 + offsets2(A, C), tl.sum(x, axis=1))
    tl.store(S2 + offsets2(A, B), tl.sum(x, axis=2))
    m1 = tl.max(x, axis=1, keep_dims=True)
    tl.store(M1 + tl.arange(0, A)[:, None, None] * C + tl.arange(0, C)[None, None, :], m1)
    tl.store(I0 + offsets2(B, C), tl.argmax(x, axis=0))
    tl.store(SA, tl.sum(x))


@triton.jit
def softmax3_kernel(X, Y, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    # the last axis reduced, then broadcast back (x - max, divided by the sum)
    o = offsets3(A, B, C)
    x = tl.load(X + o)
    m = tl.max(x, axis=2)
    e = x - m[:, :, None]
    s = tl.sum(e, axis=2, keep_dims=True)
    tl.store(Y + o, e * 4.0 + s)


@triton.jit
def perm3_kernel(X, Y, Z, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    # permutations: Y is (C, A, B), Z is (B, A, C)
    x = tl.load(X + offsets3(A, B, C))
    tl.store(Y + offsets3(C, A, B), tl.permute(x, (2, 0, 1)))
    tl.store(Z + offsets3(B, A, C), tl.trans(x, 1, 0, 2) + 0.5)


@triton.jit
def group_kernel(X, Y, S, M: tl.constexpr, N: tl.constexpr, G: tl.constexpr):
    # groups of G along the rows of an (M, N) block: each group's largest
    # magnitude S (M, N // G), and X times its group's S
    x = tl.load(X + offsets2(M, N))
    xg = tl.reshape(x, (M, N // G, G))
    s = tl.max(tl.abs(xg), axis=2)
    tl.store(S + offsets2(M, N // G), s)
    y = xg * s[:, :, None]
    tl.store(Y + offsets2(M, N), tl.reshape(y, (M, N)))


@triton.jit
def bcast3_kernel(X, W, Y, Z, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    # an (A, 1, C) block and a (B, C) block broadcast together; broadcast_to
    # and expand_dims
    x = tl.load(X + tl.arange(0, A)[:, None, None] * C + tl.arange(0, C)[None, None, :])
    w = tl.load(W + offsets2(B, C))
    tl.store(Y + offsets3(A, B, C), x + w)
    z = tl.broadcast_to(x, (A, B, C)) * 2.0 - tl.expand_dims(w, 0)
    tl.store(Z + offsets3(A, B, C), z)


@triton.jit
def scan3_kernel(X, Y1, Y2, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    # cumsum along the middle axis and, reversed, along the last
    o = offsets3(A, B, C)
    x = tl.load(X + o)
    tl.store(Y1 + o, tl.cumsum(x, axis=1))
    tl.store(Y2 + o, tl.cumsum(x, axis=2, reverse=True))


@triton.jit
def join3_kernel(X, Y, Z, W, R: tl.constexpr, C: tl.constexpr):
    # join of two (R, C) blocks into (R, C, 2), and split back
    x = tl.load(X + offsets2(R, C))
    y = tl.load(Y + offsets2(R, C))
    j = tl.join(x, y)
    tl.store(Z + offsets3(R, C, 2), j)
    p, q = tl.split(j * 3)
    tl.store(W + offsets2(R, C), p - q)


@triton.jit
def loop3_kernel(X, Y, n, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    # a rank-3 accumulator and a rank-3 block of pointers carried by a loop
    acc = tl.zeros((A, B, C), dtype=tl.float32)
    p = X + offsets3(A, B, C)
    for k in range(0, n):
        acc += tl.load(p) * (k + 1)
        p += A * B * C
    tl.store(Y + offsets3(A, B, C), acc)


@triton.jit
def combine_max(a, b):
    return tl.maximum(a, b)


@triton.jit
def combine_add(a, b):
    return a + b


@triton.jit
def reduce_fn3_kernel(X, Y, Z, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    # tl.reduce along the middle axis, tl.associative_scan along the first
    x = tl.load(X + offsets3(A, B, C))
    tl.store(Y + offsets2(A, C), tl.reduce(x, 1, combine_max))
    tl.store(Z + offsets3(A, B, C), tl.associative_scan(x, 0, combine_add))


@triton.jit
def atomic3_kernel(X, Out, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    # every (a, b, c) added into Out[b, c]: the sums along axis 0 by atomics
    x = tl.load(X + offsets3(A, B, C))
    b = tl.arange(0, B)[None, :, None]
    c = tl.arange(0, C)[None, None, :]
    tl.atomic_add(Out + b * C + c + tl.zeros((A, B, C), dtype=tl.int32), x)


@triton.jit
def flip_sort3_kernel(X, Y, Z, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr):
    # flip along the middle axis; sort along the last
    o = offsets3(A, B, C)
    x = tl.load(X + o)
    tl.store(Y + o, tl.flip(x, 1))
    tl.store(Z + o, tl.sort(x))


@triton.jit
def rank4_kernel(X, Y, S, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr, D: tl.constexpr):
    # a rank-4 block: elementwise, and a sum along axis 1 (A, C, D)
    a = tl.arange(0, A)[:, None, None, None]
    b = tl.arange(0, B)[None, :, None, None]
    c = tl.arange(0, C)[None, None, :, None]
    d = tl.arange(0, D)[None, None, None, :]
    x = tl.load(X + ((a * B + b) * C + c) * D + d)
    tl.store(Y + ((a * B + b) * C + c) * D + d, x * 3.0)
    s = tl.sum(x, axis=1)
    a3 = tl.arange(0, A)[:, None, None]
    c3 = tl.arange(0, C)[None, :, None]
    d3 = tl.arange(0, D)[None, None, :]
    tl.store(S + (a3 * C + c3) * D + d3, s)


@triton.jit
def bmm_kernel(X, Y, Z, BS: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    # a batched tl.dot: (BS, M, K) x (BS, K, N)
    x = tl.load(X + offsets3(BS, M, K))
    y = tl.load(Y + offsets3(BS, K, N))
    z = tl.dot(x, y)
    tl.store(Z + offsets3(BS, M, N), z)


@triton.jit
def bmm_acc_kernel(X, Y, Z, BS: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    # a batched tl.dot in fp16 with an accumulator, in a program per batch pair
    pid = tl.program_id(0)
    base = pid * BS
    x = tl.load(X + base * M * K + offsets3(BS, M, K))
    y = tl.load(Y + base * K * N + offsets3(BS, K, N))
    acc = tl.full((BS, M, N), 1.0, dtype=tl.float32)
    acc = tl.dot(x, y, acc)
    tl.store(Z + base * M * N + offsets3(BS, M, N), acc.to(tl.float16))
