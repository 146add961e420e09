import triton
import triton.language as tl


# C[M, N] = A[M, K] @ B[K, N], row-major fp32. Each program computes one
# BM x BN tile of C; K is a runtime value, so `for k in range(K)` is a
# runtime loop carrying the accumulator. The masks handle sizes that are not
# multiples of the tile.
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
