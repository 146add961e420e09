# Memory order (issue 17, difference 1): where the seed's lazy lowering
# reads memory after a later store, mytriton lowers the load before the
# store; everywhere else it numbers as the seed (refconf/).
import triton
import triton.language as tl


@triton.jit
def hazard_kernel(x, out):
    i = tl.arange(0, 16)
    v = tl.load(x + i)
    dead = tl.load(out + i)
    tl.store(x + i, 1.0)
    tl.store(out + i, v)


@triton.jit
def loop_hazard_kernel(x, out, n):
    i = tl.arange(0, 16)
    v = tl.load(x + i)
    for k in range(n):
        tl.store(x + i, v + 1.0)
        w = tl.load(x + i)
        tl.store(x + i, 5.0)
        tl.store(out + i, w)
    tl.store(out + i, v)
