# Helper @triton.jit functions, constexprs and imported helpers
# (test/lang_fn, issue 13).
import triton
import triton.language as tl
from fn_common import leaky_relu
import fn_common


@triton.jit
def relu(x):
    return tl.maximum(x, 0.0)


@triton.jit
def activation(x, KIND: tl.constexpr):
    # returns from compile-time branches
    if KIND == "leaky_relu":
        return leaky_relu(x)
    if KIND == "relu":
        return relu(x)
    return x


@triton.jit
def act_kernel(x_ptr, w_ptr, out_ptr, n, K, BLOCK: tl.constexpr, ACTIVATION: tl.constexpr):
    # a matmul-like reduction over K (out[i] = sum_k x[i*K+k] * w[k]), then
    # the activation chosen by a string constexpr
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    acc = tl.zeros((BLOCK,), tl.float32)
    for k in range(K):
        xv = tl.load(x_ptr + offs * K + k, mask=mask, other=0.0)
        wv = tl.load(w_ptr + k)
        acc += xv * wv
    if ACTIVATION == "leaky_relu":
        acc = leaky_relu(acc)
    acc = activation(acc, ACTIVATION)
    tl.store(out_ptr + offs, acc, mask=mask)


@triton.jit
def add2(a, b):
    return a + b


@triton.jit
def mul2(a, b):
    return a * b


@triton.jit
def sum_prod(a, b):
    # a tuple return; helpers calling helpers
    return add2(a, b), mul2(a, b)


HALF: tl.constexpr = tl.constexpr(0.5)


@triton.jit
def affine(x, scale=1.0, shift: tl.constexpr = HALF, *, bias=0.0):
    return x * scale + shift + bias


@triton.jit
def tuple_kernel(x_ptr, y_ptr, s_ptr, p_ptr, a_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    s, p = sum_prod(x, y)
    tl.store(s_ptr + offs, s, mask=mask)
    tl.store(p_ptr + offs, p, mask=mask)
    # keyword arguments and defaults: x*2 + 0.5, then (.)*1 + 0.25 + 1
    a = affine(x, scale=2.0)
    a = affine(a, shift=0.25, bias=1.0)
    a = fn_common.square_plus(a, c=y)
    tl.store(a_ptr + offs, a, mask=mask)


@triton.jit
def step(acc, x, i):
    return acc + x * i, i


@triton.jit
def loop_kernel(x_ptr, out_ptr, n, ITERS, BLOCK: tl.constexpr):
    # a helper called in a runtime loop
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    acc = tl.zeros((BLOCK,), tl.float32)
    for i in range(ITERS):
        acc, last = step(acc, x, i)
    tl.store(out_ptr + offs, acc, mask=mask)


@triton.jit
def poly(x, COEFS: tl.constexpr):
    r = tl.zeros(x.shape, x.dtype)
    for c in COEFS:
        r = r * x + c
    return r


@triton.jit
def constexpr_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, COEFS: tl.constexpr,
                     SCALE: tl.constexpr, USE_LOG: tl.constexpr, OFFSET: tl.constexpr = None):
    # tuple, float, bool and None constexprs; a local constexpr
    tl.static_assert(len(COEFS) == 3, "COEFS needs three coefficients")
    tl.static_assert(BLOCK % 32 == 0)
    LN2: tl.constexpr = 0.6931471805599453
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = poly(x, COEFS) * SCALE
    if USE_LOG:
        y = y * LN2
    if OFFSET is not None:
        y = y + OFFSET
    tl.store(out_ptr + offs, y, mask=mask)


@triton.jit
def print_kernel(x_ptr, i_ptr, BLOCK: tl.constexpr):
    # tl.device_print and print(): Triton's format, every element
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    i = tl.load(i_ptr + offs)
    tl.device_print("x", x)
    print("vals", i, x * 2)
    tl.device_print("h: ", i, hex=True)


@triton.jit
def check_nonnegative(x, mask):
    tl.device_assert(x >= 0, "negative input", mask=mask)


@triton.jit
def assert_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # tl.device_assert: only with DEBUG ON (Triton's debug=True)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=-1.0)
    check_nonnegative(x, mask)
    tl.store(out_ptr + offs, x + 1.0, mask=mask)


