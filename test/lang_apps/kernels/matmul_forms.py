# Matmul kernels in forms real Triton code takes, each a tl.dot in a K loop
# that -O2 runs on tensor cores: a scale read from memory before the loop
# (as FP8 matmuls read theirs), a batch given as tables of addresses, a
# mixture-of-experts matmul with an early return, and a persistent kernel
# (a loop over tiles around the K loop, the tutorial's grouped order).
import triton
import triton.language as tl


# A matmul whose result is scaled by a factor read from memory before the
# K loop (as FP8 matmuls read their scales), tiles of C masked at the
# edges.
@triton.jit
def scaled_matmul_kernel(a_ptr, b_ptr, c_ptr, scale_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                         BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    scale = tl.load(scale_ptr)
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    ks = tl.arange(0, BK)
    a_ptrs = a_ptr + rows[:, None] * stride_am + ks[None, :]
    b_ptrs = b_ptr + ks[:, None] * stride_bk + cols[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=(rows[:, None] < M) & (ks[None, :] < K - k * BK), other=0.0)
        b = tl.load(b_ptrs, mask=(ks[:, None] < K - k * BK) & (cols[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * stride_bk
    c = acc * scale
    tl.store(c_ptr + rows[:, None] * stride_cm + cols[None, :], c.to(c_ptr.dtype.element_ty),
             mask=(rows[:, None] < M) & (cols[None, :] < N))


# A batch of matmuls of one size whose matrices are given as tables of
# addresses (program_id(2): the batch entry), as pointer-array batched
# GEMMs take them; row-major and contiguous.
@triton.jit
def table_matmul_kernel(a_table, b_table, c_table, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                        BK: tl.constexpr, DTYPE: tl.constexpr):
    batch = tl.program_id(2)
    a = tl.load(a_table + batch).to(tl.pointer_type(DTYPE))
    b = tl.load(b_table + batch).to(tl.pointer_type(DTYPE))
    c = tl.load(c_table + batch).to(tl.pointer_type(DTYPE))
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    ks = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        x = tl.load(a + rows[:, None] * K + (k + ks)[None, :],
                    mask=(rows[:, None] < M) & ((k + ks)[None, :] < K), other=0.0)
        y = tl.load(b + (k + ks)[:, None] * N + cols[None, :],
                    mask=((k + ks)[:, None] < K) & (cols[None, :] < N), other=0.0)
        acc += tl.dot(x, y)
    tl.store(c + rows[:, None] * N + cols[None, :], acc.to(DTYPE),
             mask=(rows[:, None] < M) & (cols[None, :] < N))


# A mixture-of-experts matmul: expert e owns the rows offsets[e] ..
# offsets[e + 1] - 1 of A (rows of every expert concatenated) and the
# (K, N) matrix e of B; C's rows follow A's. program_id(2) is the expert;
# the row blocks past an expert's rows leave at once (an early return).
@triton.jit
def expert_matmul_kernel(a_ptr, b_ptr, c_ptr, offsets, K, N, BM: tl.constexpr, BN: tl.constexpr,
                         BK: tl.constexpr):
    e = tl.program_id(2)
    start = tl.load(offsets + e)
    count = tl.load(offsets + e + 1) - start
    pid_m = tl.program_id(0)
    if pid_m * BM >= count:
        return
    rows = pid_m * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    ks = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + (start + rows)[:, None] * K + (k + ks)[None, :],
                    mask=(rows[:, None] < count) & ((k + ks)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + e * K * N + (k + ks)[:, None] * N + cols[None, :],
                    mask=((k + ks)[:, None] < K) & (cols[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + (start + rows)[:, None] * N + cols[None, :], acc.to(c_ptr.dtype.element_ty),
             mask=(rows[:, None] < count) & (cols[None, :] < N))


# A persistent matmul: NUM_SMS programs walk the tiles (grouped by
# GROUP_M rows of tiles, as Triton's persistent matmul tutorial), each
# tile a K loop and a masked store; `done` counts a program's tiles.
@triton.jit
def persistent_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                             BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                             GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr):
    start_pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    num_tiles = num_pid_m * num_pid_n
    num_pid_in_group = GROUP_M * num_pid_n
    done = 0
    for tile_id in tl.range(start_pid, num_tiles, NUM_SMS, flatten=True):
        group_id = tile_id // num_pid_in_group
        first_pid_m = group_id * GROUP_M
        group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
        pid_m = first_pid_m + (tile_id % group_size_m)
        pid_n = (tile_id % num_pid_in_group) // group_size_m
        rows = pid_m * BM + tl.arange(0, BM)
        cols = pid_n * BN + tl.arange(0, BN)
        ks = tl.arange(0, BK)
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for ki in range(tl.cdiv(K, BK)):
            k = ki * BK + ks
            a = tl.load(a_ptr + rows[:, None] * stride_am + k[None, :],
                        mask=(rows[:, None] < M) & (k[None, :] < K), other=0.0)
            b = tl.load(b_ptr + k[:, None] * stride_bk + cols[None, :],
                        mask=(k[:, None] < K) & (cols[None, :] < N), other=0.0)
            acc = tl.dot(a, b, acc)
        tl.store(c_ptr + rows[:, None] * stride_cm + cols[None, :], acc.to(c_ptr.dtype.element_ty),
                 mask=(rows[:, None] < M) & (cols[None, :] < N))
        done += 1
