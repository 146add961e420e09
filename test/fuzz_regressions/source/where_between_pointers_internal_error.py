#mt|kernel=k|sig=*fp32, *fp32, *fp32, i32|D=N=32
import triton
import triton.language as tl


@triton.jit
def k(x, y, z, n, N: tl.constexpr):
    offs = tl.arange(0, N)
    p = tl.where(n > 0, x, y)
    v = tl.load(p + offs)
    q = tl.where(offs < n, x + offs, x + 2 * offs)
    tl.store(z + offs, v + tl.load(q))
    r = tl.where(offs < n, x, y)
    tl.store(r + offs, v)
