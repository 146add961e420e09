import triton


@triton.jit
def scale(v):
    return v * 2.0