@triton.jit
def print2d_kernel(x_ptr, BM: tl.constexpr, BN: tl.constexpr):
    # a tile, a column of it and a row of it
    r = tl.arange(0, BM)
    c = tl.arange(0, BN)
    t = tl.load(x_ptr + r[:, None] * BN + c[None, :])
    tl.device_print("t", t)
    tl.device_print("r", r[:, None])
    tl.device_print("c", c[None, :].to(tl.int8), hex=True)
    # a block of rank 3 prints its three indices
    tl.device_print("u", tl.reshape(t, (2, BM // 2, BN)))


@triton.jit
def _masked_tile(acc, x_ptr, offs_m: tl.constexpr, offs_n: tl.constexpr, n,
                 BLOCK: tl.constexpr):
    # tutorial 06's helper form (issue 51): offs_m and offs_n are annotated
    # tl.constexpr and given runtime blocks; Triton 3.6 ignores the
    # annotation for a non-constexpr argument
    mask = (offs_m[:, None] >= offs_n[None, :]) & (offs_n[None, :] < n)
    x = tl.load(x_ptr + offs_m[:, None] * BLOCK + offs_n[None, :])
    return acc + tl.where(mask, x, 0.0)


@triton.jit
def forms_kernel(x_ptr, out_ptr, rows_ptr, n, BLOCK: tl.constexpr):
    # constructs real kernel libraries use (issue 51): tl.assume (a runtime
    # and a compile-time fact), the helper above, and the dtype of a name
    # assigned a number (Triton makes `flag = 0` an int32 tensor)
    pid = tl.program_id(0)
    tl.assume(pid >= 0)
    tl.assume(n > 0)
    tl.assume(BLOCK > 0)
    offs_m = pid * BLOCK + tl.arange(0, BLOCK)
    offs_n = tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    acc = _masked_tile(acc, x_ptr, offs_m, offs_n, n, BLOCK)
    flag = 0
    scale = 2.5
    rows = (tl.sum(acc, axis=1) > 0).to(flag.dtype)
    tl.store(out_ptr + offs_m[:, None] * BLOCK + offs_n[None, :], acc * scale.to(tl.float32))
    tl.store(rows_ptr + offs_m, rows + flag)


@triton.jit
def _maybe_desc(desc_or_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # the tutorials' _maybe_make_tensor_desc: isinstance on a traced value
    if isinstance(desc_or_ptr, tl.tensor_descriptor):
        return desc_or_ptr
    else:
        return tl.make_tensor_descriptor(desc_or_ptr, [M, N], [N, 1], [BM, BN])


@triton.jit
def classes_kernel(x_ptr, out_ptr, flags_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # module-level constexprs of triton.language.core, and isinstance as
    # Triton 3.6 evaluates it: on the traced values, constexprs unwrapped
    # (issue 51)
    tl.static_assert(BM * BN <= triton.language.core.TRITON_MAX_TENSOR_NUMEL)
    pid = tl.program_id(0)
    desc = _maybe_desc(_maybe_desc(x_ptr, M, N, BM, BN), M, N, BM, BN)
    tile = desc.load([pid * BM, triton.language.core.CONSTEXPR_0])
    zero = 0
    flags = (isinstance(BM, int) * 1 + isinstance(BM, tl.constexpr) * 2 +
             isinstance(zero, tl.tensor) * 4 + isinstance(zero, (int, float)) * 8 +
             isinstance(tile, tl.tensor) * 16 + isinstance(tile.dtype, tl.dtype) * 32 +
             isinstance(desc, tl.tensor) * 64 + isinstance(x_ptr, tl.tensor) * 128 +
             isinstance(1.5, float) * 256 + isinstance(True, int) * 512)
    offs_m = pid * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(out_ptr + offs_m[:, None] * N + offs_n[None, :], tile + zero, mask=mask)
    tl.store(flags_ptr + pid, flags)


@triton.jit
def timer_kernel(x_ptr, out_ptr, facts_ptr, n, BLOCK: tl.constexpr):
    # tl.extra.cuda's special registers and launch constants (issue 51): the
    # clock read before and after the work, in source order
    t0 = tl.extra.cuda.globaltimer()
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, x * 2.0, mask=offs < n)
    t1 = tl.extra.cuda.globaltimer()
    sm = tl.extra.cuda.smid()
    facts = facts_ptr + tl.program_id(0) * 4
    tl.store(facts, (t1 - t0 >= 0).to(tl.int32) + (t0 > 0).to(tl.int32) * 2)
    tl.store(facts + 1, (sm >= 0).to(tl.int32))
    tl.store(facts + 2, tl.extra.cuda.num_warps())
    tl.store(facts + 3, tl.extra.cuda.num_threads())
