#mt|kernel=k|sig=*fp32, *fp32, i32|D=R=8|D=C=16
import triton
import triton.language as tl


@triton.jit
def k(x, y, n, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R)
    cols = tl.arange(0, C)
    ptrs = x + offs * n
    p2 = ptrs[:, None] + cols[None, :]
    v = tl.load(p2, mask=cols[None, :] < n)
    t = tl.trans(y + offs[:, None] * C + cols[None, :])
    tl.store(t, tl.trans(v))
    tl.store(tl.reshape(tl.expand_dims(ptrs, 0), (R,)) + 1, offs.to(tl.float32))
