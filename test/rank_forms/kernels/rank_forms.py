# Kernels of test/rank_forms: each reshape and tl.dot here is rewritten by
# rank_forms_gen (a reshape into a remap, a dot into its batched form) before
# the backends; the tests check the rewritten kernels against references of
# those forms.
import triton
import triton.language as tl


@triton.jit
def remap2_kernel(X, Y, R: tl.constexpr, C: tl.constexpr, R2: tl.constexpr, C2: tl.constexpr):
    # an (R, C) block moved into an (R2, C2) one (the reshape: a remap),
    # then used in an expression of its own shape
    rr = tl.arange(0, R)
    rc = tl.arange(0, C)
    x = tl.load(X + rr[:, None] * C + rc[None, :])
    y = tl.reshape(x, (R2, C2)) * 2.0 + tl.arange(0, C2)[None, :]
    tl.store(Y + tl.arange(0, R2)[:, None] * C2 + tl.arange(0, C2)[None, :], y)


@triton.jit
def remap1_kernel(X, Y, Z, R: tl.constexpr, C: tl.constexpr):
    # rank 2 to rank 1 and back (both reshapes: remaps)
    rr = tl.arange(0, R)
    rc = tl.arange(0, C)
    offs = rr[:, None] * C + rc[None, :]
    x = tl.load(X + offs)
    z = tl.reshape(x, (R * C,)) + 1.0
    tl.store(Z + tl.arange(0, R * C), z)
    y = tl.reshape(z * 2.0, (R, C))
    tl.store(Y + offs, y)


@triton.jit
def bdot_kernel(X, Y, A, Z, YC, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr,
                K: tl.constexpr, PRECISION: tl.constexpr):
    # Z = A + X @ Y per batch: X (B*M, K), Y (B*K, N), A and Z (B*M, N);
    # the source's dot takes a (K, N) block of zeros, which the rewrite
    # replaces by Y (copied to YC, which keeps its load)
    rm = tl.arange(0, B * M)
    rk = tl.arange(0, K)
    rkb = tl.arange(0, B * K)
    rn = tl.arange(0, N)
    x = tl.load(X + rm[:, None] * K + rk[None, :])
    y = tl.load(Y + rkb[:, None] * N + rn[None, :])
    tl.store(YC + rkb[:, None] * N + rn[None, :], y)
    acc = tl.load(A + rm[:, None] * N + rn[None, :])
    zero = tl.zeros((K, N), dtype=y.dtype)
    z = tl.dot(x, zero, acc, input_precision=PRECISION)
    tl.store(Z + rm[:, None] * N + rn[None, :], z)
