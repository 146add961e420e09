# The seed's runtime-K matmul form (the K loop of rank-1 updates, no tl.dot)
# and variations of it for the benchmark suite: matmul_runtime_k_kernel is
# the seed's kernel as written in test/conformance/kernels/matmul.py.
import triton
import triton.language as tl


@triton.jit
def matmul_runtime_k_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)

    offs_m = pid_m * BM + tl.arange(0, BM)[:, None]
    offs_n = pid_n * BN + tl.arange(0, BN)[None, :]

    c_offsets = offs_m * N + offs_n
    c_mask = (offs_m < M) & (offs_n < N)
    acc = tl.zeros((BM, BN), tl.float32)

    for k in range(K):
        a_values = tl.load(a + offs_m * K + k, mask=offs_m < M, other=0.0)
        b_values = tl.load(b + k * N + offs_n, mask=offs_n < N, other=0.0)
        acc += a_values * b_values

    tl.store(c + c_offsets, acc, mask=c_mask)


@triton.jit
def matmul_relu_a_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr):
    # tl.where on an operand: relu(A) @ B.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BM + tl.arange(0, BM)[:, None]
    offs_n = pid_n * BN + tl.arange(0, BN)[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(K):
        a_values = tl.load(a + offs_m * K + k, mask=offs_m < M, other=0.0)
        b_values = tl.load(b + k * N + offs_n, mask=offs_n < N, other=0.0)
        a_values = tl.where(a_values > 0.0, a_values, 0.0)
        acc += a_values * b_values
    tl.store(c + offs_m * N + offs_n, acc, mask=(offs_m < M) & (offs_n < N))


@triton.jit
def matmul_scaled_kernel(a, b, c, bias, M, N, K, alpha, BM: tl.constexpr, BN: tl.constexpr):
    # C = alpha * (A @ B) + bias[None, :]
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BM + tl.arange(0, BM)[:, None]
    offs_n = pid_n * BN + tl.arange(0, BN)[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(K):
        a_values = tl.load(a + offs_m * K + k, mask=offs_m < M, other=0.0)
        b_values = tl.load(b + k * N + offs_n, mask=offs_n < N, other=0.0)
        acc += a_values * b_values
    bias_values = tl.load(bias + offs_n, mask=offs_n < N, other=0.0)
    acc = acc * alpha + bias_values
    tl.store(c + offs_m * N + offs_n, acc, mask=(offs_m < M) & (offs_n < N))


@triton.jit
def matmul_f16_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr):
    # 16-bit operands cast to fp32, fp32 accumulation, the output in c's dtype.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BM + tl.arange(0, BM)[:, None]
    offs_n = pid_n * BN + tl.arange(0, BN)[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(K):
        a_values = tl.load(a + offs_m * K + k, mask=offs_m < M, other=0.0).to(tl.float32)
        b_values = tl.load(b + k * N + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)
        acc += a_values * b_values
    tl.store(c + offs_m * N + offs_n, acc.to(c.dtype.element_ty), mask=(offs_m < M) & (offs_n < N))


@triton.jit
def matmul_hoisted_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr):
    # Row and column pointers computed once, advanced in the loop.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BM + tl.arange(0, BM)[:, None]
    offs_n = pid_n * BN + tl.arange(0, BN)[None, :]
    a_ptrs = a + offs_m * K
    b_ptrs = b + offs_n
    a_mask = offs_m < M
    b_mask = offs_n < N
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(K):
        a_values = tl.load(a_ptrs, mask=a_mask, other=0.0)
        b_values = tl.load(b_ptrs, mask=b_mask, other=0.0)
        acc += a_values * b_values
        a_ptrs += 1
        b_ptrs += N
    tl.store(c + offs_m * N + offs_n, acc, mask=a_mask & b_mask)


@triton.jit
def matmul_scale_in_loop_kernel(a, b, c, M, N, K, alpha, BM: tl.constexpr, BN: tl.constexpr):
    # an operand scaled inside the loop, `acc = acc + ...`: (alpha * A) @ B.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BM + tl.arange(0, BM)[:, None]
    offs_n = pid_n * BN + tl.arange(0, BN)[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(K):
        a_values = tl.load(a + offs_m * K + k, mask=offs_m < M, other=0.0) * alpha
        b_values = tl.load(b + k * N + offs_n, mask=offs_n < N, other=0.0)
        acc = acc + a_values * b_values
    tl.store(c + offs_m * N + offs_n, acc, mask=(offs_m < M) & (offs_n < N))


@triton.jit
def matmul_kmask_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr):
    # the loads masked along k too (k < K), as code written for a padded K is.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BM + tl.arange(0, BM)[:, None]
    offs_n = pid_n * BN + tl.arange(0, BN)[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(K):
        a_values = tl.load(a + offs_m * K + k, mask=(offs_m < M) & (k < K), other=0.0)
        b_values = tl.load(b + k * N + offs_n, mask=(offs_n < N) & (k < K), other=0.0)
        acc += a_values * b_values
    tl.store(c + offs_m * N + offs_n, acc, mask=(offs_m < M) & (offs_n < N))
