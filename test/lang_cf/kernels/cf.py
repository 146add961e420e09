import triton
import triton.language as tl


@triton.jit
def if_scalar_kernel(x_ptr, y_ptr, n, mode, BLOCK: tl.constexpr):
    # if/elif/else on a runtime scalar; scalars and blocks merge after it
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    scale = 1.0
    if mode == 0:
        y = x + 1.0
    elif mode == 1:
        y = x * 2.0
        scale = 3.0
    else:
        y = -x
        scale = 0.5
    tl.store(y_ptr + offs, y * scale, mask=mask)


@triton.jit
def if_in_loop_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # an if inside a for: odd iterations add, even ones subtract
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    count = 0
    for i in range(0, n):
        v = tl.load(x_ptr + i + offs * 0)
        if i % 2 == 1:
            acc = acc + v
            count += 1
        else:
            acc = acc - v
    tl.store(y_ptr + offs, acc + count, mask=mask)


@triton.jit
def loop_in_if_kernel(x_ptr, y_ptr, n, flag, BLOCK: tl.constexpr):
    # a for inside an if; the if's branches store
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    if flag > 0:
        acc = tl.zeros((BLOCK,), dtype=tl.float32)
        for k in range(0, flag):
            acc += tl.load(x_ptr + offs, mask=mask, other=0.0)
        tl.store(y_ptr + offs, acc, mask=mask)
    else:
        tl.store(y_ptr + offs, tl.full((BLOCK,), -1.0, tl.float32), mask=mask)


@triton.jit
def collatz_kernel(x_ptr, steps_ptr, n, BLOCK: tl.constexpr):
    # a while loop per program with carried scalars (the Collatz count)
    pid = tl.program_id(0)
    v = tl.load(x_ptr + pid)
    steps = 0
    while v != 1:
        if v % 2 == 0:
            v = v // 2
        else:
            v = 3 * v + 1
        steps += 1
    tl.store(steps_ptr + pid, steps)


@triton.jit
def converge_kernel(x_ptr, y_ptr, n, tol, BLOCK: tl.constexpr):
    # Newton's square root until the update is small: a while whose
    # condition reduces a block
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(x_ptr + offs, mask=mask, other=1.0)
    g = a
    delta = tl.full((BLOCK,), 1.0, tl.float32)
    it = 0
    while (tl.max(tl.abs(delta)) > tol) & (it < 100):
        new = 0.5 * (g + a / g)
        delta = new - g
        g = new
        it += 1
    tl.store(y_ptr + offs, g, mask=mask)


@triton.jit
def persistent_softmax_kernel(x_ptr, y_ptr, n_rows, n_cols, stride, BLOCK: tl.constexpr):
    # a persistent kernel: each program walks rows pid, pid + P, ...
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    for row in range(pid, n_rows, tl.num_programs(0)):
        x = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf"))
        x = x - tl.max(x, axis=0)
        e = tl.exp(x)
        tl.store(y_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=mask)


@triton.jit
def reassign_ptr_kernel(X, Y, stride, n_cols, BLOCK: tl.constexpr):
    # pointer parameters reassigned (X += row * stride), in a loop and a branch
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for k in tl.range(0, n_cols, BLOCK, num_stages=2, loop_unroll_factor=2):
        acc += tl.load(X + cols, mask=cols + k < n_cols, other=0.0)
        X += BLOCK
    if row % 2 == 0:
        Y += 0
    else:
        Y += 0
    tl.store(Y + cols, acc, mask=cols < n_cols)


@triton.jit
def negative_step_kernel(y_ptr, n, BLOCK: tl.constexpr):
    # range with a negative compile-time step: the index runs downwards
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.int32)
    for i in range(n, 0, -3):
        acc = acc * 2 + i
    tl.store(y_ptr + offs, acc)


@triton.jit
def carried_ptrs_kernel(a_ptr, out_ptr, K, stride_ak, BLOCK_K: tl.constexpr):
    # a loop-carried block of pointers advanced each iteration
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_k * stride_ak
    acc = tl.zeros((BLOCK_K,), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        acc += tl.load(a_ptrs, mask=offs_k + k < K, other=0.0)
        a_ptrs += BLOCK_K * stride_ak
    tl.store(out_ptr + offs_k, acc)


@triton.jit
def if_store_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # branches that store; a load after the if reads what they wrote
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if pid % 2 == 0:
        tl.store(y_ptr + offs, x * 2, mask=mask)
    else:
        tl.store(y_ptr + offs, x + 100, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, y + 1, mask=mask)


@triton.jit
def while_in_for_kernel(y_ptr, n, BLOCK: tl.constexpr):
    # a while nested in a for: the number of halvings of each i down to 0
    offs = tl.arange(0, BLOCK)
    total = 0
    for i in range(0, n):
        v = i
        while v > 0:
            v = v // 2
            total += 1
    tl.store(y_ptr + offs, tl.full((BLOCK,), 0, tl.int32) + total)


@triton.jit
def rank2_if_kernel(x_ptr, y_ptr, M, N, mode, BM: tl.constexpr, BN: tl.constexpr):
    # a rank-2 tile: rank-1 and rank-2 blocks merge after the if
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=mask, other=0.0)
    if mode == 1:
        bias = rn.to(tl.float32)
        y = x * 2.0
    else:
        bias = rn.to(tl.float32) * 0.5
        y = x - 1.0
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], y + bias[None, :], mask=mask)


@triton.jit
def if_reduce_kernel(x_ptr, y_ptr, n, mode, BLOCK: tl.constexpr):
    # reductions inside the branches (every thread takes the same branch)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    if mode == 0:
        s = tl.sum(x, axis=0)
    else:
        s = tl.max(tl.where(mask, x, -float("inf")), axis=0)
    tl.store(y_ptr + offs, x - s, mask=mask)


