#mt|kernel=k|sig=*fp32:16, *fp32:16, i32|D=BLOCK=4096
import triton
import triton.language as tl


@triton.jit
def k(x, x_al16, p_x_al16, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    tl.store(x_al16 + o, tl.load(x + o) + p_x_al16)
