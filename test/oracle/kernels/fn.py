# Helper functions, imported helpers and constexprs (issue 13) against
# Triton: manifest.d/fn.json.
import triton
import triton.language as tl
from fn_helpers import leaky_relu
import fn_helpers


@triton.jit
def relu(x):
    return tl.maximum(x, 0.0)


@triton.jit
def activation(x, KIND: tl.constexpr):
    if KIND == "leaky_relu":
        return leaky_relu(x)
    if KIND == "relu":
        return relu(x)
    return x


@triton.jit
def fn_act_kernel(x_ptr, w_ptr, out_ptr, n, K, BLOCK: tl.constexpr, ACTIVATION: tl.constexpr):
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
    return add2(a, b), mul2(a, b)


HALF: tl.constexpr = tl.constexpr(0.5)


@triton.jit
def affine(x, scale=1.0, shift: tl.constexpr = HALF):
    return x * scale + shift


@triton.jit
def fn_tuple_kernel(x_ptr, y_ptr, s_ptr, p_ptr, a_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    s, p = sum_prod(x, y)
    tl.store(s_ptr + offs, s, mask=mask)
    tl.store(p_ptr + offs, p, mask=mask)
    a = affine(x, scale=2.0)
    a = affine(a, shift=0.25)
    a = fn_helpers.square_plus(a, c=y)
    tl.store(a_ptr + offs, a, mask=mask)


@triton.jit
def step(acc, x, i):
    return acc + x * i, i


@triton.jit
def fn_loop_kernel(x_ptr, out_ptr, n, ITERS, BLOCK: tl.constexpr):
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
    for k in tl.static_range(len(COEFS)):
        r = r * x + COEFS[k]
    return r


@triton.jit
def fn_constexpr_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, COEFS: tl.constexpr,
                        SCALE: tl.constexpr, USE_LOG: tl.constexpr):
    tl.static_assert(len(COEFS) == 3, "COEFS needs three coefficients")
    LN2: tl.constexpr = 0.6931471805599453
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = poly(x, COEFS) * SCALE
    if USE_LOG:
        y = y * LN2
    tl.store(out_ptr + offs, y, mask=mask)
