# Reductions along an axis, argmax/argmin, scans (issue 13). Each kernel
# processes a (BM, BN) tile of rows of an M x BN row-major matrix (rows
# masked against M); used by test/lang_red (host and CUDA execution, the
# CUDA emulator) and by scripts/triton_oracle.py (test/oracle/manifest.d/red.json).
import triton
import triton.language as tl


@triton.jit
def row_sum_kernel(x_ptr, y_ptr, M, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    mask = rm[:, None] < M
    x = tl.load(x_ptr + rm[:, None] * BN + rn[None, :], mask=mask, other=0.0)
    tl.store(y_ptr + rm, tl.sum(x, axis=1), mask=rm < M)


@triton.jit
def col_sum_kernel(x_ptr, y_ptr, M, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    rm = pid * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * BN + rn[None, :], mask=rm[:, None] < M, other=0)
    tl.store(y_ptr + pid * BN + rn, x.sum(0))


@triton.jit
def row_normalize_kernel(x_ptr, y_ptr, M, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    offs = rm[:, None] * BN + rn[None, :]
    mask = rm[:, None] < M
    x = tl.load(x_ptr + offs, mask=mask, other=1.0)
    y = x / tl.sum(x, axis=1, keep_dims=True)
    tl.store(y_ptr + offs, y, mask=mask)


@triton.jit
def softmax_rows_kernel(x_ptr, y_ptr, M, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    offs = rm[:, None] * BN + rn[None, :]
    mask = rm[:, None] < M
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    z = x - tl.max(x, axis=1)[:, None]
    e = tl.exp(z)
    y = e / tl.sum(e, axis=1)[:, None]
    tl.store(y_ptr + offs, y, mask=mask)


@triton.jit
def max_idx_kernel(x_ptr, v_ptr, i_ptr, a_ptr, M, BM: tl.constexpr, BN: tl.constexpr):
    # row maxima with their indices; column argmin of the tile
    pid = tl.program_id(0)
    rm = pid * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * BN + rn[None, :], mask=rm[:, None] < M, other=0)
    v, i = tl.max(x, axis=1, return_indices=True)
    tl.store(v_ptr + rm, v, mask=rm < M)
    tl.store(i_ptr + rm, i, mask=rm < M)
    tl.store(a_ptr + pid * BN + rn, tl.argmin(x, axis=0))


@triton.jit
def argmax_ties_kernel(x_ptr, i_ptr, j_ptr, M, BM: tl.constexpr, BN: tl.constexpr):
    # small integers: many ties; Triton's rule is the first index
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * BN + rn[None, :], mask=rm[:, None] < M, other=0)
    tl.store(i_ptr + rm, tl.argmax(x, axis=1), mask=rm < M)
    tl.store(j_ptr + rm, tl.argmin(x, 1), mask=rm < M)


@triton.jit
def scans_kernel(x_ptr, a_ptr, b_ptr, c_ptr, d_ptr, M, BM: tl.constexpr, BN: tl.constexpr):
    # integer scans (exact): cumsum along rows and along columns reversed,
    # cumprod along columns and along rows reversed
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    offs = rm[:, None] * BN + rn[None, :]
    mask = rm[:, None] < M
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.store(a_ptr + offs, tl.cumsum(x, axis=1), mask=mask)
    tl.store(b_ptr + offs, tl.cumsum(x, axis=0, reverse=True), mask=mask)
    tl.store(c_ptr + offs, tl.cumprod(x, axis=0), mask=mask)
    tl.store(d_ptr + offs, x.cumprod(1, reverse=True), mask=mask)


@triton.jit
def reduce_all_kernel(x_ptr, s_ptr, m_ptr, BM: tl.constexpr, BN: tl.constexpr):
    # axis=None over a rank-2 tile; keep_dims on both axes
    pid = tl.program_id(0)
    rm = pid * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * BN + rn[None, :])
    total = tl.sum(x)
    hi = tl.max(tl.max(x, axis=0, keep_dims=True), axis=1, keep_dims=True)
    tl.store(s_ptr + pid, total)
    tl.store(m_ptr + pid + tl.zeros((1, 1), dtype=tl.int32), hi)


@triton.jit
def layer_norm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, eps, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    offs = rm[:, None] * BN + rn[None, :]
    mask = rm[:, None] < M
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    mean = tl.sum(x, axis=1) / BN
    xc = x - mean[:, None]
    var = tl.sum(xc * xc, axis=1) / BN
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + rn)
    b = tl.load(b_ptr + rn)
    y = xc * rstd[:, None] * w[None, :] + b[None, :]
    tl.store(y_ptr + offs, y, mask=mask)


@triton.jit
def vec_scan_kernel(x_ptr, c_ptr, a_ptr, BLOCK: tl.constexpr):
    # rank-1: cumsum and argmax of a block
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(c_ptr + offs, tl.cumsum(x, 0))
    tl.store(a_ptr + pid, tl.argmax(x, axis=0))


@triton.jit
def _max_abs(a, b):
    return tl.maximum(tl.abs(a), tl.abs(b))


