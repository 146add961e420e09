import triton
import triton.language as tl

# tl.dot kernels that neither whole-kernel tensor-core plan takes (an op on
# the dot's result before the accumulation, no K loop): at -O2 the blocked
# emitter runs each dot on tensor cores (emit_cuda_dot_tc.c), its
# surroundings in the blocked layout (emu_dot_tc_test.cpp).


@triton.jit
def scaled_dot_kernel(x_ptr, y_ptr, s_ptr, c_ptr, z_ptr, m, n,
                      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                      IN_DOT: tl.constexpr, PRECISION: tl.constexpr):
    """One tile, row-major: Z = C + (X @ Y) * S[:, None] (IN_DOT False: a
    zero accumulator) or Z = (X @ Y + C) * S[:, None] (IN_DOT True: C the
    dot's accumulator). Rows of X from m and columns of Y from n read as 0;
    Z stored in the (m, n) corner alone."""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    x = tl.load(x_ptr + rm[:, None] * BK + rk[None, :], mask=rm[:, None] < m, other=0.0)
    y = tl.load(y_ptr + rk[:, None] * BN + rn[None, :], mask=rn[None, :] < n, other=0.0)
    s = tl.load(s_ptr + rm)
    c = tl.load(c_ptr + rm[:, None] * BN + rn[None, :])
    if IN_DOT:
        z = tl.dot(x, y, c, input_precision=PRECISION, out_dtype=c.dtype) * s[:, None]
    else:
        z = c + tl.dot(x, y, input_precision=PRECISION, out_dtype=c.dtype) * s[:, None]
    tl.store(z_ptr + rm[:, None] * BN + rn[None, :], z, mask=(rm[:, None] < m) & (rn[None, :] < n))


@triton.jit
def block_scaled_matmul_kernel(a_ptr, b_ptr, as_ptr, bs_ptr, c_ptr, M, N, K,
                               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """DeepSeek-V3's fp8 GEMM form: C = sum over K blocks kb of
    (A[:, kb] @ B[kb, :]) * AS[row, kb] * BS[kb], row-major A (M, K), B (K,
    N), AS (M, cdiv(K, BK)), BS (cdiv(K, BK),), an f32 C."""
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    kb = tl.cdiv(K, BK)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * N + rn[None, :]
    accumulator = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, kb):
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < K - k * BK), other=0.0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < K - k * BK) & (rn[None, :] < N), other=0.0)
        a_s = tl.load(as_ptr + rm * kb + k, mask=rm < M, other=0.0)
        b_s = tl.load(bs_ptr + k)
        accumulator += tl.dot(a, b) * a_s[:, None] * b_s
        a_ptrs += BK
        b_ptrs += BK * N
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], accumulator,
             mask=(rm[:, None] < M) & (rn[None, :] < N))
