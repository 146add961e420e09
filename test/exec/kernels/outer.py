# Variations of the runtime-K outer-product matmul (issue 14): each is
# staged through shared memory at -O2 (outer.c, emit_cuda_fma.c) whatever
# transform its operands carry. c = sum over the loop's k of X(i, k) * Y(k, j).
import triton
import triton.language as tl


@triton.jit
def outer_relu_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr):
    # tl.where on the row operand, `acc = acc + ...`
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K):
        x = tl.load(a + offs_m * K + k, mask=offs_m < M, other=0.0)
        y = tl.load(b + k * N + offs_n, mask=offs_n < N, other=0.0)
        x = tl.where(x > 0.0, x, 0.0)
        acc = acc + x * y
    tl.store(c + offs_m * N + offs_n, acc, mask=(offs_m < M) & (offs_n < N))


@triton.jit
def outer_affine_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr):
    # scaled and shifted rows, absolute columns, the product on the left
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K):
        x = tl.load(a + offs_m * K + k, mask=offs_m < M, other=0.0) * 0.5 + 1.0
        y = tl.load(b + k * N + offs_n, mask=offs_n < N, other=0.0)
        y = tl.where(y < 0.0, -y, y)
        acc = x * y + acc
    tl.store(c + offs_m * N + offs_n, acc, mask=(offs_m < M) & (offs_n < N))


@triton.jit
def outer_hoisted_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr):
    # row and column pointers computed once, advanced in the loop
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    a_ptrs = a + offs_m * K
    b_ptrs = b + offs_n
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(K):
        x = tl.load(a_ptrs, mask=offs_m < M, other=0.0)
        y = tl.load(b_ptrs, mask=offs_n < N, other=0.0)
        acc += x * y
        a_ptrs += 1
        b_ptrs += N
    tl.store(c + offs_m * N + offs_n, acc, mask=(offs_m < M) & (offs_n < N))


@triton.jit
def outer_step2_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr):
    # k = 1, 3, 5, ...: hoisted pointers advanced by two rows / columns
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    a_ptrs = a + offs_m * K + 1
    b_ptrs = b + N + offs_n
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(1, K, 2):
        x = tl.load(a_ptrs, mask=offs_m < M, other=0.0)
        y = tl.load(b_ptrs, mask=offs_n < N, other=0.0)
        acc += x * y
        a_ptrs += 2
        b_ptrs += 2 * N
    tl.store(c + offs_m * N + offs_n, acc, mask=(offs_m < M) & (offs_n < N))


@triton.jit
def outer_kmask_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr):
    # the loop runs past K; the loads' masks stop at it
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K + 5):
        x = tl.load(a + offs_m * K + k, mask=(offs_m < M) & (k < K), other=0.0)
        y = tl.load(b + k * N + offs_n, mask=(offs_n < N) & (k < K), other=0.0)
        acc += x * y
    tl.store(c + offs_m * N + offs_n, acc, mask=(offs_m < M) & (offs_n < N))


@triton.jit
def outer_cast_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr):
    # an integer row operand converted to f32
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K):
        x = tl.load(a + offs_m * K + k, mask=offs_m < M, other=0).to(tl.float32)
        y = tl.load(b + k * N + offs_n, mask=offs_n < N, other=0.0)
        acc += x * y
    tl.store(c + offs_m * N + offs_n, acc, mask=(offs_m < M) & (offs_n < N))


@triton.jit
def outer_f16_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr):
    # 16-bit operands cast to fp32 (staged with 64-bit loads), fp32 accumulation
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K):
        x = tl.load(a + offs_m * K + k, mask=offs_m < M, other=0.0).to(tl.float32)
        y = tl.load(b + k * N + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)
        acc += x * y
    tl.store(c + offs_m * N + offs_n, acc, mask=(offs_m < M) & (offs_n < N))


@triton.jit
def outer_f16_other_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr):
    # 16-bit operands whose masks fail inside the tile (along k): `other` is
    # the load's dtype (0.1 and -0.3 rounded to f16), then a transform
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K):
        x = tl.load(a + offs_m * K + k, mask=(offs_m < M) & (k % 3 != 1), other=0.1)
        x = tl.where(x > 0.0, x, -x) * 2.0
        y = tl.load(b + k * N + offs_n, mask=(offs_n < N) & (k % 5 != 2), other=-0.3)
        acc += x.to(tl.float32) * y.to(tl.float32)
    tl.store(c + offs_m * N + offs_n, acc, mask=(offs_m < M) & (offs_n < N))
