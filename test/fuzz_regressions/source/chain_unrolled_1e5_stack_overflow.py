#mt|kernel=k|sig=*fp32, *fp32, i32|D=BLOCK=128|grid=1
import triton
import triton.language as tl


@triton.jit
def k(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    acc = tl.zeros((BLOCK,), tl.float32)
    for i in tl.static_range(100000):
        acc = acc * 1.0001 + v
    tl.store(out + offs, acc)
