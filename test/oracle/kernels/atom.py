# Atomics, tl.debug_barrier and random numbers against Triton 3.6
# (manifest.d/atom.json): only results that do not depend on the order in
# which programs and threads run (integer sums, max / min, counters, exact
# float sums of small integers, per-element xchg / cas, random bits).
import triton
import triton.language as tl


@triton.jit
def atom_histogram_kernel(x_ptr, bins_ptr, n, NBINS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    tl.atomic_add(bins_ptr + x % NBINS, 1, mask=m)


@triton.jit
def atom_sum_kernel(x_ptr, sum_ptr, counter_ptr, n, BLOCK: tl.constexpr):
    # scalar atomics: once per program
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0)
    tl.atomic_add(sum_ptr, tl.sum(x))
    tl.atomic_add(counter_ptr, 1, sem="relaxed")


@triton.jit
def atom_minmax_kernel(xi_ptr, xf_ptr, imax_ptr, imin_ptr, fmax_ptr, fmin_ptr, umax_ptr, n,
                       BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    xi = tl.load(xi_ptr + offs, mask=m, other=0)
    xf = tl.load(xf_ptr + offs, mask=m, other=0.0)
    tl.atomic_max(imax_ptr + offs % 8, xi, mask=m)
    tl.atomic_min(imin_ptr + offs % 8, xi, mask=m, sem="acquire", scope="cta")
    tl.atomic_max(fmax_ptr + offs % 8, xf, mask=m)
    tl.atomic_min(fmin_ptr + offs % 8, xf, mask=m, sem="release", scope="gpu")
    tl.atomic_max(umax_ptr + offs % 8, xi.to(tl.uint32, bitcast=True), mask=m)


@triton.jit
def atom_xchg_cas_kernel(a_ptr, b_ptr, old_a_ptr, old_b_ptr, n, BLOCK: tl.constexpr):
    # n a multiple of BLOCK: atomic_cas has no mask
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    old = tl.atomic_xchg(a_ptr + offs, offs * 10, mask=m)
    tl.store(old_a_ptr + offs, old, mask=m)
    b = tl.load(b_ptr + offs, mask=m, other=1)
    cmp = tl.where(b % 2 == 0, b, b + 1)
    prev = tl.atomic_cas(b_ptr + offs, cmp, -b, sem="acq_rel", scope="sys")
    tl.store(old_b_ptr + offs, prev, mask=m)


@triton.jit
def atom_bits_kernel(x_ptr, and_ptr, or_ptr, xor_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    tl.atomic_and(and_ptr + offs % 4, x, mask=m)
    tl.atomic_or(or_ptr + offs % 4, x, mask=m)
    tl.atomic_xor(xor_ptr + offs % 4, x, mask=m)


@triton.jit
def atom_small_float_add_kernel(x_ptr, acc_ptr, bacc_ptr, facc_ptr, n, BLOCK: tl.constexpr):
    # integer-valued floats: every order gives the same exact sums
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0)
    tl.atomic_add(acc_ptr + offs % 4, x, mask=m)
    tl.atomic_add(bacc_ptr + offs % 4, x.to(tl.bfloat16), mask=m)
    tl.atomic_add(facc_ptr + offs % 4, x.to(tl.float32), mask=m)


@triton.jit
def atom_loop_counter_kernel(counter_ptr, iters, BLOCK: tl.constexpr):
    for i in range(iters):
        tl.atomic_add(counter_ptr + tl.arange(0, BLOCK) % 2, 1)
        tl.debug_barrier()
        tl.atomic_add(counter_ptr + 2, 1)


@triton.jit
def atom_rank2_kernel(bins_ptr, rows_ptr, BM: tl.constexpr, BN: tl.constexpr):
    i = tl.arange(0, BM)[:, None]
    j = tl.arange(0, BN)[None, :]
    tl.atomic_add(bins_ptr + i * BN + j, i + j)
    tl.atomic_add(rows_ptr + tl.arange(0, BN), 1)


@triton.jit
def atom_randint_kernel(out_ptr, out4_ptr, seed, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.randint(seed, offs), mask=m)
    r = tl.randint4x(seed, offs, n_rounds=7)
    tl.store(out4_ptr + offs * 4, r[0], mask=m)
    tl.store(out4_ptr + offs * 4 + 1, r[1], mask=m)
    tl.store(out4_ptr + offs * 4 + 2, r[2], mask=m)
    tl.store(out4_ptr + offs * 4 + 3, r[3], mask=m)


@triton.jit
def atom_rand_kernel(u_ptr, z_ptr, u4_ptr, seed, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(u_ptr + offs, tl.rand(seed, offs), mask=m)
    tl.store(z_ptr + offs, tl.randn(seed, offs), mask=m)
    u = tl.rand4x(seed, offs)
    tl.store(u4_ptr + offs * 2, u[1], mask=m)
    tl.store(u4_ptr + offs * 2 + 1, u[3], mask=m)


@triton.jit
def atom_dropout_kernel(x_ptr, out_ptr, n, p, seed, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    keep = tl.rand(seed, offs) > p
    out = tl.where(keep, x / (1 - p), 0.0)
    tl.store(out_ptr + offs, out, mask=m)
