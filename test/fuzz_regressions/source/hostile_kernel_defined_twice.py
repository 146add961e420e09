#mt|kernel=k|sig=*fp32, *fp32, i32|D=BLOCK=64|grid=cdiv(n, BLOCK)
import triton
import triton.language as tl


# Defined twice: Python binds the last definition (CMake's check read the
# first, the compiler the last).
@triton.jit
def k(x, n):
    tl.store(x, n * 1.0)


@triton.jit
def k(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs, mask=offs < n) * 4.0, mask=offs < n)