@triton.jit
def ifexp_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # conditional expressions on runtime scalars
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    s = 2.0 if n > 10 else 0.5
    y = (x * s) if n % 2 == 0 else (x + s)
    tl.store(y_ptr + offs, y, mask=mask)


@triton.jit
def for_in_while_kernel(y_ptr, n, BLOCK: tl.constexpr):
    # a for nested in a while, a block carried through both
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.int32)
    rounds = 0
    while rounds < n:
        for j in range(0, rounds + 1):
            acc += offs + j
        rounds += 1
    tl.store(y_ptr + offs, acc)


@triton.jit
def carried_ptrs2d_kernel(a_ptr, out_ptr, M, K, stride_am, BM: tl.constexpr, BK: tl.constexpr):
    # a loop-carried rank-2 block of pointers (the matmul idiom a_ptrs += BK)
    rm = tl.arange(0, BM)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :]
    acc = tl.zeros((BM, BK), dtype=tl.float32)
    for k in range(0, K, BK):
        acc += tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] + k < K), other=0.0)
        a_ptrs += BK
    tl.store(out_ptr + rm[:, None] * BK + rk[None, :], acc)


@triton.jit
def mm_if_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BM + tl.arange(0, BM)[:, None]
    offs_n = pid_n * BN + tl.arange(0, BN)[None, :]
    c_offsets = offs_m * N + offs_n
    c_mask = (offs_m < M) & (offs_n < N)
    acc = tl.zeros((BM, BN), tl.float32)
    # the runtime-K outer-product loop (staged by emit_cuda_fma.c at -O2 at the top level) inside a runtime if
    if K > 0:
        for k in range(K):
            a_values = tl.load(a + offs_m * K + k, mask=offs_m < M, other=0.0)
            b_values = tl.load(b + k * N + offs_n, mask=offs_n < N, other=0.0)
            acc += a_values * b_values
    tl.store(c + c_offsets, acc, mask=c_mask)


@triton.jit
def early_exit_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # `return` in a runtime if at the top level (Triton's visit_if_top_level):
    # the programs past the end return; the rest of the kernel is the else
    pid = tl.program_id(0)
    if pid * BLOCK >= n:
        return
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2.0 + 1.0, mask=mask)


N_SPLIT = tl.constexpr(1)


@triton.jit
def nested_return_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # returns in nested runtime ifs and in an else branch; a value changed in
    # a branch that does not return reaches the rest of the kernel
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    s = tl.sum(x)
    if s > 0:
        if pid == 1:
            return
        x = x * 2.0
    else:
        tl.store(y_ptr + offs, -x, mask=mask)
        return
    if N_SPLIT > 0:
        x = x + 1.0
    tl.store(y_ptr + offs, x + 0.5, mask=mask)


@triton.jit
def _clamp_flag(x, hi):
    # a helper returning from a runtime if: both branches give (f32, i32)
    if x > hi:
        return hi, 1
    y = x * 0.5
    return y, 0


@triton.jit
def helper_return_kernel(x_ptr, y_ptr, f_ptr, hi, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK
    v, f = _clamp_flag(tl.load(x_ptr + i), hi)
    tl.store(y_ptr + i, v)
    tl.store(f_ptr + i, f)


@triton.jit
def unrolled_return_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # a return inside a tl.static_range loop: the later iterations and the
    # rest of the kernel follow the branches that do not return
    offs = tl.arange(0, BLOCK)
    for k in tl.static_range(4):
        if k >= n:
            return
        tl.store(y_ptr + k * BLOCK + offs, tl.load(x_ptr + k * BLOCK + offs) + k)
    tl.store(y_ptr + 4 * BLOCK + offs, tl.zeros((BLOCK,), dtype=tl.float32) + 1.0)


@triton.jit
def range_i64_kernel(x_ptr, y_ptr, n_rows, rows_per_program, BLOCK: tl.constexpr):
    # row loops over 64-bit bounds (a row index from program_id().to(tl.int64),
    # as Liger's norms write them): the induction variable is an i64
    pid = tl.program_id(0).to(tl.int64)
    row_start = pid * rows_per_program
    row_end = tl.minimum(row_start + rows_per_program, n_rows)
    cols = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for row in range(row_start, row_end):
        acc += tl.load(x_ptr + row * BLOCK + cols)
    # a negative step, and the index used as a value
    back = tl.zeros((BLOCK,), dtype=tl.int64)
    for j in range(row_end - 1, row_start - 1, -2):
        back = back * 3 + j
    tl.store(y_ptr + pid * BLOCK + cols, acc + back.to(tl.float32))


@triton.jit
def rebind_index_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    # the induction variable rebound in the body (issue 51), as
    # flash-attention loops write it: a hint, then the block's number; the
    # loop still counts by its own index, and an i64 row loop the same
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    count = 0
    for start_n in range(0, n, BLOCK):
        start_n = tl.multiple_of(start_n, BLOCK)
        acc += tl.load(x_ptr + start_n + offs, mask=start_n + offs < n, other=0.0)
        start_n = start_n // BLOCK
        count += start_n
    for row in range(tl.program_id(0).to(tl.int64), 3):
        row = (row * 10).to(tl.int32)
        count += row
    tl.store(y_ptr + offs, acc + count)


@triton.jit
def rebind_nested_kernel(y_ptr, n, m, BLOCK: tl.constexpr):
    # an outer index rebound in an inner loop (which carries it) and in a
    # runtime if (a result): both for the rest of the outer iteration only
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), dtype=tl.int32)
    for i in range(n):
        for j in range(m):
            i = i * 2 + j
        if i > 10:
            i = i - 10
        acc += i
    tl.store(y_ptr + offs, acc + offs)
