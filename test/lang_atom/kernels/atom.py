# Atomics, tl.debug_barrier and random numbers (test/lang_atom).
import triton
import triton.language as tl


@triton.jit
def histogram_kernel(x_ptr, bins_ptr, n, NBINS: tl.constexpr, BLOCK: tl.constexpr):
    # a block of pointers with a mask: each element once
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    tl.atomic_add(bins_ptr + x % NBINS, 1, mask=m)


@triton.jit
def global_sum_kernel(x_ptr, sum_ptr, counter_ptr, tickets_ptr, n, BLOCK: tl.constexpr):
    # scalar atomics: once per program, the old value the same for all
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.atomic_add(sum_ptr, tl.sum(x))
    ticket = tl.atomic_add(counter_ptr, 1)
    tl.store(tickets_ptr + pid * BLOCK + tl.arange(0, BLOCK), ticket + tl.zeros([BLOCK], tl.int32))


@triton.jit
def minmax_kernel(xi_ptr, xf_ptr, imax_ptr, imin_ptr, fmax_ptr, fmin_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    xi = tl.load(xi_ptr + offs, mask=m, other=0)
    xf = tl.load(xf_ptr + offs, mask=m, other=0.0)
    # one element per 8 inputs: contention
    tl.atomic_max(imax_ptr + offs % 8, xi, mask=m)
    tl.atomic_min(imin_ptr + offs % 8, xi, mask=m)
    tl.atomic_max(fmax_ptr + offs % 8, xf, mask=m)
    tl.atomic_min(fmin_ptr + offs % 8, xf, mask=m)


@triton.jit
def scalar_max_kernel(xf_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(xf_ptr + offs, mask=m, other=float("-inf"))
    tl.atomic_max(out_ptr, tl.max(x), sem="relaxed", scope="gpu")
    tl.atomic_min(out_ptr + 1, tl.min(tl.where(m, x, float("inf"))), sem="acquire", scope="cta")


@triton.jit
def xchg_cas_kernel(a_ptr, b_ptr, old_a_ptr, old_b_ptr, n, BLOCK: tl.constexpr):
    # every element distinct: the old values are deterministic (n a multiple
    # of BLOCK: atomic_cas has no mask)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    old = tl.atomic_xchg(a_ptr + offs, offs * 10, mask=m, sem="release")
    tl.store(old_a_ptr + offs, old, mask=m)
    # swaps where b holds an even number: b[i] = -b[i]
    b = tl.load(b_ptr + offs, mask=m, other=1)
    cmp = tl.where(b % 2 == 0, b, b + 1)
    prev = tl.atomic_cas(b_ptr + offs, cmp, -b, sem="acq_rel", scope="sys")
    tl.store(old_b_ptr + offs, prev, mask=m)


@triton.jit
def bits_kernel(x_ptr, and_ptr, or_ptr, xor_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    # the function and the member spellings of Triton's atomics
    tl.atomic_and(and_ptr + offs % 4, x, mask=m)
    (or_ptr + offs % 4).atomic_or(x, mask=m)
    xor_ptrs = xor_ptr + offs % 4
    xor_ptrs.atomic_xor(x, m)


@triton.jit
def wide_add_kernel(x_ptr, f64_ptr, i64_ptr, u32_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    tl.atomic_add(f64_ptr + offs % 4, x.to(tl.float64) * 0.5, mask=m)
    tl.atomic_add(i64_ptr + offs % 4, x.to(tl.int64) * 1000000000, mask=m)
    tl.atomic_add(u32_ptr + offs % 4, x.to(tl.uint32), mask=m)


@triton.jit
def fp16_add_kernel(x_ptr, acc_ptr, bacc_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    tl.atomic_add(acc_ptr + offs % 4, x, mask=m)
    tl.atomic_add(bacc_ptr + offs % 4, x.to(tl.bfloat16), mask=m)


@triton.jit
def loop_counter_kernel(counter_ptr, out_ptr, iters, BLOCK: tl.constexpr):
    # a scalar atomic in a runtime loop, then a barrier
    acc = tl.zeros([BLOCK], tl.int32)
    for i in range(iters):
        old = tl.atomic_add(counter_ptr, 1)
        acc += old
        tl.debug_barrier()
    tl.store(out_ptr + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK), acc)


@triton.jit
def rank2_kernel(bins_ptr, rows_ptr, old_ptr, BM: tl.constexpr, BN: tl.constexpr):
    # a rank-2 block of pointers, and a column block shared by the rows
    i = tl.arange(0, BM)[:, None]
    j = tl.arange(0, BN)[None, :]
    tl.atomic_add(bins_ptr + i * BN + j, i + j)
    old = tl.atomic_add(rows_ptr + tl.arange(0, BN), 1)
    tl.store(old_ptr + tl.program_id(0) * BM * BN + i * BN + j, old[None, :] + i * 0)


@triton.jit
def randint_kernel(out_ptr, out4_ptr, seed, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.randint(seed, offs), mask=m)
    r = tl.randint4x(seed, offs, n_rounds=7)
    tl.store(out4_ptr + offs * 4, r[0], mask=m)
    tl.store(out4_ptr + offs * 4 + 1, r[1], mask=m)
    tl.store(out4_ptr + offs * 4 + 2, r[2], mask=m)
    tl.store(out4_ptr + offs * 4 + 3, r[3], mask=m)


@triton.jit
def rand_kernel(u_ptr, z_ptr, seed, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(u_ptr + offs, tl.rand(seed, offs), mask=m)
    tl.store(z_ptr + offs, tl.randn(seed, offs), mask=m)


@triton.jit
def dropout_kernel(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    keep = tl.rand(seed, offs) > p
    out = tl.where(keep, x / (1 - p), 0.0)
    tl.store(out_ptr + offs, out, mask=m)
