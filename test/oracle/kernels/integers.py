import triton
import triton.language as tl


@triton.jit
def int_ops_kernel(a_ptr, b_ptr, s_ptr, shl_ptr, shr_ptr, xor_ptr, mod_ptr, fdiv_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0)
    b = tl.load(b_ptr + offs, mask=mask, other=1)
    s = tl.load(s_ptr + offs, mask=mask, other=0)
    tl.store(shl_ptr + offs, a << s, mask=mask)
    tl.store(shr_ptr + offs, a >> s, mask=mask)
    tl.store(xor_ptr + offs, a ^ b, mask=mask)
    tl.store(mod_ptr + offs, a % b, mask=mask)
    tl.store(fdiv_ptr + offs, a // b, mask=mask)


@triton.jit
def int_scalar_ops_kernel(a_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # Python int operands on both sides, negative ones included.
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0)
    r = (a // 7) * 1000 + (a % -5) * 100 + (-17 // (a | 1)) + (a >> 3) - (1 << 4) + (a ^ -1)
    tl.store(out_ptr + offs, r, mask=mask)


@triton.jit
def unsigned_kernel(a_ptr, b_ptr, w_ptr, q_ptr, r_ptr, sh_ptr, lt_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0)  # uint32
    b = tl.load(b_ptr + offs, mask=mask, other=1)  # uint8
    tl.store(w_ptr + offs, a * 3 + b, mask=mask)
    tl.store(q_ptr + offs, a // b, mask=mask)
    tl.store(r_ptr + offs, a % b, mask=mask)
    tl.store(sh_ptr + offs, a >> 7, mask=mask)
    tl.store(lt_ptr + offs, (a < b).to(tl.int32), mask=mask)


@triton.jit
def int64_kernel(a_ptr, out_ptr, q_ptr, n, k, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0)  # int64
    r = a * 6364136223846793005 + k
    tl.store(out_ptr + offs, r ^ (r >> 29), mask=mask)
    tl.store(q_ptr + offs, a // -1000003 + a % 1000003, mask=mask)


@triton.jit
def umulhi_kernel(a_ptr, b_ptr, hi_ptr, lo_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0)
    b = tl.load(b_ptr + offs, mask=mask, other=0)
    tl.store(hi_ptr + offs, tl.umulhi(a, b), mask=mask)
    tl.store(lo_ptr + offs, a * b, mask=mask)


@triton.jit
def small_ints_kernel(a_ptr, b_ptr, s_ptr, w_ptr, n, BLOCK: tl.constexpr):
    # int8 with int16 promotes to int16; uint8 with int16 to int16; the sum
    # is stored into int8 (truncation).
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0)  # int8
    b = tl.load(b_ptr + offs, mask=mask, other=0)  # int16
    s = a + b
    tl.store(s_ptr + offs, s, mask=mask)
    tl.store(w_ptr + offs, (a * a - 3).to(tl.int8), mask=mask)


@triton.jit
def bool_kernel(x_ptr, y_ptr, and_ptr, xor_ptr, cnt_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0)  # int1
    y = tl.load(y_ptr + offs, mask=mask, other=0)
    tl.store(and_ptr + offs, x & y, mask=mask)
    tl.store(xor_ptr + offs, x ^ y, mask=mask)
    tl.store(cnt_ptr + offs, x.to(tl.int32) + y.to(tl.int32) + (x == y), mask=mask)