@triton.jit
def _add(a, b):
    return a + b


@triton.jit
def _running_max(a, b):
    return tl.maximum(a, b)


@triton.jit
def _argmin_pair(v1, i1, v2, i2):
    # the smaller value; the smaller index on a tie
    take1 = (v1 < v2) | ((v1 == v2) & (i1 < i2))
    return tl.where(take1, v1, v2), tl.where(take1, i1, i2)


@triton.jit
def reduce_fn_kernel(x_ptr, r_ptr, c_ptr, v_ptr, i_ptr, M, BM: tl.constexpr, BN: tl.constexpr):
    # tl.reduce with helper combiners: max of |x| per row, column sums kept
    # as a (1, BN) row, and a tuple reduction (min value and its index)
    pid = tl.program_id(0)
    rm = pid * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * BN + rn[None, :], mask=rm[:, None] < M, other=0)
    tl.store(r_ptr + rm, tl.reduce(x, 1, _max_abs), mask=rm < M)
    cs = tl.reduce(x, axis=0, combine_fn=_add, keep_dims=True)
    tl.store(c_ptr + pid * BN + rn[None, :], cs)
    idx = tl.zeros((BM, BN), dtype=tl.int32) + rn[None, :]
    v, i = tl.reduce((x, idx), 1, _argmin_pair)
    tl.store(v_ptr + rm, v, mask=rm < M)
    tl.store(i_ptr + rm, i, mask=rm < M)


@triton.jit
def scan_fn_kernel(x_ptr, a_ptr, b_ptr, M, BM: tl.constexpr, BN: tl.constexpr):
    # tl.associative_scan: a running maximum along rows, and sums along
    # columns from the last row up (reverse)
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    offs = rm[:, None] * BN + rn[None, :]
    mask = rm[:, None] < M
    x = tl.load(x_ptr + offs, mask=mask, other=0)
    tl.store(a_ptr + offs, tl.associative_scan(x, 1, _running_max), mask=mask)
    tl.store(b_ptr + offs, x.associative_scan(0, _add, reverse=True), mask=mask)


@triton.jit
def _affine(a1, b1, a2, b2):
    # x -> a1 x + b1, then x -> a2 x + b2: not commutative
    return a1 * a2, a2 * b1 + b2


@triton.jit
def affine_fn_kernel(a_ptr, b_ptr, sa_ptr, sb_ptr, ra_ptr, rb_ptr, pa_ptr, pb_ptr, M,
                     BM: tl.constexpr, BN: tl.constexpr):
    # a tuple combiner whose operands' order matters (a linear recurrence):
    # scans along the rows both ways, and the whole row's composition
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    offs = rm[:, None] * BN + rn[None, :]
    mask = rm[:, None] < M
    a = tl.load(a_ptr + offs, mask=mask, other=1)
    b = tl.load(b_ptr + offs, mask=mask, other=0)
    sa, sb = tl.associative_scan((a, b), 1, _affine)
    tl.store(sa_ptr + offs, sa, mask=mask)
    tl.store(sb_ptr + offs, sb, mask=mask)
    ra, rb = tl.associative_scan((a, b), 1, _affine, reverse=True)
    tl.store(ra_ptr + offs, ra, mask=mask)
    tl.store(rb_ptr + offs, rb, mask=mask)
    pa, pb = tl.reduce((a, b), 1, _affine)
    tl.store(pa_ptr + rm, pa, mask=rm < M)
    tl.store(pb_ptr + rm, pb, mask=rm < M)


@triton.jit
def xor_sum_kernel(x_ptr, r_ptr, c_ptr, a_ptr, b_ptr, v_ptr, M, BM: tl.constexpr, BN: tl.constexpr):
    # tl.xor_sum along the rows, down the columns (kept as a (1, BN) row),
    # over the whole tile, and over a rank-1 block of u8 (the dtype kept)
    pid = tl.program_id(0)
    rm = pid * BM + tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * BN + rn[None, :], mask=rm[:, None] < M, other=0)
    tl.store(r_ptr + rm, tl.xor_sum(x, 1), mask=rm < M)
    tl.store(c_ptr + pid * BN + rn[None, :], x.xor_sum(axis=0, keep_dims=True))
    tl.store(a_ptr + pid, tl.xor_sum(x))
    b = tl.load(b_ptr + pid * BN + rn)
    tl.store(v_ptr + pid, tl.xor_sum(b, axis=0))


@triton.jit
def histogram_kernel(x_ptr, h_ptr, g_ptr, n, BLOCK: tl.constexpr, BINS: tl.constexpr):
    # tl.histogram of each program's block (values outside [0, BINS) count
    # nowhere), and of its first n elements (mask=)
    pid = tl.program_id(0)
    o = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + pid * BLOCK + o)
    tl.store(h_ptr + pid * BINS + tl.arange(0, BINS), tl.histogram(x, BINS))
    tl.store(g_ptr + pid * BINS + tl.arange(0, BINS), x.histogram(BINS, mask=o < n))
