# Runtime loops for the execution tests: nested and sequential loops,
# several carried values (a swap that needs temporaries), zero iterations,
# runtime start/stop with a step, a carried pointer, tl.empty / tl.zeros /
# tl.full as loop inputs, loops in a rank-2 kernel, and static_range.
import triton
import triton.language as tl


@triton.jit
def nested_block_kernel(x, out, M, N, BLOCK: tl.constexpr):
    lanes = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    count = 0
    for i in range(M):
        row = tl.zeros((BLOCK,), tl.float32)
        for j in range(N):
            row += tl.load(x + (i * N + j) * BLOCK + lanes)
            count += 1
        acc = acc + row * (i + 1)
    tl.store(out + lanes, acc)
    tl.store(out + BLOCK + lanes, acc * 0.0 + count)


@triton.jit
def sequential_loops_kernel(x, out, n, m, BLOCK: tl.constexpr):
    lanes = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    for i in range(n):
        acc += tl.load(x + i * BLOCK + lanes)
    best = tl.full((BLOCK,), float("-inf"), tl.float32)
    for j in range(2, m, 3):
        best = tl.maximum(best, acc * j)
    tl.store(out + lanes, best)
    tl.store(out + BLOCK + lanes, acc)


@triton.jit
def carried_swap_kernel(x, out, iout, n, BLOCK: tl.constexpr):
    # Carried in order: b, a, c1, c0, s, f. Each iteration swaps the blocks
    # a and b and the scalars c0 and c1 (their yields read region arguments
    # that earlier yields overwrite), counts in s and halves f.
    lanes = tl.arange(0, BLOCK)
    a = tl.load(x + lanes)
    b = tl.load(x + BLOCK + lanes)
    c0 = 0
    c1 = 100
    s = 0
    f = 1.0
    for i in range(n):
        t = b
        b = a
        a = t
        u = c1
        c1 = c0 + 1
        c0 = u
        s = s + i
        f = f * 0.5
    tl.store(out + lanes, a)
    tl.store(out + BLOCK + lanes, b * f)
    tl.store(iout, c0)
    tl.store(iout + 1, c1)
    tl.store(iout + 2, s)


@triton.jit
def strided_loop_kernel(x, out, start, stop, BLOCK: tl.constexpr):
    # range(start, stop, 3) with runtime bounds (empty when start >= stop).
    lanes = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    cnt = tl.zeros((BLOCK,), tl.int32)
    for i in range(start, stop, 3):
        acc += tl.load(x + i * BLOCK + lanes)
        cnt += 1
    tl.store(out + lanes, acc)
    tl.store(out + BLOCK + lanes, cnt)


@triton.jit
def pointer_walk_kernel(x, out, n, BLOCK: tl.constexpr):
    # Carried pointers: a block of pointers and a scalar pointer.
    lanes = tl.arange(0, BLOCK)
    p = x + lanes
    q = x
    acc = tl.zeros((BLOCK,), tl.float32)
    first = 0.0
    for i in range(n):
        acc += tl.load(p)
        first += tl.load(q)
        p += BLOCK
        q = q + BLOCK
    tl.store(out + lanes, acc)
    tl.store(out + BLOCK, first)


@triton.jit
def empty_init_kernel(x, out, n, BLOCK: tl.constexpr):
    # tl.empty as the initial value of a carried block (n >= 1: every
    # element is written before it is read).
    lanes = tl.arange(0, BLOCK)
    last = tl.empty((BLOCK,), tl.float32)
    for i in range(n):
        last = tl.load(x + i * BLOCK + lanes)
    tl.store(out + lanes, last)


@triton.jit
def rank2_loop_kernel(x, out, M, N, K, BM: tl.constexpr, BN: tl.constexpr):
    # Carried tiles of shapes (BM, BN), (BM, 1), (1, BN) and a rank-1 row
    # block used as the rows of the tile; out holds 4 planes of M x N.
    rm1 = tl.program_id(0) * BM + tl.arange(0, BM)
    rm = rm1[:, None]
    rn = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    mask = (rm < M) & (rn < N)
    acc = tl.zeros((BM, BN), tl.float32)
    rowacc = tl.zeros((BM, 1), tl.float32)
    colmax = tl.full((1, BN), float("-inf"), tl.float32)
    rowcount = tl.zeros((BM,), tl.int32)
    for k in range(K):
        plane = x + k * M * N
        acc += tl.load(plane + rm * N + rn, mask=mask, other=0.0)
        rowacc += tl.load(plane + rm * N, mask=rm < M, other=0.0)
        colmax = tl.maximum(colmax, tl.load(plane + rn, mask=rn < N, other=0.0))
        rowcount = rowcount + tl.where(rm1 < M, 1, 0)
    offsets = rm * N + rn
    tl.store(out + offsets, acc, mask=mask)
    tl.store(out + M * N + offsets, rowacc + acc * 0.0, mask=mask)
    tl.store(out + 2 * M * N + offsets, colmax + acc * 0.0, mask=mask)
    tl.store(out + 3 * M * N + offsets, rowcount[:, None] + acc * 0.0, mask=mask)


@triton.jit
def static_unroll_kernel(x, out, n, BLOCK: tl.constexpr, TAPS: tl.constexpr):
    # A TAPS-point stencil unrolled by tl.static_range, and range() over
    # constants (also unrolled) with a start and a step.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK,), tl.float32)
    for t in tl.static_range(TAPS):
        acc += tl.load(x + offs + t, mask=offs + t < n, other=0.0) * (t + 1)
    odd = tl.zeros((BLOCK,), tl.float32)
    for t in range(1, 6, 2):
        odd = odd + tl.load(x + offs, mask=offs < n, other=0.0) * t
    tl.store(out + offs, acc, mask=offs < n)
    tl.store(out + n + offs, odd, mask=offs < n)


@triton.jit
def count_loop_kernel(out, start, stop, STEP: tl.constexpr):
    # Iterations of range(start, stop, STEP) and the last index, also for
    # bounds near the top of i32 (where a 32-bit counter would overflow).
    count = 0
    last = -1
    for i in range(start, stop, STEP):
        count += 1
        last = i
    tl.store(out, count)
    tl.store(out + 1, last)
