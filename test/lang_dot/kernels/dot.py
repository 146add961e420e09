# tl.dot kernels of the execution tests (test/lang_dot) and of the Triton
# oracle (test/oracle/manifest.d/dot.json): the tutorial matmul with grouped
# ordering and a runtime K loop, a batched matmul, the '@' form and a dot
# without an accumulator loop.
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  GROUP_M: tl.constexpr, ACC: tl.constexpr, PRECISION: tl.constexpr,
                  PLUS: tl.constexpr, ACTIVATION: tl.constexpr,
                  WARP_SPECIALIZE: tl.constexpr = False):
    """C = act(A @ B): A (M, K), B (K, N), C (M, N); ACC is the
    accumulator's dtype ("float32", "float16", "float64" or "int32"); PLUS selects
    `acc += tl.dot(a, b)` over `acc = tl.dot(a, b, acc)`; WARP_SPECIALIZE is
    the K loop's tl.range hint."""
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
    offs_bn = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    if ACC == "int32":
        accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.int32)
    elif ACC == "float16":
        accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float16)
    elif ACC == "float64":
        accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float64)
    else:
        accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BLOCK_K), warp_specialize=WARP_SPECIALIZE):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_K, other=0.0)
        if PLUS:
            accumulator += tl.dot(a, b, input_precision=PRECISION, out_dtype=accumulator.dtype)
        else:
            accumulator = tl.dot(a, b, accumulator, input_precision=PRECISION,
                                 out_dtype=accumulator.dtype)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    if ACTIVATION == "leaky_relu":
        accumulator = tl.where(accumulator >= 0, accumulator, 0.01 * accumulator)
    c = accumulator.to(c_ptr.dtype.element_ty)
    offs_cm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


@triton.jit
def matmul_bp_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                     stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                     GROUP_M: tl.constexpr, ACC: tl.constexpr, PRECISION: tl.constexpr,
                     PLUS: tl.constexpr, ACTIVATION: tl.constexpr,
                     WARP_SPECIALIZE: tl.constexpr = False):
    """matmul_kernel's program order and parameters with block pointers
    (tl.make_block_ptr, tl.advance, boundary_check): the K loop's operands
    and the result, checked on both dimensions; an f32 accumulator (ACC,
    PLUS and WARP_SPECIALIZE are ignored)."""
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    a_bp = tl.make_block_ptr(a_ptr, (M, K), (stride_am, stride_ak), (pid_m * BLOCK_M, 0),
                             (BLOCK_M, BLOCK_K), (1, 0))
    b_bp = tl.make_block_ptr(b_ptr, (K, N), (stride_bk, stride_bn), (0, pid_n * BLOCK_N),
                             (BLOCK_K, BLOCK_N), (1, 0))
    accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_bp, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_bp, boundary_check=(0, 1), padding_option="zero")
        accumulator = tl.dot(a, b, accumulator, input_precision=PRECISION)
        a_bp = tl.advance(a_bp, (0, BLOCK_K))
        b_bp = tl.advance(b_bp, (BLOCK_K, 0))
    if ACTIVATION == "leaky_relu":
        accumulator = tl.where(accumulator >= 0, accumulator, 0.01 * accumulator)
    c_bp = tl.make_block_ptr(c_ptr, (M, N), (stride_cm, stride_cn), (pid_m * BLOCK_M, pid_n * BLOCK_N),
                             (BLOCK_M, BLOCK_N), (1, 0))
    tl.store(c_bp, accumulator.to(c_ptr.dtype.element_ty), boundary_check=(0, 1))


@triton.jit
def batched_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                          stride_ab, stride_am, stride_ak, stride_bb, stride_bk, stride_bn,
                          stride_cb, stride_cm, stride_cn,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    """C[z] = A[z] @ B[z] for each batch z = program_id(1), fp32 output."""
    pid = tl.program_id(axis=0)
    z = tl.program_id(axis=1)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + z * stride_ab + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + z * stride_bb + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a_mask = (offs_m[:, None] < M) & (offs_k[None, :] < K - k * BLOCK_K)
        b_mask = (offs_k[:, None] < K - k * BLOCK_K) & (offs_n[None, :] < N)
        a = tl.load(a_ptrs, mask=a_mask, other=0.0)
        b = tl.load(b_ptrs, mask=b_mask, other=0.0)
        acc += tl.dot(a, b)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + z * stride_cb + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


@triton.jit
def matmul_op_kernel(a_ptr, b_ptr, bias_ptr, c_ptr,
                     BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """One (BM, BK) x (BK, BN) product with '@', plus a bias row, row-major
    contiguous operands, one program."""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * BK + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * BN + rn[None, :])
    bias = tl.load(bias_ptr + rn)
    c = a @ b + bias[None, :]
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], c)


@triton.jit
def linear_attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, N_CTX, scale,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    """O = sum over key blocks of ((Q K^T) * scale) V for one head: two
    chained dots per iteration (the first's f16 result is the second's
    lhs), K read transposed through its pointers; the attention forward's
    dot structure without the softmax (whose row reductions are axis
    reductions). Q, K, V, O: (N_CTX, HEAD_DIM) row-major fp16."""
    start_m = tl.program_id(0)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + offs_m[:, None] * HEAD_DIM + offs_d[None, :], mask=offs_m[:, None] < N_CTX, other=0.0)
    kt_ptrs = k_ptr + offs_n[None, :] * HEAD_DIM + offs_d[:, None]
    v_ptrs = v_ptr + offs_n[:, None] * HEAD_DIM + offs_d[None, :]
    acc = tl.zeros((BLOCK_M, HEAD_DIM), dtype=tl.float32)
    for start_n in range(0, N_CTX, BLOCK_N):
        kt = tl.load(kt_ptrs, mask=(start_n + offs_n[None, :]) < N_CTX, other=0.0)
        qk = tl.dot(q, kt) * scale
        v = tl.load(v_ptrs, mask=(start_n + offs_n[:, None]) < N_CTX, other=0.0)
        acc = tl.dot(qk.to(tl.float16), v, acc)
        kt_ptrs += BLOCK_N * HEAD_DIM
        v_ptrs += BLOCK_N * HEAD_DIM
    tl.store(o_ptr + offs_m[:, None] * HEAD_DIM + offs_d[None, :], acc.to(tl.float16), mask=offs_m[:, None] < N_CTX)


@triton.jit
def dot_tile_kernel(x_ptr, y_ptr, c_ptr, z_ptr, m, n,
                    BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, PRECISION: tl.constexpr):
    """Z = C + X @ Y for one (BM, BK) x (BK, BN) tile without a K loop (not
    the tensor-core path's shape: the CUDA-core dot), row-major contiguous;
    the ragged (m, n) corner: rows of X from m and columns of Y from n read
    as 0, Z stored there alone."""
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    x = tl.load(x_ptr + rm[:, None] * BK + rk[None, :], mask=rm[:, None] < m, other=0)
    y = tl.load(y_ptr + rk[:, None] * BN + rn[None, :], mask=rn[None, :] < n, other=0)
    c = tl.load(c_ptr + rm[:, None] * BN + rn[None, :])
    z = tl.dot(x, y, c, input_precision=PRECISION, out_dtype=c.dtype)
    tl.store(z_ptr + rm[:, None] * BN + rn[None, :], z, mask=(rm[:, None] < m) & (rn[None, :] < n))
